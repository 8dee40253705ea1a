"""Requests ``serve`` sends: annotations and scores (JSON), and forwarded OTLP bodies.
Plain urllib with a timeout; the caller counts failures (never retried: a verdict
re-sent later would be the same one)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
    """POST ``body``; the status code, raising ``OSError`` on a refusal or HTTP error."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        response.read()
        return int(response.status)


def post_json(url: str, payload: Any, headers: dict[str, str], timeout_s: float) -> int:
    return post(
        url,
        json.dumps(payload).encode(),
        {"Content-Type": "application/json", **headers},
        timeout_s,
    )
