"""An evaluation as named results: one per metric (``evaluation_results``), which the OTel
exporter writes as events and feedback, and, for Phoenix and Langfuse, on the spans it came
from: the trace-level results on the root span (the answer's span when the root never
arrived), per-document relevance on each retriever span at the document's position, and
``ragguard.status`` saying whether there was anything to evaluate. Every backend shows the
same names, scores and explanations, so the same verdict."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ragguard.schema import (
    ABSTENTION_RESULT,
    ANSWER_RELEVANCE_RESULT,
    CITATION_PRECISION_RESULT,
    CITATION_RECALL_RESULT,
    DOCUMENT_RELEVANCE_RESULT,
    HALLUCINATION_RESULT,
    RELEVANCE_RESULT,
    RELEVANT_AT_K_RESULT,
    STATUS_RESULT,
    SUPPORT_RATE_RESULT,
    UNSUPPORTED_SPANS_RESULT,
    Evaluation,
    Metrics,
    OtelOrigin,
    Trace,
)


@dataclass(frozen=True)
class Result:
    name: str
    score: float | None
    label: str | None
    explanation: str


@dataclass(frozen=True)
class DocumentResult:
    span_id: str
    position: int
    result: Result


def evaluation_results(evaluation: Evaluation) -> Iterator[Result]:
    """One result per metric that applies to this answer: the OTel exporter's events and
    feedback, Phoenix's annotations and Langfuse's scores."""
    metrics, eta = evaluation.metrics, evaluation.thresholds
    n_relevant = sum(1 for item in evaluation.items if item.relevant)
    n_supported = sum(1 for span in evaluation.spans if span.supported)
    if metrics.mean_relevance is not None:
        yield Result(
            RELEVANCE_RESULT,
            metrics.mean_relevance,
            None,
            f"mean RS of {len(evaluation.items)} retrieved items",
        )
    if metrics.relevant_at_k is not None:
        yield Result(
            RELEVANT_AT_K_RESULT,
            metrics.relevant_at_k,
            None,
            f"{n_relevant} of {len(evaluation.items)} retrieved items relevant "
            f"(RS >= {eta.eta_relevance:.2f})",
        )
    if metrics.support_rate is not None:
        yield Result(
            SUPPORT_RATE_RESULT,
            metrics.support_rate,
            None,
            f"{n_supported} of {metrics.n_objective} objective spans supported "
            f"(CS >= {eta.eta_support:.2f})",
        )
    yield _hallucination_result(metrics)
    if metrics.answer_relevance is not None:
        yield _answer_relevance_result(evaluation, metrics.answer_relevance)
    yield Result(
        ABSTENTION_RESULT,
        float(metrics.abstained),
        "abstained" if metrics.abstained else "answered",
        f"{metrics.n_abstention} abstention spans, {metrics.n_objective} objective",
    )
    for name, value in (
        (CITATION_PRECISION_RESULT, metrics.citation_precision),
        (CITATION_RECALL_RESULT, metrics.citation_recall),
    ):
        if value is not None:
            yield Result(name, value, None, f"{metrics.n_uncited} objective spans uncited")


def _hallucination_result(metrics: Metrics) -> Result:
    if metrics.hallucination is None and metrics.no_context:  # nothing to check claims against
        return Result(HALLUCINATION_RESULT, None, "no_context", "the trace gave no context")
    if metrics.hallucination is None:  # claims no loaded model could read: no verdict
        return Result(
            HALLUCINATION_RESULT, None, "unscored", "no claim of the answer could be scored"
        )
    return Result(
        HALLUCINATION_RESULT,
        float(metrics.hallucination),
        "hallucinated" if metrics.hallucination else "grounded",
        "an objective span is not supported by the retrieved items"
        if metrics.hallucination
        else "no unsupported objective span",
    )


def _answer_relevance_result(evaluation: Evaluation, score: float) -> Result:
    relevant = evaluation.metrics.answer_relevant
    return Result(
        ANSWER_RELEVANCE_RESULT,
        score,
        None if relevant is None else ("relevant" if relevant else "off_topic"),
        f"{sum(1 for s in evaluation.spans if s.addresses_query)} of "
        f"{sum(1 for s in evaluation.spans if s.addresses_query is not None)} sentences "
        f"address the query (threshold {evaluation.thresholds.eta_answer:.2f})"
        + ("; decided by the judge" if evaluation.answer_judge is not None else ""),
    )


def target_span(trace: Trace) -> str | None:
    """The span a trace's results go on; None for a trace not from ``serve``."""
    origin = OtelOrigin.of(trace)
    return None if origin is None else origin.target_span_id


def trace_results(evaluation: Evaluation) -> list[Result]:
    results = list(evaluation_results(evaluation))
    unsupported = [s for s in evaluation.spans if s.kind == "objective" and s.supported is False]
    explanation = "; ".join(
        f"span {s.start}-{s.end} unsupported (best evidence {s.evidence_id})" for s in unsupported
    )
    results.append(
        Result(UNSUPPORTED_SPANS_RESULT, float(len(unsupported)), None, explanation or "none")
    )
    evaluated = f"{len(evaluation.spans)} answer spans"
    results.append(Result(STATUS_RESULT, None, "evaluated", evaluated))
    return results


def document_results(trace: Trace, evaluation: Evaluation) -> list[DocumentResult]:
    """Relevance per retrieved document, where the document came from a retriever span."""
    origin = OtelOrigin.of(trace)
    retrievers = set(origin.retrieval_span_ids) if origin is not None else set()
    scored = {item.id: item for item in evaluation.items}
    results = []
    for item in trace.items:
        extra = item.model_extra or {}
        span_id, position = extra.get("span_id"), extra.get("position")
        verdict = scored.get(item.id)
        if span_id not in retrievers or not isinstance(position, int) or verdict is None:
            continue
        label = None if verdict.relevant is None else "relevant" if verdict.relevant else "not"
        explanation = verdict.error or f"document {item.id}: relevance {verdict.relevance}"
        result = Result(DOCUMENT_RELEVANCE_RESULT, verdict.relevance, label, explanation)
        results.append(DocumentResult(str(span_id), position, result))
    return results
