"""The exporter contract and what every exporter reads the same way (an item's media
reference; a span's verdict is ``schema.verdict``), so OpenTelemetry, Prometheus and the
trace log never disagree."""

from __future__ import annotations

from typing import Protocol

from ragguard.schema import Evaluation, Item, Trace
from ragguard.schema.inline import is_inline


class Exporter(Protocol):
    """Receives every finished live evaluation (called from the worker's delivery thread)."""

    def export(self, trace: Trace, evaluation: Evaluation) -> None: ...

    def shutdown(self) -> None: ...

    def status(self, trace_id: str, span_id: str, status: str, detail: str) -> None:
        """``ragguard serve``: a trace with nothing to evaluate, and why (its root span's
        ids). Nothing by default: only the exporters that annotate spans record it."""
        return None


def media_uri(item: Item) -> str | None:
    """Where an image or video item lives (path or URL); None for inline pixel bytes (a
    ``data:`` URI or any overlong value), which no exporter sends."""
    uri = item.video if item.video is not None else item.image
    if uri is None or is_inline(uri):
        return None
    return uri
