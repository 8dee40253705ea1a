"""Dialect reading and trace assembly on hand-built spans: what each dialect gives, the
fallbacks, and the statuses that stand in for a verdict when content is missing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragguard.runtime.sampling import hash_sample
from ragguard.serve.buffer import BufferSettings, TraceBuffer
from ragguard.serve.dialects import read_span
from ragguard.serve.join import join_spans
from tests.support.serve_fixtures import (
    ANSWER,
    DOCS,
    LLM,
    QUERY,
    RETRIEVER,
    ROOT,
    TRACE,
    genai,
    openinference,
    openllmetry,
    span,
)

TEXTS = [text for _, text, _ in DOCS]


@pytest.mark.parametrize(
    ("spans", "ids", "scores"),
    [
        (openinference(), ["d1", "d2"], [0.9, 0.2]),
        (openllmetry(), [f"{RETRIEVER}:0", f"{RETRIEVER}:1"], [None, None]),
        (openllmetry(legacy=True), [f"{RETRIEVER}:0", f"{RETRIEVER}:1"], [None, None]),
        (genai(), ["d1", "d2"], [0.9, 0.2]),
        (genai(events=True), ["d1", "d2"], [0.9, 0.2]),
    ],
    ids=["openinference", "openllmetry", "openllmetry-legacy", "genai", "genai-events"],
)
def test_each_dialect_assembles_the_same_trace(spans, ids, scores) -> None:
    result = join_spans(TRACE, spans)
    assert result.status == "ready", result.detail
    trace = result.trace
    assert trace is not None
    assert trace.trace_id == TRACE
    assert (trace.query, trace.response) == (QUERY, ANSWER)
    assert [item.id for item in trace.items] == ids
    assert [item.text for item in trace.items] == TEXTS
    assert [item.score for item in trace.items] == scores
    extra = trace.model_dump()
    assert [item["span_id"] for item in extra["items"]] == [RETRIEVER, RETRIEVER]
    assert [item["position"] for item in extra["items"]] == [0, 1]
    assert extra["otel"]["answer_span_id"] == LLM
    assert extra["otel"]["context_source"] == "retrieval"
    assert trace.traceparent == f"00-{TRACE}-{LLM}-01"
    assert result.target_span_id == ROOT
    assert result.service == "rag-app"


def test_hidden_content_is_a_status_not_a_verdict() -> None:
    for spans in (openinference(content=False), openllmetry(content=False)):
        result = join_spans(TRACE, spans)
        assert result.status == "content_not_captured"
        assert result.trace is None
    result = join_spans(TRACE, genai(with_content=False))
    assert result.status == "content_not_captured"
    assert "2 retrieved documents" in result.detail


def test_spans_arriving_in_any_order_give_the_same_trace() -> None:
    spans = openinference()
    assert join_spans(TRACE, spans[::-1]).trace == join_spans(TRACE, spans).trace


def test_several_retrievals_record_where_each_item_came_from() -> None:
    spans = openinference()
    second = span(
        "1111111111111111",
        ROOT,
        {
            "openinference.span.kind": "RETRIEVER",
            "input.value": "Eiffel Tower height",
            "retrieval.documents.0.document.id": "d1",
            "retrieval.documents.0.document.content": "The tower is 330 metres tall.",
        },
        start=3,
        end=4,
    )
    trace = join_spans(TRACE, [*spans, second]).trace
    assert trace is not None
    items = trace.model_dump()["items"]
    assert [i["id"] for i in items] == ["d1", "d2", "d1@1111111111111111:0"]
    assert [i["span_id"] for i in items] == [RETRIEVER, RETRIEVER, "1111111111111111"]
    assert trace.query == QUERY  # the first retrieval's


def test_prompt_variables_stand_in_for_a_missing_retriever() -> None:
    llm = {
        "openinference.span.kind": "LLM",
        "llm.prompt_template.variables": json.dumps({"context": TEXTS[0], "question": QUERY}),
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": ANSWER,
    }
    result = join_spans(TRACE, [span(LLM, None, llm, start=1, end=2)])
    assert result.trace is not None
    assert result.trace.query == QUERY
    assert [i.text for i in result.trace.items] == [TEXTS[0]]
    assert result.trace.model_dump()["otel"]["context_source"] == "prompt_variables"


def test_input_messages_are_the_last_resort_context() -> None:
    system = f"Answer from this context: {TEXTS[0]}"
    llm = {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": json.dumps(
            [{"role": "system", "content": system}, {"role": "user", "content": QUERY}]
        ),
        "gen_ai.output.messages": json.dumps([{"role": "assistant", "content": ANSWER}]),
    }
    result = join_spans(TRACE, [span(LLM, None, llm, start=1, end=2)])
    assert result.trace is not None
    assert [i.text for i in result.trace.items] == [system]  # the question itself is not context
    assert result.trace.model_dump()["otel"]["context_source"] == "input_messages"


def test_statuses_for_traces_that_are_not_rag() -> None:
    http = [span(ROOT, None, {"http.route": "/health"}, start=1, end=2)]
    assert join_spans(TRACE, http).status == "not_rag"
    only_answer = {
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": json.dumps([{"role": "user", "content": QUERY}]),
        "gen_ai.output.messages": json.dumps([{"role": "assistant", "content": ANSWER}]),
    }
    assert join_spans(TRACE, [span(LLM, None, only_answer, start=1, end=2)]).status == "no_context"


def test_own_evaluation_spans_are_ignored() -> None:
    own = span(ROOT, None, {"openinference.span.kind": "EVALUATOR"}, start=1, end=2)
    own = own._replace(scope="ragguard")
    assert join_spans(TRACE, [own]).status == "not_rag"
    assert read_span(span(ROOT, None, {"db.system": "postgresql"}, start=1, end=2)) is None


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def clocked_buffer(**settings: Any) -> tuple[Clock, TraceBuffer]:
    """A buffer of ``settings`` and the clock it reads, which the test moves."""
    clock = Clock()
    return clock, TraceBuffer(BufferSettings(**settings), clock)


def test_buffer_waits_for_the_root_and_a_grace_period() -> None:
    clock, buffer = clocked_buffer(grace_s=2.0, idle_timeout_s=30.0)
    root, retriever, llm = openinference()
    buffer.add([retriever, llm])
    clock.now = 10.0
    assert buffer.due() == []  # no root yet, not idle yet
    buffer.add([root, root])
    assert buffer.counts["spans_duplicate"] == 1
    clock.now = 11.0
    assert buffer.due() == []
    clock.now = 12.0
    (due,) = buffer.due()
    assert (due.trace_id, due.reason, due.revision, len(due.spans)) == (TRACE, "root", 0, 3)
    assert buffer.waiting.traces == buffer.waiting.spans == 0
    assert buffer.held_traces == 1 and buffer.held_spans == 3  # kept for late spans


def test_a_root_that_never_arrives_is_evaluated_after_the_idle_timeout() -> None:
    clock, buffer = clocked_buffer(grace_s=2.0, idle_timeout_s=30.0)
    buffer.add(openinference()[1:])
    clock.now = 29.9
    assert buffer.due() == []
    clock.now = 30.0
    (due,) = buffer.due()
    assert due.reason == "idle"
    result = join_spans(due.trace_id, due.spans)
    assert result.status == "ready"
    assert result.target_span_id == LLM  # no root: the answer's span is annotated


def test_a_late_span_reopens_the_trace_under_the_same_id() -> None:
    clock, buffer = clocked_buffer(grace_s=1.0, late_span_window_s=60.0)
    root, retriever, llm = openinference()
    buffer.add([root, llm])
    clock.now = 1.0
    (first,) = buffer.due()
    assert join_spans(first.trace_id, first.spans).status == "ready"
    buffer.add([llm])  # a retried export: still a duplicate
    assert buffer.held_traces == 1 and buffer.counts["spans_duplicate"] == 1
    buffer.add([retriever])
    clock.now = 2.0
    dues = buffer.due()
    assert [(d.trace_id, d.revision, len(d.spans)) for d in dues] == [(TRACE, 1, 3)]
    clock.now = 100.0
    buffer.due()
    buffer.add([retriever])  # past the window: a new trace of one span
    clock.now = 200.0
    (again,) = buffer.due()
    assert (again.revision, len(again.spans)) == (0, 1)


def test_caps_refuse_a_trace_past_them_and_reject_extra_spans() -> None:
    _, buffer = clocked_buffer(max_traces=2, max_spans_per_trace=2)
    traces = [f"{n:032x}" for n in range(1, 4)]
    outcomes = [buffer.add(openinference(trace_id=trace_id)[1:]) for trace_id in traces]
    assert [o.refused for o in outcomes] == [False, False, True]
    assert buffer.held_traces == 2 and buffer.counts["batches_refused"] == 1
    added = buffer.add([openinference(trace_id=traces[1])[0]])
    assert added.rejected == 1
    assert buffer.held_spans == 4
    assert sorted(d.trace_id for d in buffer.drain()) == traces[:2]


def test_sampling_by_trace_id_hash_nests_lower_rates_in_higher_ones() -> None:
    ids = [f"{n:032x}" for n in range(1, 2001)]
    kept = {rate: {t for t in ids if hash_sample(t, rate)} for rate in (0.1, 0.5, 1.0)}
    assert kept[0.1] <= kept[0.5] <= kept[1.0] == set(ids)
    assert 100 < len(kept[0.1]) < 300 and 850 < len(kept[0.5]) < 1150
    buffer = TraceBuffer(BufferSettings(sample_rate=0.5), Clock())
    added = buffer.add([openinference(trace_id=t)[0] for t in ids])
    assert added.accepted == len(kept[0.5]) and added.sampled_out == 2000 - len(kept[0.5])


def test_a_rerankers_output_is_what_the_answer_is_checked_against() -> None:
    reranker = span(
        "2222222222222222",
        ROOT,
        {
            "openinference.span.kind": "RERANKER",
            "reranker.query": QUERY,
            "reranker.output_documents.0.document.id": "d1",
            "reranker.output_documents.0.document.content": TEXTS[0],
            "reranker.output_documents.0.document.score": 3.5,
        },
        start=4,
        end=5,
    )
    result = join_spans(TRACE, [*openinference(), reranker])
    assert result.trace is not None
    assert [(i.id, i.score) for i in result.trace.items] == [("d1", 3.5)]
    assert result.trace.model_dump()["otel"]["retrieval_span_ids"] == ["2222222222222222"]
