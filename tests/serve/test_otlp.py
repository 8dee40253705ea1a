"""OTLP decoding: OTLP/JSON's own conventions (hex ids, integers as strings, snake_case
accepted), protobuf, and bodies compressed with gzip or deflate."""

from __future__ import annotations

import gzip
import json
import zlib

import pytest

from ragguard.serve.otlp import OtlpDecodeError, decode_json, decode_protobuf
from ragguard.serve.receiver_http import TooLarge, decompress

TRACE, SPAN = "5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b174"


def request(span: dict, resource: dict | None = None) -> bytes:
    resource = resource or {"attributes": [{"key": "service.name", "value": {"stringValue": "s"}}]}
    return json.dumps(
        {
            "resourceSpans": [
                {"resource": resource, "scopeSpans": [{"scope": {"name": "lib"}, "spans": [span]}]}
            ]
        }
    ).encode()


def test_otlp_json_values_ids_and_events() -> None:
    span = {
        "traceId": TRACE.upper(),
        "spanId": SPAN,
        "parentSpanId": "",
        "name": "retrieve",
        "kind": 3,
        "startTimeUnixNano": "1700000000000000000",
        "attributes": [
            {"key": "n", "value": {"intValue": "42"}},
            {"key": "x", "value": {"doubleValue": 0.5}},
            {"key": "ok", "value": {"boolValue": True}},
            {"key": "list", "value": {"arrayValue": {"values": [{"stringValue": "a"}]}}},
            {
                "key": "map",
                "value": {"kvlistValue": {"values": [{"key": "k", "value": {"intValue": 1}}]}},
            },
        ],
        "events": [
            {"name": "gen_ai.choice", "attributes": [{"key": "m", "value": {"stringValue": "hi"}}]}
        ],
    }
    (record,) = decode_json(request(span)).spans
    assert (record.trace_id, record.span_id, record.parent_id) == (TRACE, SPAN, None)
    assert record.attributes == {"n": 42, "x": 0.5, "ok": True, "list": ["a"], "map": {"k": 1}}
    assert record.events == (("gen_ai.choice", {"m": "hi"}),)
    assert (record.service, record.scope, record.start_ns) == ("s", "lib", 1700000000000000000)


def test_snake_case_keys_and_malformed_ids() -> None:
    good = {"trace_id": TRACE, "span_id": SPAN, "parent_span_id": "00f067aa0ba902b7"}
    decoded = decode_json(request(good))
    assert decoded.spans[0].parent_id == "00f067aa0ba902b7" and decoded.rejected == 0
    for bad in ("", "zz" * 16, "0" * 32, TRACE[:30]):
        assert decode_json(request({"traceId": bad, "spanId": SPAN})).rejected == 1
    with pytest.raises(OtlpDecodeError):
        decode_json(b"[1, 2]")


def test_protobuf_round_trip() -> None:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    message = ExportTraceServiceRequest()
    span = message.resource_spans.add().scope_spans.add().spans.add()
    span.trace_id, span.span_id = bytes.fromhex(TRACE), bytes.fromhex(SPAN)
    span.attributes.add(key="input.value").value.string_value = "q"
    (record,) = decode_protobuf(message.SerializeToString()).spans
    assert (record.trace_id, record.attributes, record.service) == (
        TRACE,
        {"input.value": "q"},
        "unknown_service",
    )
    with pytest.raises(OtlpDecodeError):
        decode_protobuf(b"\xff\xff\xff")


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate, no zlib header
    ],
)
def test_compressed_bodies_and_their_cap(encoding, compress) -> None:
    body = request({"traceId": TRACE, "spanId": SPAN})
    assert decompress(compress(body), encoding, 10_000) == body
    with pytest.raises(TooLarge):
        decompress(compress(b" " * 20_000), encoding, 10_000)


def _protobuf_spans(spans: int, attributes: int, value: str | None) -> bytes:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    message = ExportTraceServiceRequest()
    scope = message.resource_spans.add().scope_spans.add()
    for number in range(spans):
        span = scope.spans.add()
        span.trace_id, span.span_id = bytes.fromhex(TRACE), (number + 1).to_bytes(8, "big")
        span.parent_span_id = bytes.fromhex(SPAN)
        for index in range(attributes):
            entry = span.attributes.add()
            entry.key = f"attr.{index}"
            if value is not None:
                entry.value.string_value = value
    return bytes(message.SerializeToString())


def _json_spans(spans: int, attributes: int, value: str | None) -> bytes:
    entries = [
        {"key": f"attr.{index}", "value": {} if value is None else {"stringValue": value}}
        for index in range(attributes)
    ]
    span = {"traceId": TRACE, "parentSpanId": SPAN, "attributes": entries}
    body = json.loads(request(span))
    body["resourceSpans"][0]["scopeSpans"][0]["spans"] = [
        {**span, "spanId": f"{number + 1:016x}"} for number in range(spans)
    ]
    return json.dumps(body).encode()


@pytest.mark.parametrize("encode", [_protobuf_spans, _json_spans])
@pytest.mark.parametrize(
    ("attributes", "value"),
    [
        (20_000, None),
        (20_000, "x"),
        (50, "some words"),
        (2, "y" * 2_000_000),
        (2, "y" * 1_000_000 + "\U0001f600"),  # one astral character: 4 bytes a character
        (0, None),  # the record, its ids and name alone
    ],
)
def test_the_held_size_of_a_span_is_within_twice_the_memory_it_takes(
    encode, attributes, value
) -> None:
    """``serve.max_held_bytes`` stands for memory: 20,000 empty attributes a span took about
    30 times what their wire size said, a string widened by one emoji 4 times, and a span
    without attributes about 500 bytes."""
    import gc
    import tracemalloc

    body = encode(5, attributes, value)
    decode = decode_protobuf if encode is _protobuf_spans else decode_json
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        decoded = decode(body)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    estimate = sum(span.size for span in decoded.spans)
    assert len(decoded.spans) == 5
    assert held / 2 <= estimate <= held * 2, (held, estimate)
