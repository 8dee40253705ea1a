"""What the receiver keeps of an OpenTelemetry span, and what a dialect reads from one.

Plain records: assembly and the dialects are pure functions over them, so they are tested
on hand-built spans without any wire format.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

Role = Literal["retrieval", "llm", "chain"]


class SpanRecord(NamedTuple):
    """One received span, ids as lowercase hex (32 characters for the trace, 16 for spans).
    A named tuple, not a frozen dataclass: every received span is built once, and a tuple
    is built in less than half the time (``_replace`` gives a changed copy)."""

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
    """Its size held in memory (``estimated_size``), for ``serve.max_held_bytes``; 0: not
    known (the buffer estimates it)."""


_CONTAINERS = frozenset((dict, list, tuple))
"""The types decoded values nest in (the decoders make exactly these)."""

SPAN_BYTES = 460
"""What a span takes held beside its attributes and events: the record, its id, name and
time objects, and its entry in the buffer (10,000 spans without attributes took 530 bytes
each, their empty attribute dict 64 of them)."""


def estimated_size(attributes: dict[str, Any], events: Any = ()) -> int:
    """Roughly the bytes a span takes held as Python objects: ``SPAN_BYTES`` and the
    ``sys.getsizeof`` of every dict, list, key and value of its attributes and events
    (each dict's table included, so 20,000 empty attributes count what their keys and table
    take, not a few bytes each; a string widened by one astral character counts 4 bytes a
    character). Flat attributes without events, the usual span, are summed in three C-level
    passes; nested ones are walked iteratively (decoded values are untrusted and may nest
    deep)."""
    size = sys.getsizeof
    values = attributes.values()
    total = SPAN_BYTES + size(attributes) + sum(map(size, attributes)) + sum(map(size, values))
    if not events and _CONTAINERS.isdisjoint(map(type, values)):
        return total
    total += size(events)
    stack: list[Any] = [events, *(value for value in values if type(value) in _CONTAINERS)]
    while stack:
        value = stack.pop()  # a dict, list or tuple, its own size already counted
        if type(value) is dict:
            total += sum(map(size, value))  # the keys
            value = value.values()
        total += sum(map(size, value))
        if not _CONTAINERS.isdisjoint(map(type, value)):
            stack.extend([item for item in value if type(item) in _CONTAINERS])
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
