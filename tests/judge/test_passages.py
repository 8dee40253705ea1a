"""What the judge is shown of a trace's items (``ragguard/judge/passages.py``)."""

from ragguard.config import JudgeConfig
from ragguard.judge.passages import Candidates, chosen_items, cut_to_fit
from ragguard.judge.questions import support_questions
from ragguard.schema import Trace

FILLER = [
    f"Paragraph {n} is about the harbour's old ferries and the weather of that year."
    for n in range(40)
]


def _found(best: str, *cited: str, named: bool = False) -> Candidates:
    ids = ["d1", "d2", "d3", "d4", "d5", "d6"]
    lead = [best, *cited]
    return Candidates(tuple(dict.fromkeys([*lead, *ids])), len(lead), named)


def test_the_claims_of_one_answer_are_shown_one_set_holding_each_claims_best_item():
    retrieval = ["d1", "d2", "d3", "d4", "d5", "d6"]
    found = [_found("d5"), _found("d2"), _found("d5")]

    chosen = chosen_items(found, retrieval, 3)

    assert chosen == [("d1", "d2", "d5")] * 3  # leading items, then retrieval order, in order


def test_a_claim_whose_own_items_the_shared_set_cannot_hold_keeps_its_own():
    retrieval = ["d1", "d2", "d3", "d4", "d5", "d6"]
    found = [_found("d6"), _found("d5"), _found("d4"), _found("d3")]

    chosen = chosen_items(found, retrieval, 3)

    assert chosen[:3] == [("d4", "d5", "d6")] * 3
    assert chosen[3] == ("d1", "d2", "d3")  # its best, d3, first, then retrieval order


def test_a_claim_that_names_its_items_is_shown_those_alone():
    named = Candidates(("d2",), 1, True)
    chosen = chosen_items([_found("d5"), named], ["d1", "d2", "d3", "d4", "d5", "d6"], 3)
    assert chosen == [("d1", "d2", "d5"), ("d2",)]


FACTS = [
    "The Eiffel Tower was completed in 1889.",
    "The Louvre opened as a museum in 1793.",
    "Notre-Dame de Paris was damaged by fire in 2019.",
]


def _paris(guard):
    """Three claims, each resting on its own item, after three items about something else;
    the trace and its spans as the lite tier evaluated them."""
    items = [{"id": f"d{n}", "text": f"{FILLER[n]} {FILLER[n + 1]}"} for n in range(1, 4)]
    items += [{"id": f"d{n + 4}", "text": fact} for n, fact in enumerate(FACTS)]
    trace = Trace.model_validate(
        {
            "trace_id": "p",
            "query": "Tell me about Paris.",
            "items": items,
            "response": " ".join(FACTS),
        }
    )
    return trace, guard.evaluate(trace).spans


def test_the_cascade_asks_the_spans_of_one_answer_about_the_same_passages(guard):
    trace, spans = _paris(guard)
    assert [s.evidence_id for s in spans] == ["d4", "d5", "d6"]
    config = JudgeConfig(base_url="http://127.0.0.1:9", model="m")

    questions = support_questions(config, trace, spans)

    assert {q.passages for q in questions} == {tuple(FACTS)}
    alone = [support_questions(config, trace, [s])[0] for s in spans]
    assert [FACTS[n] in q.passages for n, q in enumerate(alone)] == [True] * 3


def test_a_span_is_asked_the_same_question_whichever_spans_are_asked_with_it(guard):
    trace, spans = _paris(guard)
    config = JudgeConfig(base_url="http://127.0.0.1:9", model="m")

    # the calibration sample's first pass asks one span; the second asks it with the band's
    alone = support_questions(config, trace, spans, [0])
    together = support_questions(config, trace, spans, [0, 1, 2])

    assert alone[0] == together[0] and alone[0].passages == tuple(FACTS)


def test_a_lone_long_item_is_shown_the_whole_evidence_budget_of_a_question():
    long = "x" * 9000
    assert cut_to_fit([long], 3, 1500) == (long[:4500],)


def test_long_items_share_the_budget_and_a_short_one_leaves_its_share_to_them():
    long, short = "y" * 9000, "short item"

    assert [len(t) for t in cut_to_fit([long, long, long], 3, 1500)] == [1500] * 3
    shared = cut_to_fit([long, short, long], 3, 1500)
    assert shared[1] == short
    assert [len(t) for t in shared] == [2245, len(short), 2245]  # (4500 - 10) / 2 each
    assert cut_to_fit([short, "z"], 3, 1500) == (short, "z")


def test_the_cascade_shows_a_supporting_sentence_past_the_first_share_of_a_lone_item(guard):
    late = "The harbour's lighthouse was first lit in 1871."
    item = " ".join(FILLER[:30]) + " " + late  # the sentence starts past character 2000
    trace = Trace.model_validate(
        {
            "trace_id": "l",
            "query": "When was the lighthouse first lit?",
            "items": [{"id": "d1", "text": item}],
            "response": late,
        }
    )
    spans = guard.evaluate(trace).spans
    assert len(item) > 2000 and item.index(late) > 2000

    config = JudgeConfig(base_url="http://127.0.0.1:9", model="m")
    (question,) = support_questions(config, trace, spans)

    assert late in question.passages[0]
