"""OTLP trace requests, protobuf or JSON, into ``SpanRecord``s.

OTLP/JSON differs from protobuf's JSON mapping: trace and span ids are hex, not base64,
and enums are integers; 64-bit integers may come as strings. Keys are lowerCamelCase; the
snake_case form is accepted too. A span with a malformed id is rejected (counted in the
response's ``partial_success``), never guessed at.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ragguard.serve.model import SpanRecord, estimated_size
from ragguard.serve.numerals import ascii_int

_HEX = re.compile(r"[0-9a-f]+")


class OtlpDecodeError(ValueError):
    """The body is not an OTLP trace request (the receiver answers 400)."""


@dataclass
class DecodedRequest:
    spans: list[SpanRecord] = field(default_factory=list)
    rejected: int = 0
    """Spans dropped for malformed ids."""
    errors: list[str] = field(default_factory=list)


def _hex_id(value: str, length: int) -> str | None:
    value = value.lower()
    if len(value) != length or not _HEX.fullmatch(value) or value == "0" * length:
        return None
    return value


_ZERO_TRACE, _ZERO_SPAN = bytes(16), bytes(8)
"""Protobuf ids that are all zero: malformed, as ``_hex_id`` reads them (bytes' hex is
always lowercase hex digits, so no pattern is matched)."""


def _get(message: Mapping[str, Any], camel: str) -> Any:
    """A field of an OTLP/JSON object by its lowerCamelCase or snake_case name."""
    if camel in message:
        return message[camel]
    snake = re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), camel)
    return message.get(snake)


_SCALARS: tuple[tuple[str, Any], ...] = (
    ("stringValue", str),
    ("boolValue", bool),
    ("intValue", int),
    ("doubleValue", float),
)
"""OTLP/JSON's scalar ``AnyValue`` fields (64-bit integers may come as strings)."""


MAX_VALUE_DEPTH = 32
"""Nested ``arrayValue`` / ``kvlistValue`` levels read; deeper values are refused (400),
as protobuf's own parser refuses messages nested past 100 levels."""


def _object(value: Any, what: str) -> Mapping[str, Any]:
    """``value`` when it is an object (absent: an empty one), else a 400 naming ``what``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise OtlpDecodeError(f"not an OTLP/JSON trace request ({what} must be an object)")
    return value


def _json_value(value: Any, depth: int = 0) -> Any:
    """An OTLP/JSON ``AnyValue`` as a Python value."""
    if not isinstance(value, Mapping):
        return None
    if depth > MAX_VALUE_DEPTH:
        raise OtlpDecodeError(f"an attribute value nested deeper than {MAX_VALUE_DEPTH} levels")
    for key, convert in _SCALARS:
        found = _get(value, key)
        if found is not None:
            try:
                return convert(found)
            except (TypeError, ValueError):
                return None
    array = _get(value, "arrayValue")
    if isinstance(array, Mapping):
        return [_json_value(v, depth + 1) for v in _list(array.get("values"), "arrayValue")]
    kvlist = _get(value, "kvlistValue")
    if isinstance(kvlist, Mapping):
        return _json_attributes(kvlist.get("values"), depth + 1)
    return None


def _json_attributes(entries: Any, depth: int = 0) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for entry in _list(entries, "attributes"):
        if isinstance(entry.get("key"), str):
            attributes[entry["key"]] = _json_value(entry.get("value"), depth)
    return attributes


def _int(value: Any) -> int:
    """A 64-bit time (a number, or digits in a string); 0 when it is neither."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) else 0
    return (ascii_int(value, 20) or 0) if isinstance(value, str) else 0


def decode_json(body: bytes) -> DecodedRequest:
    """An OTLP/JSON ``ExportTraceServiceRequest``; ``OtlpDecodeError`` (400) for anything
    else: not JSON, nested too deep, a number past Python's digit limit, a field of the
    wrong type."""
    try:
        request = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        # JSONDecodeError is a ValueError, and so is a number past the digit limit
        raise OtlpDecodeError(f"not JSON that can be read: {type(error).__name__}") from None
    if not isinstance(request, Mapping):
        raise OtlpDecodeError("not an OTLP/JSON trace request (expected an object)")
    decoded = DecodedRequest()
    for resource_spans in _list(_get(request, "resourceSpans"), "resourceSpans"):
        resource = _object(_get(resource_spans, "resource"), "resource")
        service = _service(_json_attributes(resource.get("attributes")))
        for scope_spans in _list(_get(resource_spans, "scopeSpans"), "scopeSpans"):
            scope = _object(_get(scope_spans, "scope"), "scope").get("name") or ""
            for span in _list(scope_spans.get("spans"), "spans"):
                record = _json_span(span, service, str(scope))
                if record is None:
                    decoded.rejected += 1
                else:
                    decoded.spans.append(record)
    if decoded.rejected:
        decoded.errors.append(f"{decoded.rejected} spans with malformed trace or span ids")
    return decoded


def _list(value: Any, what: str) -> Iterator[Mapping[str, Any]]:
    """The objects of a JSON list (absent: none); anything but a list is a 400."""
    if isinstance(value, list):
        yield from (entry for entry in value if isinstance(entry, Mapping))
    elif value is not None:
        raise OtlpDecodeError(f"not an OTLP/JSON trace request ({what} must be a list)")


def _json_span(span: Mapping[str, Any], service: str, scope: str) -> SpanRecord | None:
    trace_id = _hex_id(str(_get(span, "traceId") or ""), 32)
    span_id = _hex_id(str(_get(span, "spanId") or ""), 16)
    if trace_id is None or span_id is None:
        return None
    parent = str(_get(span, "parentSpanId") or "")
    events = tuple(
        (str(event.get("name") or ""), _json_attributes(event.get("attributes")))
        for event in _list(span.get("events"), "events")
    )
    attributes = _json_attributes(span.get("attributes"))
    return SpanRecord(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=_hex_id(parent, 16) if parent else None,
        name=str(span.get("name") or ""),
        attributes=attributes,
        events=events,
        start_ns=_int(_get(span, "startTimeUnixNano")),
        end_ns=_int(_get(span, "endTimeUnixNano")),
        service=service,
        scope=scope,
        size=estimated_size(attributes, events),
    )


def _service(resource: Mapping[str, Any]) -> str:
    name = resource.get("service.name")
    return name if isinstance(name, str) and name else "unknown_service"


_PROTO_SCALARS = frozenset(("string_value", "bool_value", "int_value", "double_value"))
"""``AnyValue`` fields read as they are (the usual attribute: no call per value)."""


def _proto_value(value: Any) -> Any:
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_proto_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _proto_value(kv.value) for kv in value.kvlist_value.values}
    if kind == "bytes_value":
        return value.bytes_value.hex()
    return getattr(value, kind)


def _proto_attributes(entries: Any) -> dict[str, Any]:
    attributes = {}
    for entry in entries:
        value = entry.value
        kind = value.WhichOneof("value")
        attributes[entry.key] = (
            getattr(value, kind) if kind in _PROTO_SCALARS else _proto_value(value)
        )
    return attributes


def parse_protobuf(body: bytes) -> Any:
    """The ``ExportTraceServiceRequest`` message in ``body``."""
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(body)
    except DecodeError as error:
        raise OtlpDecodeError(f"not an OTLP protobuf trace request: {error}") from None
    return request


def decode_request(request: Any) -> DecodedRequest:
    """An ``ExportTraceServiceRequest`` message (from the HTTP body or from gRPC)."""
    decoded = DecodedRequest()
    for resource_spans in request.resource_spans:
        service = _service(_proto_attributes(resource_spans.resource.attributes))
        for scope_spans in resource_spans.scope_spans:
            scope = scope_spans.scope.name
            for span in scope_spans.spans:
                record = _proto_span(span, service, scope)
                if record is None:
                    decoded.rejected += 1
                else:
                    decoded.spans.append(record)
    if decoded.rejected:
        decoded.errors.append(f"{decoded.rejected} spans with malformed trace or span ids")
    return decoded


def _proto_span(span: Any, service: str, scope: str) -> SpanRecord | None:
    """One protobuf span, or None when an id is malformed (every span of a request passes
    here: ids are checked inline, scalar values read without a call)."""
    trace, own, parent = span.trace_id, span.span_id, span.parent_span_id
    if len(trace) != 16 or trace == _ZERO_TRACE or len(own) != 8 or own == _ZERO_SPAN:
        return None
    attributes = _proto_attributes(span.attributes)
    events: tuple[tuple[str, dict[str, Any]], ...] = ()
    if proto_events := span.events:
        events = tuple((e.name, _proto_attributes(e.attributes)) for e in proto_events)
    return SpanRecord(
        trace.hex(),
        own.hex(),
        parent.hex() if len(parent) == 8 and parent != _ZERO_SPAN else None,
        span.name,
        attributes,
        events,
        span.start_time_unix_nano,
        span.end_time_unix_nano,
        service,
        scope,
        estimated_size(attributes, events),
    )


def decode_protobuf(body: bytes) -> DecodedRequest:
    return decode_request(parse_protobuf(body))


__all__ = ["DecodedRequest", "OtlpDecodeError", "decode_json", "decode_protobuf", "decode_request"]
