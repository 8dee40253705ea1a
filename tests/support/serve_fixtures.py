"""Hand-built spans of one RAG request (a chain over a retriever and an LLM) in each
dialect's own attributes, for the serve tests."""

from __future__ import annotations

import json
from typing import Any

from ragguard.serve.model import SpanRecord

TRACE = "0af7651916cd43dd8448eb211c80319c"
ROOT, RETRIEVER, LLM = "b7ad6b7169203331", "00f067aa0ba902b7", "53995c3f42cd8ad8"
QUERY = "Where is the Eiffel Tower?"
DOCS = [
    ("d1", "The Eiffel Tower is a wrought-iron lattice tower in Paris, France.", 0.9),
    ("d2", "Bananas are rich in potassium.", 0.2),
]
ANSWER = "The Eiffel Tower is in Paris."


def span(
    span_id: str,
    parent: str | None,
    attributes: dict[str, Any],
    *,
    start: int,
    end: int,
    trace_id: str = TRACE,
    events: tuple[tuple[str, dict[str, Any]], ...] = (),
    service: str = "rag-app",
) -> SpanRecord:
    return SpanRecord(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=parent,
        name=f"span-{span_id[:4]}",
        attributes=attributes,
        events=events,
        start_ns=start,
        end_ns=end,
        service=service,
        scope="test",
    )


def openinference(content: bool = True, trace_id: str = TRACE) -> list[SpanRecord]:
    hidden = "__REDACTED__"
    retrieved: dict[str, Any] = {"openinference.span.kind": "RETRIEVER"}
    retrieved["input.value"] = QUERY if content else hidden
    for i, (doc_id, text, score) in enumerate(DOCS):
        retrieved[f"retrieval.documents.{i}.document.id"] = doc_id
        retrieved[f"retrieval.documents.{i}.document.score"] = score
        retrieved[f"retrieval.documents.{i}.document.content"] = text if content else hidden
        retrieved[f"retrieval.documents.{i}.document.metadata"] = json.dumps({"source": "wiki"})
    llm = {
        "openinference.span.kind": "LLM",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": f"Context: ...\nQuestion: {QUERY}",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": ANSWER if content else hidden,
    }
    chain = {
        "openinference.span.kind": "CHAIN",
        "input.value": json.dumps({"question": QUERY}) if content else hidden,
        "input.mime_type": "application/json",
        "output.value": ANSWER if content else hidden,
    }
    return [
        span(ROOT, None, chain, start=1, end=10, trace_id=trace_id),
        span(RETRIEVER, ROOT, retrieved, start=2, end=4, trace_id=trace_id),
        span(LLM, ROOT, llm, start=5, end=9, trace_id=trace_id),
    ]


def openllmetry(content: bool = True, legacy: bool = False) -> list[SpanRecord]:
    retrieved: dict[str, Any] = {
        "traceloop.span.kind": "task",
        "gen_ai.operation.name": "vector_db_retrieve",
    }
    llm: dict[str, Any] = {"llm.request.type": "chat", "gen_ai.operation.name": "chat"}
    chain: dict[str, Any] = {"traceloop.span.kind": "workflow"}
    if content:
        retrieved["traceloop.entity.input"] = json.dumps({"query": QUERY, "tags": []})
        documents = [{"page_content": text, "metadata": {"source": "wiki"}} for _, text, _ in DOCS]
        retrieved["traceloop.entity.output"] = json.dumps({"documents": documents, "count": 2})
        chain["traceloop.entity.input"] = json.dumps({"inputs": {"question": QUERY}})
        chain["traceloop.entity.output"] = json.dumps({"outputs": ANSWER})
        if legacy:
            llm.update(
                {
                    "gen_ai.prompt.0.role": "user",
                    "gen_ai.prompt.0.content": QUERY,
                    "gen_ai.completion.0.role": "assistant",
                    "gen_ai.completion.0.content": ANSWER,
                }
            )
        else:
            parts = [{"type": "text", "content": QUERY}]
            llm["gen_ai.input.messages"] = json.dumps([{"role": "user", "parts": parts}])
            out = [{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}]}]
            llm["gen_ai.output.messages"] = json.dumps(out)
    return [
        span(ROOT, None, chain, start=1, end=10),
        span(RETRIEVER, ROOT, retrieved, start=2, end=4),
        span(LLM, ROOT, llm, start=5, end=9),
    ]


def genai(with_content: bool = True, events: bool = False) -> list[SpanRecord]:
    documents = [
        {"id": doc_id, "score": score, **({"content": text} if with_content else {})}
        for doc_id, text, score in DOCS
    ]
    retrieved = {
        "gen_ai.operation.name": "retrieval",
        "gen_ai.retrieval.query.text": QUERY,
        "gen_ai.retrieval.documents": json.dumps(documents),
    }
    llm: dict[str, Any] = {"gen_ai.operation.name": "chat"}
    llm_events: tuple[tuple[str, dict[str, Any]], ...] = ()
    if events:
        llm_events = (
            ("gen_ai.user.message", {"content": QUERY}),
            ("gen_ai.choice", {"message": json.dumps({"content": ANSWER})}),
        )
    else:
        llm["gen_ai.input.messages"] = json.dumps([{"role": "user", "content": QUERY}])
        llm["gen_ai.output.messages"] = json.dumps([{"role": "assistant", "content": ANSWER}])
    return [
        span(ROOT, None, {"http.route": "/ask"}, start=1, end=10),
        span(RETRIEVER, ROOT, retrieved, start=2, end=4),
        span(LLM, ROOT, llm, start=5, end=9, events=llm_events),
    ]
