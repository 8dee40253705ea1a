"""The exporter contract, shaped like OpenTelemetry's span exporter, and what every exporter
reads the same way (an item's media reference; a span's verdict is ``schema.verdict``), so
OpenTelemetry, Prometheus and the trace log never disagree.

An exporter receives batches of finished requests, each a trace with its frozen evaluation,
and answers with an ``ExportResult``; ``force_flush`` sends what it holds, ``shutdown``
closes it. The delivery policy around it (``exporters.delivery``) counts every failure and
never lets one reach the application. Serve's status notes (a trace with nothing to
evaluate) go to the exporters that record them, through ``StatusRecorder``."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ragguard.schema import Evaluation, Item, Trace, is_inline


@dataclass(frozen=True)
class Finished:
    """One finished request: the trace as captured and its frozen evaluation."""

    trace: Trace
    evaluation: Evaluation


class ExportResult(enum.Enum):
    SUCCESS = "success"
    FAILURE = "failure"
    """Not (all) delivered; the delivery policy counts it, as it counts an exception."""


class Exporter(Protocol):
    """Receives every finished live evaluation (called from the worker's delivery thread)."""

    def export(self, batch: Sequence[Finished]) -> ExportResult: ...

    def force_flush(self, timeout_s: float = 30.0) -> bool:
        """Send what is held within ``timeout_s``; True when done. Nothing is held by
        default: the exporters here send (or write) each batch as it comes."""
        return True

    def shutdown(self) -> None: ...


def each(
    batch: Sequence[Finished], export_one: Callable[[Trace, Evaluation], object]
) -> ExportResult:
    """``export_one`` on every request of ``batch`` in turn (an exception is the delivery
    policy's to count): for exporters that send one request at a time."""
    for finished in batch:
        export_one(finished.trace, finished.evaluation)
    return ExportResult.SUCCESS


@dataclass(frozen=True)
class StatusNote:
    """``ragguard serve``: a trace with nothing to evaluate, and why, with its root span's
    ids (where an annotating backend writes it)."""

    trace_id: str
    span_id: str
    status: str
    detail: str


@runtime_checkable
class StatusRecorder(Protocol):
    """An exporter that also records serve's status notes (Phoenix, Langfuse)."""

    def record_status(self, note: StatusNote) -> None: ...


def media_uri(item: Item) -> str | None:
    """Where an image or video item lives (path or URL); None for inline pixel bytes (a
    ``data:`` URI or any overlong value), which no exporter sends."""
    uri = item.video if item.video is not None else item.image
    if uri is None or is_inline(uri):
        return None
    return uri
