"""Joining one trace's spans, in any mix of dialects, into one ragguard ``Trace`` (pure).

The retriever and LLM spans of a request are usually siblings under a chain span, so
everything is read per span and put together by trace id:

- the query: the first retrieval's query, else the top-most chain's input, else the
  question in the LLM's prompt variables or last user message;
- the answer: the LLM span that ended last, else the top-most chain's output;
- the items: every retrieval's documents in order (a reranker's output instead, when the
  trace has one: what the generator saw), each recording the span and position
  it came from (``span_id``, ``position``); a document without an id gets
  ``<span id>:<position>``;
- no retrieval documents: the prompt-template variables that hold context, else the LLM's
  input messages, as the items (``context_source`` says which).

Content switched off is a status (``content_not_captured``), never a verdict on empty text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ragguard.errors import TraceValidationError
from ragguard.schema import ORIGIN_KEY, Item, OtelOrigin, Trace
from ragguard.serve.dialects import read_span
from ragguard.serve.model import Piece, SpanRecord

Status = Literal["ready", "content_not_captured", "no_context", "not_rag", "invalid"]
"""ready: a trace to evaluate; content_not_captured: RAG spans without their text;
no_context: an LLM answer with nothing retrieved to check it against; not_rag: no
retrieval or LLM span at all; invalid: the pieces do not make a valid trace."""
ContextSource = Literal["retrieval", "prompt_variables", "input_messages"]

OWN_SCOPE = "ragguard"
"""ragguard's own evaluation spans (exported back to a collector) are never evaluated."""


@dataclass
class Joined:
    trace_id: str
    status: Status
    service: str
    trace: Trace | None = None
    target_span_id: str | None = None
    """Where annotations go: the root span, else the answer's span."""
    detail: str = ""
    spans: int = 0
    dialects: list[str] = field(default_factory=list)


@dataclass
class _Tree:
    """Parent links of one trace: depth orders the chains (the root's is 0)."""

    parents: dict[str, str | None]

    def depth(self, span_id: str) -> int:
        depth, seen = 0, {span_id}
        parent = self.parents.get(span_id)
        while parent is not None and parent in self.parents and parent not in seen:
            seen.add(parent)
            depth += 1
            parent = self.parents.get(parent)
        return depth


def _item(**fields: Any) -> Item:
    """An item with the span it came from (``span_id``, ``position``: extra fields)."""
    return Item.model_validate(fields)


def _items(retrievals: Sequence[Piece]) -> tuple[list[Item], int]:
    """Every retrieval's documents with text, ids unique; and how many had no text."""
    items: list[Item] = []
    seen: set[str] = set()
    missing = 0
    for piece in retrievals:
        for position, document in enumerate(piece.documents):
            if document.text is None:
                missing += 1
                continue
            identifier = document.id or f"{piece.span.span_id}:{position}"
            if identifier in seen:
                identifier = f"{identifier}@{piece.span.span_id}:{position}"
            seen.add(identifier)
            items.append(
                _item(
                    id=identifier,
                    text=document.text,
                    score=document.score,
                    metadata=document.metadata,
                    span_id=piece.span.span_id,
                    position=position,
                )
            )
    return items, missing


def _fallback(llms: Sequence[Piece], query: str | None) -> tuple[list[Item], ContextSource]:
    """Context from the answer's LLM span when no retrieval span carries documents."""
    for piece in reversed(llms):
        if piece.context:
            return [
                _item(id=f"prompt:{i}", text=body, span_id=piece.span.span_id, position=i)
                for i, body in enumerate(piece.context)
            ], "prompt_variables"
    for piece in reversed(llms):
        texts = [body for body in piece.messages_context if body.strip() != (query or "").strip()]
        if texts:
            return [
                _item(id=f"message:{i}", text=body, span_id=piece.span.span_id, position=i)
                for i, body in enumerate(texts)
            ], "input_messages"
    return [], "retrieval"


@dataclass(frozen=True)
class _Reading:
    """What a trace's spans say, read once: the parts ``join_spans`` decides from."""

    pieces: list[Piece]
    retrievals: list[Piece]
    llms: list[Piece]
    """By end time: the last one answers."""
    chains: list[Piece]
    """Top-most first."""

    @classmethod
    def of(cls, spans: Sequence[SpanRecord]) -> _Reading:
        pieces = [piece for piece in map(read_span, spans) if piece is not None]
        retrievals = [p for p in pieces if p.role == "retrieval"]
        if any(p.reranked for p in retrievals):  # the generator saw the reranker's output
            retrievals = [p for p in retrievals if p.reranked]
        llms = sorted((p for p in pieces if p.role == "llm"), key=lambda p: p.span.end_ns)
        tree = _Tree({s.span_id: s.parent_id for s in spans})
        chains = sorted(
            (p for p in pieces if p.role == "chain"), key=lambda p: tree.depth(p.span.span_id)
        )
        return cls(pieces, retrievals, llms, chains)

    def query(self) -> str | None:
        query = _first([p.query for p in self.retrievals], [p.query for p in self.chains])
        return query or _first([p.question for p in reversed(self.llms)])

    def answering(self) -> Piece | None:
        answering = next((p for p in reversed(self.llms) if p.answer), None)
        return answering or next((p for p in self.chains if p.answer), None)


def join_spans(trace_id: str, spans: Sequence[SpanRecord]) -> Joined:
    """The ragguard trace of ``spans`` (one trace id), or why there is none."""
    spans = sorted(
        (s for s in spans if s.scope != OWN_SCOPE), key=lambda s: (s.start_ns, s.span_id)
    )
    reading = _Reading.of(spans)
    root = next((s for s in spans if s.parent_id is None), None)
    service = (root or (spans[0] if spans else None) or _NO_SPAN).service
    result = Joined(
        trace_id=trace_id,
        status="not_rag",
        service=service,
        spans=len(spans),
        dialects=sorted({p.dialect for p in reading.pieces}),
    )
    if not reading.retrievals and not reading.llms:
        result.detail = "no retrieval or LLM span"
        return result
    query, answering = reading.query(), reading.answering()
    target = answering or reading.pieces[0]
    result.target_span_id = root.span_id if root else target.span.span_id
    items, missing = _items(reading.retrievals)
    source: ContextSource = "retrieval"
    if not items:
        items, source = _fallback(reading.llms, query)
    if query is None or answering is None or answering.answer is None:
        absent = [name for name, value in (("query", query), ("answer", answering)) if not value]
        result.status = "content_not_captured"
        result.detail = f"no {' or '.join(absent)} text in the spans"
        return result
    lacking = _without_context(reading, items, missing)
    if lacking is not None:
        result.status, result.detail = lacking
        return result
    origin = OtelOrigin(
        service=service,
        root_span_id=root.span_id if root else None,
        answer_span_id=answering.span.span_id,
        retrieval_span_ids=tuple(p.span.span_id for p in reading.retrievals),
        context_source=source,
        dialects=tuple(result.dialects),
    )
    return _with_trace(result, query, items, answering, origin)


def _without_context(
    reading: _Reading, items: list[Item], missing: int
) -> tuple[Status, str] | None:
    """The status and detail of an answered trace with nothing to check it against."""
    if not items and (missing or any(p.redacted for p in reading.pieces)):
        return "content_not_captured", f"{missing} retrieved documents without their text"
    if not items and not reading.retrievals:
        return "no_context", "an answer without retrieval, context variables or input messages"
    return None


def _with_trace(
    result: Joined, query: str, items: list[Item], answering: Piece, origin: OtelOrigin
) -> Joined:
    """``result`` with its ``Trace`` (ready), or ``invalid`` when the parts make none."""
    trace_id = result.trace_id
    try:
        result.trace = Trace.parse(
            {
                "trace_id": trace_id,
                "query": query,
                "items": items,
                "response": answering.answer,
                "traceparent": f"00-{trace_id}-{answering.span.span_id}-01",
                ORIGIN_KEY: origin.as_extra(),
            }
        )
    except TraceValidationError as error:
        result.status = "invalid"
        result.detail = str(error)
        return result
    result.status = "ready"
    return result


def _first(*candidates: Sequence[str | None]) -> str | None:
    for group in candidates:
        for value in group:
            if value:
                return value
    return None


_NO_SPAN = SpanRecord(trace_id="", span_id="", parent_id=None, name="", attributes={})
