"""Arize Phoenix: verdicts as span annotations (``POST /v1/span_annotations``) with
``identifier = "ragguard"``, and per-document relevance as document annotations
(``POST /v1/document_annotations``). Phoenix keeps one span annotation per (span, name,
identifier) and one document annotation per (span, position, name) (it refuses an
identifier on those), so a re-evaluation after a late span replaces the earlier ones."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ragguard.config import ExportConfig, PhoenixConfig
from ragguard.exporters.annotations import (
    Result,
    document_results,
    target_span,
    trace_results,
)
from ragguard.exporters.base import Exporter, ExportResult, Finished, StatusNote, each
from ragguard.exporters.outbound import post_json
from ragguard.schema import STATUS_RESULT, Evaluation, Trace

IDENTIFIER = "ragguard"


def _annotation(span_id: str, result: Result, identifier: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {"explanation": result.explanation}
    if result.score is not None:
        body["score"] = result.score
    if result.label is not None:
        body["label"] = result.label
    annotation = {
        "span_id": span_id,
        "name": result.name,
        "annotator_kind": "CODE",
        "result": body,
        "metadata": {"source": "ragguard serve"},
    }
    if identifier:
        annotation["identifier"] = IDENTIFIER
    return annotation


class PhoenixExporter(Exporter):
    def __init__(self, config: PhoenixConfig) -> None:
        self.url = config.url.rstrip("/")
        self.timeout_s = config.timeout_s
        key = os.environ.get(config.api_key_env) if config.api_key_env else None
        self.headers = {"Authorization": f"Bearer {key}"} if key else {}

    def _post(self, path: str, data: list[dict[str, Any]]) -> None:
        if data:
            url = f"{self.url}{path}?sync=false"
            post_json(url, {"data": data}, self.headers, self.timeout_s)

    def export(self, batch: Sequence[Finished]) -> ExportResult:
        return each(batch, self._annotate)

    def _annotate(self, trace: Trace, evaluation: Evaluation) -> None:
        target = target_span(trace)
        if target is None:
            return
        self._post(
            "/v1/span_annotations",
            [_annotation(target, result) for result in trace_results(evaluation)],
        )
        documents = []
        for document in document_results(trace, evaluation):
            annotation = _annotation(document.span_id, document.result, identifier=False)
            annotation["document_position"] = document.position
            documents.append(annotation)
        self._post("/v1/document_annotations", documents)

    def record_status(self, note: StatusNote) -> None:
        """A trace with nothing to evaluate: its status, on its root span."""
        result = Result(STATUS_RESULT, None, note.status, note.detail)
        self._post("/v1/span_annotations", [_annotation(note.span_id, result)])

    def shutdown(self) -> None:
        """Nothing is held: every annotation was sent when it came."""


def build(config: ExportConfig) -> PhoenixExporter:
    """The exporter ``[exporters.phoenix]`` turns on (the registry's entry point)."""
    assert config.phoenix is not None
    return PhoenixExporter(config.phoenix)
