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
