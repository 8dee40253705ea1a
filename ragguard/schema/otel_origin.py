"""Where ``ragguard serve`` found a trace: its service and span ids. Assembly writes it
beside the trace's fields (key ``otel``, so the trace log keeps it); the annotating
exporters read it back here, typed, to put verdicts on the right spans. A trace from
anywhere else has none, and a malformed one (the field is untrusted input) reads as none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragguard.schema import Trace

ORIGIN_KEY = "otel"
"""The trace's extra field that holds the origin."""


@dataclass(frozen=True, slots=True)
class OtelOrigin:
    service: str
    root_span_id: str | None
    """None when the root span never arrived."""
    answer_span_id: str | None
    retrieval_span_ids: tuple[str, ...] = ()
    context_source: str | None = None
    """Which spans gave the items: retrieval spans, or a fallback (``serve/join.py``)."""
    dialects: tuple[str, ...] = ()

    @property
    def target_span_id(self) -> str | None:
        """The span trace-level results go on: the root, else the answer's."""
        return self.root_span_id or self.answer_span_id

    def as_extra(self) -> dict[str, Any]:
        """The JSON value of the trace's ``otel`` field (key order kept, as logged)."""
        return {
            "service": self.service,
            "root_span_id": self.root_span_id,
            "answer_span_id": self.answer_span_id,
            "retrieval_span_ids": list(self.retrieval_span_ids),
            "context_source": self.context_source,
            "dialects": list(self.dialects),
        }

    @classmethod
    def of(cls, trace: Trace) -> OtelOrigin | None:
        """The origin recorded on ``trace``; None for a trace not from ``serve``."""
        fields = (trace.model_extra or {}).get(ORIGIN_KEY)
        if not isinstance(fields, Mapping):
            return None
        return cls(
            service=_text(fields.get("service")) or "",
            root_span_id=_text(fields.get("root_span_id")),
            answer_span_id=_text(fields.get("answer_span_id")),
            retrieval_span_ids=_texts(fields.get("retrieval_span_ids")),
            context_source=_text(fields.get("context_source")),
            dialects=_texts(fields.get("dialects")),
        )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(v for v in value if isinstance(v, str))
