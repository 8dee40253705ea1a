"""OpenTelemetry: each live evaluation as spans and events that GenAI-aware backends
(Phoenix, Jaeger, Grafana Tempo, Langfuse) show without glue.

Per evaluated request, under the request's own span (captured when the request ran; the
evaluation usually finishes after it closed):

- ``ragguard.evaluation``: one ``gen_ai.evaluation.result`` event per metric and per
  unsupported span (OTel GenAI semantic conventions), ``gen_ai.response.id`` = the trace id
  for correlation, OpenInference span kind ``EVALUATOR``, and the judge's scores of the spans
  it scored (``ragguard.judge.scores``, their indices in ``ragguard.judge.scored_spans``);
- its child ``retrieval``: ``gen_ai.operation.name = "retrieval"``,
  ``gen_ai.retrieval.documents`` (id, retriever score, ragguard's relevance) and OpenInference
  ``retrieval.documents.{i}.document.*``. Image and video items appear by id, never by
  their bytes. Texts (query, documents, spans), media URIs (a signed URL or a file path
  can say as much as a text) and document metadata only with ``include_content``; without
  it, only the metadata keys named in ``metadata_keys``.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Container, Iterable, Sequence
from typing import Any

from opentelemetry import trace as otel_trace
from opentelemetry.trace import ProxyTracerProvider, Span, TracerProvider
from opentelemetry.util.types import AttributeValue

from ragguard.config import ExportConfig
from ragguard.exporters.annotations import Result, evaluation_results
from ragguard.exporters.base import Exporter, ExportResult, Finished, each, media_uri
from ragguard.exporters.traceparent import parent_context
from ragguard.schema import (
    ANNOTATIONS,
    CALIBRATION_PREFIX,
    DOCUMENT_CONTENT,
    DOCUMENT_ID,
    DOCUMENT_METADATA,
    DOCUMENT_SCORE,
    DOCUMENT_VERDICT_KEYS,
    EVALUATION_EVENT,
    EVALUATION_SPAN,
    EVALUATIONS,
    GEN_AI_EVALUATION_EXPLANATION,
    GEN_AI_EVALUATION_NAME,
    GEN_AI_EVALUATION_SCORE_LABEL,
    GEN_AI_EVALUATION_SCORE_VALUE,
    GEN_AI_OPERATION_NAME,
    GEN_AI_RESPONSE_ID,
    GEN_AI_RETRIEVAL_DOCUMENTS,
    GEN_AI_RETRIEVAL_QUERY_TEXT,
    INPUT_VALUE,
    JUDGE_SCORED_SPANS,
    JUDGE_SCORES,
    OPENINFERENCE_SPAN_KIND,
    OUTPUT_VALUE,
    RAGGUARD_PIPELINE,
    RETRIEVAL_SPAN,
    SPAN_SUPPORT_RESULT,
    Evaluation,
    Item,
    ItemEvaluation,
    SpanReason,
    Trace,
    document_attribute,
    unscored_for_language,
    verdict,
)

logger = logging.getLogger(__name__)

OTLP_ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
OTLP_PROTOCOL_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")

Attributes = dict[str, AttributeValue]

_OWN_LOCK = threading.Lock()
_OWN: list[TracerProvider] = []


def _otlp_span_exporter() -> Any:
    """The OTLP span exporter the standard variables ask for (http/protobuf by default)."""
    protocol = next((os.environ[v] for v in OTLP_PROTOCOL_VARIABLES if os.environ.get(v)), "")
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc import trace_exporter as grpc

        return grpc.OTLPSpanExporter()
    from opentelemetry.exporter.otlp.proto.http import trace_exporter as http

    return http.OTLPSpanExporter()


def _own_provider() -> TracerProvider:
    """ragguard's own SDK provider exporting over OTLP, one per process. It is not made the
    global provider (the application may still set its own) and not shut down at exit by the
    SDK, which would run before ragguard's exit flush: ``OtelExporter.shutdown`` flushes it."""
    from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    with _OWN_LOCK:
        if not _OWN:
            provider = SdkTracerProvider(shutdown_on_exit=False)
            provider.add_span_processor(BatchSpanProcessor(_otlp_span_exporter()))
            _OWN.append(provider)
        return _OWN[0]


def default_provider() -> TracerProvider:
    """The application's tracer provider when it set one; otherwise ragguard's own OTLP one
    when an ``OTEL_EXPORTER_OTLP_*ENDPOINT`` variable names a receiver; otherwise the global
    proxy, which starts recording if the application sets a provider later."""
    current = otel_trace.get_tracer_provider()
    if not isinstance(current, ProxyTracerProvider):
        return current
    if any(os.environ.get(v) for v in OTLP_ENDPOINT_VARIABLES):
        return _own_provider()
    logger.warning(
        "ragguard: OpenTelemetry export is on, but there is no tracer provider and no "
        "OTEL_EXPORTER_OTLP_ENDPOINT: spans are dropped until the application sets a provider"
    )
    return current


def _document(item: Item, scored: ItemEvaluation, with_uri: bool) -> dict[str, Any]:
    """An item as ``gen_ai.retrieval.documents`` lists it, plus ragguard's verdict (its
    media URI only ``with_uri``)."""
    document: dict[str, Any] = {"id": item.id, "score": item.score}
    document.update(relevance=scored.relevance, relevant=scored.relevant, modality=item.modality)
    uri = media_uri(item) if with_uri else None
    if uri is not None:
        document["uri"] = uri
    if scored.error is not None:
        document["error"] = scored.error
    return document


def _metadata(item: Item, document: dict[str, Any], keys: Container[str] | None) -> str:
    """OpenInference's document metadata: ragguard's verdict, with the item's own metadata
    under ``keys`` (None: all of it), inline media always left out, as JSON."""
    metadata = {
        key: value
        for key, value in item.metadata.items()
        if (keys is None or key in keys)
        and not isinstance(value, bytes | bytearray)
        and not (isinstance(value, str) and value.startswith("data:"))
    }
    for key, name in DOCUMENT_VERDICT_KEYS.items():
        if key in document:
            metadata[name] = document[key]
    return json.dumps(metadata, default=str)


class OtelExporter(Exporter):
    """Writes each evaluation as OpenTelemetry spans and ``gen_ai.evaluation.result`` events.

    ``tracer_provider``: where spans go (default: ``default_provider()``). ``pipeline`` is
    set as ``ragguard.pipeline``. ``include_content`` adds texts and every document's
    metadata (off for privacy: metadata holds captions, authors, paths); ``metadata_keys``
    names the metadata keys exported without it.
    """

    def __init__(
        self,
        *,
        tracer_provider: TracerProvider | None = None,
        pipeline: str = "default",
        include_content: bool = False,
        metadata_keys: Iterable[str] = (),
    ) -> None:
        from ragguard._version import __version__

        self.provider = tracer_provider or default_provider()
        self.pipeline = pipeline
        self.include_content = include_content
        self.metadata_keys = None if include_content else frozenset(metadata_keys)
        self._tracer = self.provider.get_tracer("ragguard", __version__)

    def export(self, batch: Sequence[Finished]) -> ExportResult:
        return each(batch, self._emit)

    def _emit(self, trace: Trace, evaluation: Evaluation) -> None:
        """One evaluation span with its events, parented to the request's span."""
        parent = parent_context(trace.traceparent)
        attributes: Attributes = {
            GEN_AI_RESPONSE_ID: trace.trace_id,
            OPENINFERENCE_SPAN_KIND: "EVALUATOR",
            RAGGUARD_PIPELINE: self.pipeline,
        }
        if self.include_content:
            attributes.update({INPUT_VALUE: trace.query, OUTPUT_VALUE: trace.response})
        attributes.update(_calibration_attributes(evaluation))
        attributes.update(_judge_attributes(evaluation))
        results = list(evaluation_results(evaluation))
        for index, scored in enumerate(evaluation.spans):
            if verdict(scored) == "unsupported":
                text = f": {scored.text!r}" if self.include_content else ""
                explanation = (
                    f"span {index} (characters {scored.start}-{scored.end}) not supported; "
                    f"best evidence {scored.evidence_id}, cited {scored.citations}{text}"
                    + "".join(f"; {self._reason(r)}" for r in scored.reasons)
                )
                results.append(
                    Result(SPAN_SUPPORT_RESULT, scored.support, "unsupported", explanation)
                )
            elif unscored_for_language(scored):
                where = f"span {index} (characters {scored.start}-{scored.end})"
                reason = f"{where} not scored: {scored.unscored_reason}"
                results.append(Result(SPAN_SUPPORT_RESULT, None, "unscored", reason))
        attributes.update(_feedback_attributes(trace.trace_id, results))
        with self._tracer.start_as_current_span(
            EVALUATION_SPAN, context=parent, attributes=attributes
        ) as span:
            for result in results:
                self._result(
                    span, trace, result.name, result.score, result.label, result.explanation
                )
            self._retrieval(trace, evaluation)

    def _reason(self, reason: SpanReason) -> str:
        """A reason with its claim and evidence values only when texts may be exported."""
        return str(reason) if self.include_content else f"{reason.check} check, {reason.item}"

    def _result(
        self,
        span: Span,
        trace: Trace,
        name: str,
        value: float | None,
        label: str | None,
        explanation: str,
    ) -> None:
        event: Attributes = {
            GEN_AI_EVALUATION_NAME: name,
            GEN_AI_EVALUATION_EXPLANATION: explanation,
            GEN_AI_RESPONSE_ID: trace.trace_id,
        }
        if value is not None:
            event[GEN_AI_EVALUATION_SCORE_VALUE] = value
        if label is not None:
            event[GEN_AI_EVALUATION_SCORE_LABEL] = label
        span.add_event(EVALUATION_EVENT, event)

    def _retrieval(self, trace: Trace, evaluation: Evaluation) -> None:
        """The retrieval as ragguard judged it (a child of the current evaluation span)."""
        attributes: Attributes = {
            GEN_AI_OPERATION_NAME: "retrieval",
            OPENINFERENCE_SPAN_KIND: "RETRIEVER",
            RAGGUARD_PIPELINE: self.pipeline,
        }
        if self.include_content:
            attributes.update({GEN_AI_RETRIEVAL_QUERY_TEXT: trace.query, INPUT_VALUE: trace.query})
        scored = {item.id: item for item in evaluation.items}
        documents: list[dict[str, Any]] = []
        for item in trace.items:
            if item.id not in scored:
                continue
            at = len(documents)
            document = _document(item, scored[item.id], self.include_content)
            documents.append(document)
            attributes[document_attribute(at, DOCUMENT_ID)] = item.id
            attributes[document_attribute(at, DOCUMENT_METADATA)] = _metadata(
                item, document, self.metadata_keys
            )
            if item.score is not None:
                attributes[document_attribute(at, DOCUMENT_SCORE)] = item.score
            if self.include_content and item.text:
                attributes[document_attribute(at, DOCUMENT_CONTENT)] = item.text
        attributes[GEN_AI_RETRIEVAL_DOCUMENTS] = json.dumps(documents)
        self._tracer.start_span(RETRIEVAL_SPAN, attributes=attributes).end()

    def force_flush(self, timeout_s: float = 30.0) -> bool:
        """Send what the provider's span processors batch, within ``timeout_s``."""
        force_flush = getattr(self.provider, "force_flush", None)
        if not callable(force_flush):
            return True
        return force_flush(int(timeout_s * 1000)) is not False

    def shutdown(self) -> None:
        """Send what is batched (the provider itself stays up: it may be the application's)."""
        self.force_flush()


def _feedback_attributes(trace_id: str, results: list[Result]) -> Attributes:
    """The results as OpenInference feedback on the EVALUATOR span, in both of its
    vocabularies (``annotations.<i>.annotation.*`` and ``evaluations.<i>.evaluation.*``),
    with an identifier that stays the same when the trace is evaluated again."""
    attributes: Attributes = {}
    for index, (name, value, label, explanation) in enumerate(
        (r.name, r.score, r.label, r.explanation) for r in results
    ):
        fields: Attributes = {
            "name": name,
            "explanation": explanation,
            "annotator_kind": "CODE",
            "identifier": f"ragguard:{trace_id}:{name}:{index}",
        }
        if value is not None:
            fields["score"] = value
        if label is not None:
            fields["label"] = label
        for prefix, word in ((ANNOTATIONS, "annotation"), (EVALUATIONS, "evaluation")):
            for key, field_value in fields.items():
                attributes[f"{prefix}.{index}.{word}.{key}"] = field_value
    return attributes


def _calibration_attributes(evaluation: Evaluation) -> Attributes:
    """The support calibration in force when the trace was evaluated, as span attributes."""
    status = evaluation.calibration
    if status is None:
        return {}
    at = CALIBRATION_PREFIX
    attributes: Attributes = {
        f"{at}source": status.source,
        f"{at}fitted": status.fitted,
        f"{at}threshold": status.threshold,
        f"{at}samples": status.n_samples,
    }
    if status.band is not None:
        attributes[f"{at}band"] = list(status.band)
    if status.agreement is not None:
        attributes[f"{at}agreement"] = status.agreement
    if status.drift is not None:
        attributes[f"{at}drift"] = status.drift
    return attributes


def _judge_attributes(evaluation: Evaluation) -> Attributes:
    """The judge's scores on the spans it scored (none: no attribute), with their indices,
    so a trace backend shows what the judge said beside the lite support."""
    scored = [
        (index, span.judge.score)
        for index, span in enumerate(evaluation.spans)
        if span.judge is not None and span.judge.score is not None
    ]
    if not scored:
        return {}
    return {
        JUDGE_SCORED_SPANS: [index for index, _ in scored],
        JUDGE_SCORES: [score for _, score in scored],
    }


def build(config: ExportConfig) -> OtelExporter:
    """The exporter ``[exporters] otel`` turns on (the registry's entry point)."""
    return OtelExporter(
        pipeline=config.pipeline,
        include_content=config.otel_include_content,
        metadata_keys=config.otel_metadata_keys,
    )
