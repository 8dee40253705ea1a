"""The exporter contract and what every exporter reads the same way (a span's verdict, an
item's media reference), so OpenTelemetry, Prometheus and the trace log never disagree."""

from __future__ import annotations

from typing import Literal, Protocol

from ragguard.media.images import is_inline
from ragguard.schema import Evaluation, Item, SpanEvaluation, Trace

Verdict = Literal["supported", "unsupported", "unscored", "subjective", "abstention"]
VERDICTS: tuple[Verdict, ...] = ("supported", "unsupported", "unscored", "subjective", "abstention")


class Exporter(Protocol):
    """Receives every finished live evaluation (called from the worker's delivery thread)."""

    def export(self, trace: Trace, evaluation: Evaluation) -> None: ...

    def shutdown(self) -> None: ...


def verdict(span: SpanEvaluation) -> Verdict:
    """One word per span: an objective span is supported, unsupported, or unscored (nothing
    to check it against); the others are set aside by their kind."""
    if span.kind != "objective":
        return span.kind
    if span.supported is None:
        return "unscored"
    return "supported" if span.supported else "unsupported"


def media_uri(item: Item) -> str | None:
    """Where an image or video item lives (path or URL); None for inline pixel bytes (a
    ``data:`` URI or any overlong value), which no exporter sends."""
    uri = item.video if item.video is not None else item.image
    if uri is None or is_inline(uri):
        return None
    return uri
