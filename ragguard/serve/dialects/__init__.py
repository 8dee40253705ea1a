"""The span dialects ``serve`` reads, one module each, tried in order: the first that
recognises a span says what it contributes (a ``Piece``). OpenInference and OpenLLMetry
mark their spans with their own kind attribute, so they come before the generic GenAI
conventions, which OpenLLMetry also writes in part."""

from __future__ import annotations

from collections.abc import Callable

from ragguard.serve.dialects import genai, openinference, openllmetry
from ragguard.serve.model import Piece, SpanRecord

Reader = Callable[[SpanRecord], Piece | None]

DIALECTS: tuple[tuple[str, Reader], ...] = (
    (openinference.NAME, openinference.read),
    (openllmetry.NAME, openllmetry.read),
    (genai.NAME, genai.read),
)


def read_span(span: SpanRecord) -> Piece | None:
    """What ``span`` contributes to a RAG trace in the first dialect that knows it; None
    for spans of no dialect (HTTP, database) or of no RAG role."""
    for _, read in DIALECTS:
        piece = read(span)
        if piece is not None:
            return piece
    return None


__all__ = ["DIALECTS", "Reader", "read_span"]
