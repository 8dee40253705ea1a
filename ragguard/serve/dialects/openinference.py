"""OpenInference (Arize): ``openinference.span.kind`` RETRIEVER, RERANKER, LLM, CHAIN, AGENT.

Retriever spans carry ``retrieval.documents.N.document.{id,content,score,metadata}``
and the query in ``input.value``; reranker spans ``reranker.output_documents.N.document.*``
(what the generator saw); LLM spans ``llm.input_messages`` /
``llm.output_messages``, ``llm.prompt_template.variables``; chains ``input.value`` /
``output.value`` (text or JSON, per ``*.mime_type``). Hidden values read
``__REDACTED__``."""

from __future__ import annotations

from ragguard.schema import (
    DOCUMENT_CONTENT,
    DOCUMENT_ID,
    DOCUMENT_METADATA,
    DOCUMENT_SCORE,
    INPUT_VALUE,
    LLM_INPUT_MESSAGES,
    LLM_OUTPUT_MESSAGES,
    LLM_PROMPT_TEMPLATE_VARIABLES,
    OPENINFERENCE_SPAN_KIND,
    OUTPUT_VALUE,
    RERANKER_OUTPUT_DOCUMENTS,
    RERANKER_QUERY,
    RETRIEVAL_DOCUMENTS,
)
from ragguard.serve.dialects import values as v
from ragguard.serve.model import Document, Piece, SpanRecord

NAME = "openinference"
CHAIN_KINDS = frozenset({"CHAIN", "AGENT"})
RETRIEVAL_KINDS = {
    "RETRIEVER": RETRIEVAL_DOCUMENTS,
    "RERANKER": RERANKER_OUTPUT_DOCUMENTS,
}
"""Span kinds with documents, and where their documents are."""


def _documents(span: SpanRecord, prefix: str) -> tuple[list[Document], bool]:
    documents, hidden = [], False
    for entry in v.indexed(span.attributes, prefix):
        content = entry.get(DOCUMENT_CONTENT)
        hidden = hidden or v.redacted(content)
        metadata = v.loads(entry.get(DOCUMENT_METADATA))
        identifier = entry.get(DOCUMENT_ID)
        documents.append(
            Document(
                id=str(identifier) if identifier not in (None, "") else None,
                text=v.text(content),
                score=v.score(entry.get(DOCUMENT_SCORE)),
                metadata=dict(metadata) if isinstance(metadata, dict) else {},
            )
        )
    return documents, hidden


def read(span: SpanRecord) -> Piece | None:
    kind = span.attributes.get(OPENINFERENCE_SPAN_KIND)
    if not isinstance(kind, str):
        return None
    kind = kind.upper()
    attributes = span.attributes
    source, result = attributes.get(INPUT_VALUE), attributes.get(OUTPUT_VALUE)
    if kind in RETRIEVAL_KINDS:
        reranked = kind == "RERANKER"
        query = attributes.get(RERANKER_QUERY) if reranked else source
        documents, hidden = _documents(span, RETRIEVAL_KINDS[kind])
        return Piece(
            role="retrieval",
            dialect=NAME,
            span=span,
            query=v.from_mapping(query, v.QUESTION_KEYS),
            documents=documents,
            redacted=hidden or v.redacted(query),
            reranked=reranked,
        )
    if kind == "LLM":
        inputs = v.flat_messages(attributes, LLM_INPUT_MESSAGES)
        outputs = v.flat_messages(attributes, LLM_OUTPUT_MESSAGES)
        question, context = v.prompt_variables(attributes.get(LLM_PROMPT_TEMPLATE_VARIABLES))
        answer = v.last_answer(outputs) or _generation_text(result)
        return Piece(
            role="llm",
            dialect=NAME,
            span=span,
            answer=answer,
            context=context,
            messages_context=v.context_of(inputs),
            question=question or v.question_of(inputs),
            redacted=v.redacted(source, result),
        )
    if kind in CHAIN_KINDS:
        return Piece(
            role="chain",
            dialect=NAME,
            span=span,
            query=v.from_mapping(source, v.QUESTION_KEYS),
            answer=v.from_mapping(result, v.ANSWER_KEYS),
            redacted=v.redacted(source, result),
        )
    return None


def _generation_text(value: object) -> str | None:
    """A completion model's ``output.value``: text, or LangChain's LLMResult JSON
    (``{"generations": [[{"text": ...}]]}``)."""
    parsed = v.loads(value)
    if isinstance(parsed, dict):
        generations = parsed.get("generations")
        if isinstance(generations, list) and generations and isinstance(generations[-1], list):
            last = generations[-1][-1] if generations[-1] else None
            if isinstance(last, dict):
                return v.text(last.get("text"))
        return v.from_mapping(parsed, v.ANSWER_KEYS)
    return v.text(parsed)
