"""Reading JSONL: traces files and trace logs, one record per line, through one reader.

Every line is decoded and parsed on its own, so a bad line (invalid UTF-8, bad JSON, JSON
nested too deeply, an integer of more than 4,300 digits, not an object) is reported with its
line number and the rest is read. A UTF-8 byte-order mark before line 1 (Windows editors
write one) is read past.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ragguard.config import LimitsConfig
from ragguard.errors import TraceValidationError
from ragguard.schema import Trace

PARTIAL_LOG_LINE = "partial last line (a write cut short), skipped"
CUT_RECORD = "a record cut short (its writer died), skipped; the record after it was read"


DEFAULT_MAX_LINE_BYTES = LimitsConfig().max_line_bytes


def read_jsonl(
    path: str | Path,
    *,
    whole_lines_only: bool = False,
    record_start: bytes | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[tuple[int, dict[str, Any] | TraceValidationError]]:
    """Yield (line number, JSON object or that line's error) per non-blank line.

    ``whole_lines_only``: a last line without its newline is a write cut short (a trace
    log being appended to, or a crashed writer), reported and skipped rather than parsed.
    ``record_start``: a bad line is searched for a whole record glued after a cut one (a
    writer killed mid-record, then another appending); found, both are yielded: the cut
    part's error, then the record.
    A line longer than ``max_line_bytes`` is reported and skipped without being held in
    memory whole.
    """
    for number, raw in raw_lines(path, max_line_bytes):
        for parsed in parse_raw(
            raw,
            number,
            whole_lines_only=whole_lines_only,
            record_start=record_start,
            max_line_bytes=max_line_bytes,
        ):
            yield number, parsed


def raw_lines(
    path: str | Path, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | None]]:
    """(line number, its bytes with the newline) per non-blank line; None for a line longer
    than ``max_line_bytes``, read through in bounded chunks and never held whole."""
    with Path(path).open("rb") as handle:
        for number, raw in enumerate(_lines(handle, max_line_bytes), start=1):
            if raw is None or raw.strip():
                yield number, raw


def parse_raw(
    raw: bytes | None,
    number: int,
    *,
    whole_lines_only: bool = False,
    record_start: bytes | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> list[dict[str, Any] | TraceValidationError]:
    """One line of ``raw_lines`` as ``read_jsonl`` reads it: its object or its error, or,
    for a whole record glued after a cut one, the cut part's error and then the record."""
    if raw is None:
        return [overlong(number, max_line_bytes)]
    parsed = parse_line(raw, number, whole_lines_only=whole_lines_only)
    if isinstance(parsed, TraceValidationError) and record_start is not None:
        glued = _glued_record(raw, record_start) if raw.endswith(b"\n") else None
        if glued is not None:
            return [TraceValidationError("<json>", CUT_RECORD, line=number), glued]
    return [parsed]


def overlong(number: int, max_line_bytes: int) -> TraceValidationError:
    """The error of a line longer than ``limits.max_line_bytes`` (never parsed)."""
    message = f"longer than limits.max_line_bytes = {max_line_bytes}"
    return TraceValidationError("<line>", message, line=number)


class FirstLines:
    """Which line first held each trace_id. Results are keyed by trace_id (``replay``
    resumes by it), so a later line repeating one is ambiguous: it is skipped, on every
    runner, with an error naming the first line."""

    def __init__(self) -> None:
        self.first: dict[str, int] = {}

    def repeat(self, trace_id: str, line: int) -> TraceValidationError | None:
        seen = self.first.setdefault(trace_id, line)
        if seen == line:
            return None
        message = f"repeats the trace_id of line {seen}"
        return TraceValidationError("trace_id", message, trace_id=trace_id, line=line)


def _glued_record(raw: bytes, start: bytes) -> dict[str, Any] | None:
    """The first suffix of ``raw`` from a later ``start`` that parses as a JSON object."""
    at = raw.find(start, 1)
    while at != -1:
        try:
            data = json.loads(raw[at:])
        except (ValueError, RecursionError):  # bad JSON or UTF-8 are ValueErrors
            data = None
        if isinstance(data, dict):
            return data
        at = raw.find(start, at + 1)
    return None


def _lines(handle: BinaryIO, max_bytes: int) -> Iterator[bytes | None]:
    """Each line of ``handle`` (with its newline), or None for one past ``max_bytes``, whose
    rest is read through in bounded chunks and dropped."""
    while raw := handle.readline(max_bytes + 1):
        if len(raw) <= max_bytes or raw.endswith(b"\n"):
            yield raw
            continue
        while (rest := handle.readline(1 << 20)) and not rest.endswith(b"\n"):
            pass
        yield None


def parse_line(
    raw: bytes, number: int, *, whole_lines_only: bool = False
) -> dict[str, Any] | TraceValidationError:
    """One non-blank line (with its newline, if it had one) as a JSON object, or its error."""
    complete = raw.endswith(b"\n")
    if whole_lines_only and not complete:
        return TraceValidationError("<json>", PARTIAL_LOG_LINE, line=number)
    return _parse_object(raw, number, complete)


def _parse_object(raw: bytes, number: int, complete: bool) -> dict[str, Any] | TraceValidationError:
    try:
        data = json.loads(raw.decode("utf-8-sig" if number == 1 else "utf-8"))
    except UnicodeDecodeError as error:
        return TraceValidationError("<line>", f"not valid UTF-8: {error}", line=number)
    except json.JSONDecodeError as error:
        partial = "" if complete else " (a partial last line?)"
        return TraceValidationError("<json>", f"not valid JSON{partial}: {error}", line=number)
    except RecursionError:
        return TraceValidationError("<json>", "JSON nested too deeply", line=number)
    except ValueError as error:  # an integer past sys.get_int_max_str_digits() (4,300)
        return TraceValidationError("<json>", f"a value that cannot be read: {error}", line=number)
    if not isinstance(data, dict):
        return TraceValidationError("<json>", "a record must be a JSON object", line=number)
    return data


def read_traces(
    path: str | Path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """Yield (line number, Trace or that line's TraceValidationError) per non-blank line."""
    for number, data in read_jsonl(path, max_line_bytes=max_line_bytes):
        yield number, as_trace(data, number)


def as_trace(
    data: dict[str, Any] | TraceValidationError, number: int
) -> Trace | TraceValidationError:
    """A parsed line of a traces file as a Trace, or its error."""
    if isinstance(data, TraceValidationError):
        return data
    try:
        return Trace.parse(data, line=number)
    except TraceValidationError as error:
        return error


def count_lines(path: str | Path) -> int:
    with Path(path).open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
