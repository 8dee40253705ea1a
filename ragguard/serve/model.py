"""What the receiver keeps of an OpenTelemetry span, and what a dialect reads from one.

Plain dataclasses: assembly and the dialects are pure functions over them, so they are
tested on hand-built spans without any wire format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["retrieval", "llm", "chain"]


@dataclass(frozen=True, slots=True)
class SpanRecord:
    """One received span, ids as lowercase hex (32 characters for the trace, 16 for spans)."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    attributes: dict[str, Any]
    events: tuple[tuple[str, dict[str, Any]], ...] = ()
    start_ns: int = 0
    end_ns: int = 0
    service: str = "unknown_service"
    """The ``service.name`` resource attribute: the pipeline label."""
    scope: str = ""
    """The instrumentation scope's name (ragguard's own evaluation spans are ignored)."""
    size: int = 0
    """Its size on the wire (protobuf) or an estimate (JSON), for ``serve.max_held_bytes``;
    0: not known (the buffer estimates it)."""


_SCALAR_BYTES = 16
"""What a number, boolean or null is counted as (its encoding, roughly)."""


def estimated_size(attributes: Any, events: Any = ()) -> int:
    """Roughly the bytes of a span's attributes and events as OTLP carries them: the text
    of every key and string, a fixed amount for anything else. Iterative: decoded values
    are untrusted and may nest deep."""
    total, stack = 0, [attributes, events]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            total += len(value)
        elif isinstance(value, dict):
            total += sum(len(key) for key in value if isinstance(key, str))
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        else:
            total += _SCALAR_BYTES
    return total


@dataclass(frozen=True, slots=True)
class Document:
    """A retrieved document as a span reports it; ``text`` None when content is off."""

    id: str | None
    text: str | None
    score: float | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Piece:
    """What one span contributes to a RAG trace, in any dialect."""

    role: Role
    dialect: str
    span: SpanRecord
    query: str | None = None
    documents: list[Document] = field(default_factory=list)
    answer: str | None = None
    context: list[str] = field(default_factory=list)
    """Fallback context: prompt-template variables holding the retrieved text."""
    messages_context: list[str] = field(default_factory=list)
    """Last-resort context: the LLM's input messages (system and user)."""
    question: str | None = None
    """The question as the prompt variables or the last user message put it."""
    redacted: bool = False
    """The span says its content was hidden (a redaction marker)."""
    reranked: bool = False
    """A reranker's output: the documents the generator saw, in place of the retrieval's."""
