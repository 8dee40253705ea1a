"""The issue's acceptance cases on hand-written traces, through the public Guard API."""

import numpy as np
import pytest

from ragguard import Config, Guard, TraceValidationError
from ragguard.evaluation.evaluator import Evaluator
from ragguard.scoring.interface.protocols import Reason

PARIS = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was constructed from 1887 to 1889 as the entrance to the 1889 World's Fair."
)
BAKING = "To bake sourdough bread, feed the starter the night before and proof the dough slowly."


def trace(response, items=None, **extra):
    items = (
        items if items is not None else [{"id": "d1", "text": PARIS}, {"id": "d2", "text": BAKING}]
    )
    return {
        "trace_id": "t",
        "query": "Where is the Eiffel Tower?",
        "items": items,
        "response": response,
        **extra,
    }


def span_of(evaluation, fragment):
    return next(s for s in evaluation.spans if fragment in s.text)


def test_irrelevant_item_scores_clearly_below_relevant(guard):
    evaluation = guard.evaluate(trace("The Eiffel Tower is in Paris."))
    relevance = {i.id: i.relevance for i in evaluation.items}
    assert relevance["d1"] - relevance["d2"] > 0.3
    assert evaluation.items[0].relevant is True and evaluation.items[1].relevant is False


def test_wrong_city_is_not_supported_and_right_city_is(guard):
    evaluation = guard.evaluate(
        trace("The Eiffel Tower is in Berlin. The Eiffel Tower is in Paris.")
    )
    berlin, paris = evaluation.spans
    assert berlin.kind == "objective" and berlin.supported is False
    assert paris.supported is True and paris.evidence_id == "d1"
    assert paris.support > berlin.support
    assert evaluation.metrics.hallucination is True
    assert evaluation.metrics.support_rate == pytest.approx(0.5)


def test_pronoun_claim_is_verified_with_its_context(guard, embedder):
    response = "The Eiffel Tower stands in Paris. It was constructed from 1887 to 1889."
    built = span_of(guard.evaluate(trace(response)), "1887")
    assert built.kind == "objective" and built.supported is True
    without_context = Guard(
        Config(support={"use_context": False}),
        evaluator=Evaluator(Config(support={"use_context": False}), embedder=embedder),
    )
    unnamed = {**trace(response), "query": "Tell me something."}
    alone = span_of(without_context.evaluate(unnamed), "1887")
    assert built.support > alone.support  # "It" is resolved by the preceding sentence
    # an answer's pronoun also takes the question's subject, with or without the context
    asked = span_of(without_context.evaluate(trace(response)), "1887")
    assert asked.support == pytest.approx(built.support, abs=0.05)


def test_hedged_opinion_is_subjective_and_not_scored(guard):
    evaluation = guard.evaluate(trace("I think it might be the most beautiful tower in the world."))
    (span,) = evaluation.spans
    assert span.kind == "subjective"
    assert span.support is None and span.supported is None
    assert evaluation.metrics.support_rate is None and evaluation.metrics.hallucination is False


def test_hedged_factual_claim_is_scored_and_its_hedge_recorded(guard):
    # The hedge does not make a wrong date an opinion: it is scored like the plain claim.
    items = [{"id": "d1", "text": "The Eiffel Tower was completed in 1889."}]
    evaluation = guard.evaluate(trace("The Eiffel Tower was likely completed in 1925.", items))
    (span,) = evaluation.spans
    assert span.kind == "objective" and span.hedges == ("likely",)
    assert span.support is not None and span.supported is False
    assert evaluation.metrics.hallucination is True


def test_refusal_is_an_abstention(guard):
    evaluation = guard.evaluate(trace("I cannot answer from the provided documents."))
    assert [s.kind for s in evaluation.spans] == ["abstention"]
    assert evaluation.metrics.abstained is True


def test_citation_to_a_non_supporting_item_has_low_citation_support(guard):
    evaluation = guard.evaluate(
        trace("The Eiffel Tower is in Paris [2]. It opened for the 1889 World's Fair [1].")
    )
    wrong, right = evaluation.spans
    assert wrong.citations == ("d2",) and right.citations == ("d1",)
    # the claim itself is grounded (support) but pinned to the wrong source (citation)
    assert wrong.supported is True
    assert wrong.citation_support < 0.2 < right.citation_support
    assert evaluation.metrics.citation_precision == pytest.approx(0.5)
    assert evaluation.metrics.citation_recall == pytest.approx(0.5)
    assert evaluation.metrics.n_uncited == 0


def test_unknown_citation_is_flagged_by_default(guard):
    evaluation = guard.evaluate(trace("The Eiffel Tower is in Paris [7]."))
    (span,) = evaluation.spans
    assert span.unknown_citations == ("7",) and span.citation_support == 0.0
    assert span.supported is True
    assert evaluation.metrics.citation_precision == 0.0


def test_unknown_citation_raises_a_field_error_when_strict(guard):
    strict = Guard(
        Config(unknown_citations="error"),
        evaluator=Evaluator(Config(unknown_citations="error"), embedder=guard.models.embedder),
    )
    with pytest.raises(TraceValidationError) as raised:
        strict.evaluate(trace("The Eiffel Tower is in Paris [7]."))
    assert raised.value.field == "response" and "7" in str(raised.value)


def test_references_restrict_support_to_the_named_item(guard):
    items = [
        {
            "id": "img-a",
            "image": "a.png",
            "metadata": {"caption": "A red bicycle leaning on a wall."},
        },
        {"id": "img-b", "image": "b.png", "metadata": {"caption": "A black cat asleep on a sofa."}},
    ]
    evaluation = guard.evaluate(trace("A cat is sleeping on a sofa in <image1>.", items=items))
    (span,) = evaluation.spans
    assert span.references == ("img-a",)
    assert span.evidence_id == "img-a" and span.supported is False
    # the missing image files are reported per item; the trace is still evaluated
    assert {e.field for e in evaluation.errors} == {"items[0].image", "items[1].image"}


def test_image_item_without_text_gets_no_made_up_score(guard):
    items = [{"id": "d1", "text": PARIS}, {"id": "pic", "image": "missing.png"}]
    evaluation = guard.evaluate(trace("The Eiffel Tower is in Paris.", items=items))
    pic = evaluation.items[1]
    assert pic.relevance is None and pic.relevant is None and pic.modality == "image"
    assert "no scorer" in pic.error


def test_claim_with_nothing_retrieved_is_unsupported(guard):
    evaluation = guard.evaluate(trace("The Eiffel Tower is in Paris.", items=[]))
    assert evaluation.spans[0].support == 0.0
    assert evaluation.metrics.hallucination is True and evaluation.metrics.mean_relevance is None


def test_given_spans_are_used_as_given(guard):
    response = "The Eiffel Tower is in Paris and it is made of iron."
    evaluation = guard.evaluate(
        trace(response, response_spans=["The Eiffel Tower is in Paris", "it is made of iron"])
    )
    assert [s.text for s in evaluation.spans] == [
        "The Eiffel Tower is in Paris",
        "it is made of iron",
    ]
    assert response[evaluation.spans[1].start : evaluation.spans[1].end] == "it is made of iron"


def test_missing_query_names_the_field(guard):
    bad = trace("x")
    del bad["query"]
    with pytest.raises(TraceValidationError) as raised:
        guard.evaluate(bad)
    assert raised.value.field == "query"


def test_a_batch_makes_one_model_call_per_role_and_isolates_bad_traces(guard):
    calls = {"relevance": 0, "support": 0}
    evaluator = guard.evaluator
    relevance, support = evaluator.models.relevance_scorer, evaluator.models.support_scorer

    class Counting:
        def __init__(self, inner, name):
            self.inner, self.name, self.threshold = inner, name, inner.threshold

        def __getattr__(self, attr):
            calls[self.name] += 1
            return getattr(self.inner, attr)

    strict = Config(unknown_citations="error")  # a citation naming nothing: a bad trace
    counted = Guard(
        evaluator=Evaluator(
            strict,
            relevance=Counting(relevance, "relevance"),
            support=Counting(support, "support"),
            embedder=evaluator.models.embedder,
        )
    )
    traces = [trace(f"The Eiffel Tower is in Paris. Claim {i}.") for i in range(5)]
    traces.insert(2, trace("Cites nothing real [9]."))
    outcomes = list(counted.evaluate_stream(traces))
    assert calls == {"relevance": 1, "support": 1}
    assert isinstance(outcomes[2], TraceValidationError)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 5
    assert set(outcomes[0].timing_ms) >= {"spans", "relevance", "support", "total"}


class _Plain:
    """A support scorer with fixed low scores and no reasons, like ``nli``."""

    threshold = 0.5

    def support(self, claims, evidence):
        return np.full(len(claims), 0.2, dtype=np.float32)


class _Explaining(_Plain):
    """The same scores, with the same reasons for every pair, like the lite scorer."""

    def __init__(self, reasons):
        self.reasons = reasons

    def support_with_reasons(self, claims, evidence):
        return self.support(claims, evidence), [self.reasons for _ in claims]


def test_evaluator_gives_each_reason_once_with_its_item_and_low_support_without_them(guard):
    from ragguard.evaluation.evaluator import Evaluator
    from ragguard.schema import Trace

    def run(scorer):
        evaluator = Evaluator(
            support=scorer,
            relevance=guard.models.relevance_scorer,
            embedder=guard.models.embedder,
        )
        items = [{"id": "d1", "text": PARIS}, {"id": "d2", "text": BAKING}]
        (span,) = evaluator.evaluate_batch(
            [Trace.parse({"trace_id": "t", "query": "q", "items": items, "response": "It is."})]
        )[0].spans
        return span

    reason = Reason("number", "50", "100")
    span = run(_Explaining((reason,)))
    assert span.supported is False
    assert [(r.check, r.claim, r.evidence, r.item) for r in span.reasons] == [
        ("number", "50", "100", "d1")
    ]
    # a scorer that gives no reasons (nli): the span still says why, by its score
    assert [(r.check, r.claim, r.item) for r in run(_Plain()).reasons] == [
        ("low_support", "support 0.20", "d1")
    ]
