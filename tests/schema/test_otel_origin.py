"""The typed origin of a trace from ``ragguard serve``: written by assembly beside the
trace, read back by the annotating exporters; an untrusted or absent one reads as none."""

from __future__ import annotations

from ragguard.exporters.annotations import target_span
from ragguard.schema import Trace
from ragguard.schema.otel_origin import ORIGIN_KEY, OtelOrigin

BASE = {"trace_id": "t1", "query": "q", "items": [], "response": "r"}


def test_an_origin_written_on_a_trace_reads_back_the_same() -> None:
    origin = OtelOrigin("rag", None, "a" * 16, ("b" * 16,), "retrieval", ("genai",))
    trace = Trace.parse({**BASE, ORIGIN_KEY: origin.as_extra()})
    assert OtelOrigin.of(trace) == origin
    assert target_span(trace) == "a" * 16
    assert list(trace.model_dump()[ORIGIN_KEY]) == [
        "service",
        "root_span_id",
        "answer_span_id",
        "retrieval_span_ids",
        "context_source",
        "dialects",
    ]


def test_a_trace_from_elsewhere_or_a_malformed_origin_has_none() -> None:
    assert OtelOrigin.of(Trace.parse(BASE)) is None
    assert OtelOrigin.of(Trace.parse({**BASE, ORIGIN_KEY: "x"})) is None
    odd = OtelOrigin.of(Trace.parse({**BASE, ORIGIN_KEY: {"root_span_id": 7}}))
    assert odd is not None and odd.target_span_id is None and odd.retrieval_span_ids == ()
