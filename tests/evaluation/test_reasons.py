"""Every unsupported span says why, decisive reasons first, and only a few of them."""

from types import SimpleNamespace

import pytest

from ragguard.evaluation.assemble import MAX_REASONS, _span_reasons
from ragguard.evaluation.plan import PairScore, SpanPlan
from ragguard.scoring.interface.protocols import Reason


def read_with(fired):
    """A span's work with the checks that fired on each of its items (item index -> reasons)."""
    return SpanPlan(span=None, pairs={i: PairScore(0.1, why) for i, why in fired.items()})


def spans(guard, response, *passages):
    trace = {
        "trace_id": "t",
        "query": "Tell me about the tower.",
        "items": [{"id": f"d{n}", "text": text} for n, text in enumerate(passages, start=1)],
        "response": response,
    }
    return guard.evaluate(trace).spans


@pytest.mark.parametrize(
    ("response", "passages"),
    [
        ("The tower is in Rome [7].", ["The tower is in Paris."]),
        ("Photosynthesis converts light into chemical energy.", ["The tower is in Paris."]),
        ("The Eiffel Tower is in Berlin [1].", ["The Eiffel Tower is in Paris, France."]),
        ("The tower opened in 1912.", []),
    ],
)
def test_every_unsupported_span_has_a_reason(guard, response, passages):
    unsupported = [s for s in spans(guard, response, *passages) if s.supported is False]
    assert unsupported
    for span in unsupported:
        assert 1 <= len(span.reasons) <= MAX_REASONS, span


def test_a_span_no_check_explains_gets_low_support_with_its_score(guard):
    (span,) = spans(
        guard, "Photosynthesis converts light into chemical energy.", "The tower is in Paris."
    )
    assert span.supported is False
    (reason,) = span.reasons
    assert reason.check == "low_support" and reason.item == "d1"
    assert reason.claim == f"support {span.support:.2f}"
    assert str(reason).startswith("low_support: 'support ")


def test_contradictions_come_before_uncovered_words_and_few_are_shown():
    """21 reason lines on one span helped no one: the decisive few, contradictions first."""
    items = [SimpleNamespace(id=f"d{n}") for n in range(4)]
    fired = {
        0: (Reason("uncovered", "golden weathervane", ""), Reason("number", "99", "12")),
        1: (Reason("uncovered", "dragon", ""), Reason("date", "1850", "1901")),
        2: tuple(Reason("entity", f"Name{n}", "Lyon") for n in range(6)),
        3: (Reason("number", "99", "12"),),  # the same reason from another item: once
    }
    trace = SimpleNamespace(items=items)
    reasons = _span_reasons(read_with(fired), trace, [0, 1, 2, 3], support=0.1, eta=0.5)
    assert len(reasons) == MAX_REASONS
    assert [(r.check, r.item) for r in reasons] == [
        ("number", "d0"),
        ("date", "d1"),
        ("entity", "d2"),
        ("entity", "d2"),
        ("entity", "d2"),
    ]


def test_a_reason_names_the_value_a_pronoun_sentence_gives(guard):
    (span,) = spans(
        guard,
        "The Eiffel Tower was completed in 1925.",
        "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. "
        "It was completed in 1889.",
    )
    assert span.supported is False
    assert str(span.reasons[0]) == "date: '1925' vs '1889' in d1"


def test_items_that_do_not_bear_on_the_claim_give_no_reason_when_the_best_one_does():
    items = [SimpleNamespace(id=f"d{n}") for n in range(3)]
    fired = {
        0: (Reason("date", "1925", "1889"),),
        1: (Reason("number", "310", ""), Reason("uncovered", "golden weathervane", "")),
        2: (Reason("date", "1925", ""), Reason("entity", "Berlin", "Paris")),
    }
    trace = SimpleNamespace(items=items)
    reasons = _span_reasons(read_with(fired), trace, [0, 1, 2], support=0.1, eta=0.5)
    assert [str(r) for r in reasons] == [
        "date: '1925' vs '1889' in d0",
        "entity: 'Berlin' vs 'Paris' in d2",
    ]


def test_a_value_stated_elsewhere_replaces_nothing():
    items = [SimpleNamespace(id=f"d{n}") for n in range(2)]
    fired = {0: (Reason("date", "1925", ""),), 1: (Reason("date", "1925", "1889"),)}
    trace = SimpleNamespace(items=items)
    reasons = _span_reasons(read_with(fired), trace, [0, 1], support=0.1, eta=0.5)
    assert [str(r) for r in reasons] == ["date: '1925' vs '1889' in d1"]


def test_hedge_words_are_no_uncovered_content(guard):
    (span,) = spans(
        guard,
        "The Eiffel Tower was probably built in 1925.",
        "The Eiffel Tower is a lattice tower in Paris. It was completed in 1889.",
    )
    assert span.supported is False
    assert all("probably" not in r.claim for r in span.reasons)


@pytest.mark.parametrize(
    ("question", "answer", "passage", "kind"),
    [
        (
            "Who built the Kellan Bridge?",
            "Lukas Weber.",
            "The Kellan Bridge in Riga was built by Anna Brandt and opened in 1931.",
            "entity",
        ),
        (
            "Which is the busiest station in Riga?",
            "Kestrel Station.",
            "Kestrel Station is the second-busiest station in Riga. It opened in 1931.",
            "superlative",
        ),
    ],
)
def test_a_fragment_answer_is_checked_as_its_question_reads_it(
    guard, question, answer, passage, kind
):
    trace = {
        "trace_id": "t",
        "query": question,
        "items": [{"id": "d1", "text": passage}],
        "response": answer,
    }
    (span,) = guard.evaluate(trace).spans
    assert span.supported is False
    assert kind in {r.check for r in span.reasons}
    assert span.text == answer  # the span is shown as written


@pytest.mark.parametrize(
    ("question", "answer", "supported"),
    [
        ("Is the Kellan Bridge the longest bridge in Riga?", "Yes.", True),
        ("Is the Kellan Bridge the longest bridge in Riga?", "No.", False),
        ("Is the Kellan Bridge in Oslo?", "Yes.", False),
        ("Which is the longest bridge in Riga?", "It is the Kellan Bridge.", True),
        ("Which bridge in Riga is the longest?", "The Kellan Bridge.", True),
    ],
)
def test_a_yes_a_no_or_a_framed_answer_is_checked_as_its_question_reads_it(
    guard, question, answer, supported
):
    trace = {
        "trace_id": "t",
        "query": question,
        "items": [{"id": "d1", "text": "The Kellan Bridge is the longest bridge in Riga."}],
        "response": answer,
    }
    (span,) = guard.evaluate(trace).spans
    assert span.supported is supported
    assert span.text == answer
