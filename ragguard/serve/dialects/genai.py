"""The OpenTelemetry GenAI semantic conventions: ``gen_ai.operation.name``. A
``retrieval`` span has ``gen_ai.retrieval.query.text`` and ``gen_ai.retrieval.documents``
(JSON ``[{"id", "score", "content"?}]``: content is opt-in, often absent); chat and
completion spans have ``gen_ai.input.messages`` / ``gen_ai.output.messages`` as attributes,
or as events (``gen_ai.client.inference.operation.details``, or the older per-message
``gen_ai.user.message`` / ``gen_ai.system.message`` / ``gen_ai.choice``)."""

from __future__ import annotations

from typing import Any

from ragguard.schema import (
    ASSISTANT_MESSAGE_EVENT,
    CHOICE_EVENT,
    GEN_AI_INPUT_MESSAGES,
    GEN_AI_OPERATION_NAME,
    GEN_AI_OUTPUT_MESSAGES,
    GEN_AI_RETRIEVAL_DOCUMENTS,
    GEN_AI_RETRIEVAL_QUERY_TEXT,
    SYSTEM_MESSAGE_EVENT,
    USER_MESSAGE_EVENT,
)
from ragguard.serve.dialects import values as v
from ragguard.serve.dialects.openllmetry import is_llm, llm_piece
from ragguard.serve.model import Piece, SpanRecord

NAME = "genai"
RETRIEVAL = frozenset({"retrieval", "retrieve", "vector_db_retrieve"})
LLM = frozenset({"chat", "text_completion", "generate_content", "completion"})
_MESSAGE_EVENTS = {
    SYSTEM_MESSAGE_EVENT: "system",
    USER_MESSAGE_EVENT: "user",
    ASSISTANT_MESSAGE_EVENT: "assistant",
}


def _with_events(span: SpanRecord) -> SpanRecord:
    """The span with message events folded into its attributes, as the newer conventions
    put them, so one reader serves both."""
    attributes: dict[str, Any] = dict(span.attributes)
    inputs: list[dict[str, Any]] = []
    outputs: list[dict[str, Any]] = []
    for name, event in span.events:
        for key in (GEN_AI_INPUT_MESSAGES, GEN_AI_OUTPUT_MESSAGES):
            if key in event and key not in attributes:
                attributes[key] = event[key]
        if name in _MESSAGE_EVENTS and v.parts_text(event.get("content")):
            inputs.append({"role": _MESSAGE_EVENTS[name], "content": event.get("content")})
        elif name == CHOICE_EVENT:
            message = v.loads(event.get("message"))
            content = message.get("content") if isinstance(message, dict) else event.get("content")
            outputs.append({"role": "assistant", "content": content})
    if inputs and GEN_AI_INPUT_MESSAGES not in attributes:
        attributes[GEN_AI_INPUT_MESSAGES] = inputs
    if outputs and GEN_AI_OUTPUT_MESSAGES not in attributes:
        attributes[GEN_AI_OUTPUT_MESSAGES] = outputs
    if attributes == span.attributes:
        return span
    return span._replace(attributes=attributes)


def read(span: SpanRecord) -> Piece | None:
    operation = span.attributes.get(GEN_AI_OPERATION_NAME)
    if not isinstance(operation, str):
        return None
    if operation in RETRIEVAL:
        attributes = span.attributes
        return Piece(
            role="retrieval",
            dialect=NAME,
            span=span,
            query=v.text(attributes.get(GEN_AI_RETRIEVAL_QUERY_TEXT)),
            documents=v.json_documents(attributes.get(GEN_AI_RETRIEVAL_DOCUMENTS)),
        )
    folded = _with_events(span)
    if operation in LLM or is_llm(folded.attributes):
        piece = llm_piece(folded, NAME)
        piece.span = span
        return piece
    return None
