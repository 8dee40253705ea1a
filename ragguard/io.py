"""Streaming JSONL input: one trace per line, bad lines reported in place, never fatal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ragguard.errors import TraceValidationError
from ragguard.schema import Trace


def read_traces(path: str | Path) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """Yield (line number, Trace or that line's TraceValidationError) per non-blank line."""
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as error:
                partial = "" if line.endswith("\n") else " (a partial last line?)"
                message = f"not valid JSON{partial}: {error}"
                yield number, TraceValidationError("<json>", message, line=number)
                continue
            if not isinstance(data, dict):
                message = "a trace must be a JSON object"
                yield number, TraceValidationError("<json>", message, line=number)
                continue
            try:
                yield number, Trace.parse(data, line=number)
            except TraceValidationError as error:
                yield number, error


def count_lines(path: str | Path) -> int:
    with Path(path).open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
