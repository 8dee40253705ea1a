"""OpenLLMetry (Traceloop): ``traceloop.span.kind`` workflow / task with
``traceloop.entity.input`` / ``traceloop.entity.output`` as JSON (a retriever's output is
``{"documents": [{"page_content", "metadata"}], "count"}``), and LLM spans with
``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*`` or the newer ``gen_ai.input.messages`` /
``gen_ai.output.messages``. With ``TRACELOOP_TRACE_CONTENT=false`` these are absent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragguard.schema import (
    GEN_AI_COMPLETION,
    GEN_AI_INPUT_MESSAGES,
    GEN_AI_OUTPUT_MESSAGES,
    GEN_AI_PROMPT,
    LLM_REQUEST_TYPE,
    TRACELOOP_ENTITY_INPUT,
    TRACELOOP_ENTITY_OUTPUT,
    TRACELOOP_SPAN_KIND,
)
from ragguard.serve.dialects import values as v
from ragguard.serve.model import Piece, SpanRecord

NAME = "openllmetry"


def is_llm(attributes: Mapping[str, Any]) -> bool:
    return LLM_REQUEST_TYPE in attributes or any(
        key.startswith((GEN_AI_PROMPT + ".", GEN_AI_COMPLETION + "."))
        or key in (GEN_AI_INPUT_MESSAGES, GEN_AI_OUTPUT_MESSAGES)
        for key in attributes
    )


def llm_piece(span: SpanRecord, dialect: str) -> Piece:
    """An LLM span in the GenAI message attributes (both generations of them)."""
    attributes = span.attributes
    inputs = v.json_messages(attributes.get(GEN_AI_INPUT_MESSAGES)) or v.flat_messages(
        attributes, GEN_AI_PROMPT
    )
    outputs = v.json_messages(attributes.get(GEN_AI_OUTPUT_MESSAGES)) or v.flat_messages(
        attributes, GEN_AI_COMPLETION
    )
    return Piece(
        role="llm",
        dialect=dialect,
        span=span,
        answer=v.last_answer(outputs),
        messages_context=v.context_of(inputs),
        question=v.question_of(inputs),
    )


def read(span: SpanRecord) -> Piece | None:
    attributes = span.attributes
    kind = attributes.get(TRACELOOP_SPAN_KIND)
    if kind is None and not (LLM_REQUEST_TYPE in attributes or _legacy_prompt(attributes)):
        return None
    if is_llm(attributes):
        return llm_piece(span, NAME)
    entity_in = v.loads(attributes.get(TRACELOOP_ENTITY_INPUT))
    entity_out = v.loads(attributes.get(TRACELOOP_ENTITY_OUTPUT))
    if isinstance(entity_out, Mapping) and isinstance(entity_out.get("documents"), list):
        query = entity_in.get("query") if isinstance(entity_in, Mapping) else None
        return Piece(
            role="retrieval",
            dialect=NAME,
            span=span,
            query=v.text(query),
            documents=v.json_documents(entity_out),
        )
    inputs = entity_in.get("inputs", entity_in) if isinstance(entity_in, Mapping) else entity_in
    outputs = entity_out.get("outputs", entity_out) if isinstance(entity_out, Mapping) else None
    return Piece(
        role="chain",
        dialect=NAME,
        span=span,
        query=v.from_mapping(inputs, v.QUESTION_KEYS),
        answer=v.from_mapping(outputs, v.ANSWER_KEYS),
    )


def _legacy_prompt(attributes: Mapping[str, Any]) -> bool:
    return any(key.startswith((GEN_AI_PROMPT + ".", GEN_AI_COMPLETION + ".")) for key in attributes)
