"""Langfuse: verdicts through the scores API (``POST /api/public/scores``, basic auth with
the project's keys). Langfuse's OTLP ingestion keeps the OTel trace id (32 hex) as its
trace id and the span id as the observation id, so the scores land on the evaluated spans.
Each score's ``id`` is derived from (trace, span, name): a re-evaluation replaces it.
Span events do not survive Langfuse's ingestion, which is why this goes through the API."""

from __future__ import annotations

import base64
import hashlib
import os
import uuid
from collections.abc import Sequence
from typing import Any

from ragguard.config import ExportConfig, LangfuseConfig
from ragguard.exporters.annotations import Result, target_span, trace_results
from ragguard.exporters.base import Exporter, ExportResult, Finished, StatusNote, each
from ragguard.exporters.outbound import post_json
from ragguard.schema import STATUS_RESULT, Evaluation, Trace


def score_id(trace_id: str, span_id: str, name: str) -> str:
    digest = hashlib.sha256(f"ragguard:{trace_id}:{span_id}:{name}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16]))


class LangfuseExporter(Exporter):
    def __init__(self, config: LangfuseConfig) -> None:
        self.url = config.url.rstrip("/") + "/api/public/scores"
        self.timeout_s = config.timeout_s
        public = os.environ.get(config.public_key_env, "")
        secret = os.environ.get(config.secret_key_env, "")
        token = base64.b64encode(f"{public}:{secret}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}"}

    def _score(self, trace_id: str, span_id: str, result: Result) -> dict[str, Any]:
        score: dict[str, Any] = {
            "id": score_id(trace_id, span_id, result.name),
            "traceId": trace_id,
            "observationId": span_id,
            "name": result.name,
            "comment": result.explanation,
        }
        if result.score is not None:
            score.update(value=result.score, dataType="NUMERIC")
        else:
            score.update(value=result.label or "", dataType="CATEGORICAL")
        return score

    def export(self, batch: Sequence[Finished]) -> ExportResult:
        return each(batch, self._score_trace)

    def _score_trace(self, trace: Trace, evaluation: Evaluation) -> None:
        target = target_span(trace)
        if target is None:
            return
        for result in trace_results(evaluation):
            body = self._score(trace.trace_id, target, result)
            post_json(self.url, body, self.headers, self.timeout_s)

    def record_status(self, note: StatusNote) -> None:
        """A trace with nothing to evaluate: its status, on its root span."""
        result = Result(STATUS_RESULT, None, note.status, note.detail)
        body = self._score(note.trace_id, note.span_id, result)
        post_json(self.url, body, self.headers, self.timeout_s)

    def shutdown(self) -> None:
        """Nothing is held: every score was sent when it came."""


def build(config: ExportConfig) -> LangfuseExporter:
    """The exporter ``[exporters.langfuse]`` turns on (the registry's entry point)."""
    assert config.langfuse is not None
    return LangfuseExporter(config.langfuse)
