"""An evaluation as named results on the spans it came from, the same for Phoenix and
Langfuse: the trace-level results on the root span (the answer's span when the root never
arrived), per-document relevance on each retriever span at the document's position, and
``ragguard.status`` saying whether there was anything to evaluate. The names, scores and
explanations are the OTel exporter's, so every backend shows the same verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ragguard.exporters.otel import _evaluation_results
from ragguard.schema import Evaluation, Trace

STATUS = "ragguard.status"
DOCUMENT_RELEVANCE = "ragguard.document_relevance"


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


def otel_fields(trace: Trace) -> dict[str, Any]:
    """What assembly recorded of the trace's spans (empty for a trace not from ``serve``)."""
    extra = trace.model_extra or {}
    fields = extra.get("otel")
    return fields if isinstance(fields, dict) else {}


def target_span(trace: Trace) -> str | None:
    fields = otel_fields(trace)
    return fields.get("root_span_id") or fields.get("answer_span_id")


def trace_results(evaluation: Evaluation) -> list[Result]:
    results = [Result(*entry) for entry in _evaluation_results(evaluation)]
    unsupported = [s for s in evaluation.spans if s.kind == "objective" and s.supported is False]
    explanation = "; ".join(
        f"span {s.start}-{s.end} unsupported (best evidence {s.evidence_id})" for s in unsupported
    )
    results.append(
        Result("ragguard.unsupported_spans", float(len(unsupported)), None, explanation or "none")
    )
    results.append(Result(STATUS, None, "evaluated", f"{len(evaluation.spans)} answer spans"))
    return results


def document_results(trace: Trace, evaluation: Evaluation) -> list[DocumentResult]:
    """Relevance per retrieved document, where the document came from a retriever span."""
    retrievers = set(otel_fields(trace).get("retrieval_span_ids") or ())
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
        result = Result(DOCUMENT_RELEVANCE, verdict.relevance, label, explanation)
        results.append(DocumentResult(str(span_id), position, result))
    return results
