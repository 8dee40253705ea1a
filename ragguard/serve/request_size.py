"""How much one OTLP request may decode into, known before it is decoded.

Decoding is where a small body becomes large: 15.9 MB of empty protobuf spans (a 15.5 KB
gzip body) took 1.4 GB to parse, and a JSON list of ``{}`` grows 26 times. So a request's
items (spans, events, links, attributes and values: every message or JSON object, list and
value in it) are counted first, and past ``serve.max_values_per_request`` it is refused
whole (413, gRPC RESOURCE_EXHAUSTED). The count also sizes the request's share of the
in-flight budget (``decoded_bytes``).

Counting is cheap where it can be: every protobuf message takes at least 2 bytes of the
body, so a body of at most twice the limit is not walked; JSON is counted by its braces,
brackets and commas (C speed), and only when that upper bound passes the limit are the
strings taken out to count exactly.
"""

from __future__ import annotations

import re

from ragguard.serve.otlp import OtlpDecodeError

ITEM_BYTES = 176
"""What one item may take decoded: 4 MB of empty protobuf spans (2 bytes each) took 337 MB
of RSS to parse, about 168 bytes a span; attributes and values took about 56."""
BODY_BYTE_COST = 3
"""Decoded bytes per body byte for text: the body, the parser's copy and the Python string
(a 4 MB string value took 11 MB)."""

_CHILDREN: dict[str, dict[int, str]] = {
    "request": {1: "resource_spans"},
    "resource_spans": {1: "resource", 2: "scope_spans"},
    "resource": {1: "key_value"},
    "scope_spans": {1: "scope", 2: "span"},
    "scope": {3: "key_value"},
    "span": {9: "key_value", 11: "event", 13: "link"},
    "event": {3: "key_value"},
    "link": {5: "key_value"},
    "key_value": {2: "any_value"},
    "any_value": {5: "array", 6: "kvlist"},
    "array": {1: "any_value"},
    "kvlist": {1: "key_value"},
}
"""The OTLP trace messages that hold items: message → field number → the message it holds."""

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


class TooManyValues(Exception):
    """A request past ``serve.max_values_per_request`` (413)."""


def decoded_bytes(body_bytes: int, items: int) -> int:
    """What decoding a body of ``body_bytes`` holding ``items`` may take at its peak."""
    return body_bytes * BODY_BYTE_COST + items * ITEM_BYTES


def protobuf_items(body: bytes, limit: int) -> int:
    """The items of a protobuf request, or a bound on them (``TooManyValues`` past
    ``limit``; ``OtlpDecodeError`` when the body is not protobuf)."""
    if len(body) // 2 <= limit:
        return len(body) // 2
    count = 0
    stack = [("request", 0, len(body))]
    while stack:
        kind, at, end = stack.pop()
        children = _CHILDREN[kind]
        while at < end:
            key, at = _varint(body, at)
            wire = key & 7
            if wire == 0:
                at = _varint(body, at)[1]
            elif wire == 1 or wire == 5:
                at += 8 if wire == 1 else 4
            elif wire == 2:
                length, at = _varint(body, at)
                child = children.get(key >> 3)
                if child is not None:
                    count += 1
                    if count > limit:
                        raise TooManyValues
                    stack.append((child, at, at + length))
                at += length
            else:
                raise OtlpDecodeError("not an OTLP protobuf trace request (a group field)")
        if at != end:
            raise OtlpDecodeError("not an OTLP protobuf trace request (a field past its end)")
    return count


def _varint(body: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while shift < 70:
        if at >= len(body):
            raise OtlpDecodeError("not an OTLP protobuf trace request (cut short)")
        byte = body[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
    raise OtlpDecodeError("not an OTLP protobuf trace request (a varint too long)")


def json_items(body: bytes, limit: int) -> int:
    """The items of a JSON request, or a bound on them (``TooManyValues`` past ``limit``)."""
    bound = _structure(body)
    if bound <= limit:
        return bound
    exact = _structure(_JSON_STRING.sub(b'""', body))
    if exact > limit:
        raise TooManyValues
    return exact


def _structure(body: bytes) -> int:
    """Objects, lists and values: each but the first of a container follows a comma."""
    return body.count(b"{") + body.count(b"[") + body.count(b",") + 1
