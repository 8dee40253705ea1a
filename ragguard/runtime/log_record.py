"""The trace-log record, written and read here: one JSON line per evaluated request, the
trace (the ``Trace`` schema, unknown fields kept) plus ``"evaluation"`` (the ``Evaluation``
produced live), ``"logged_at"`` (ISO 8601, UTC) and, for a record cut to its bound,
``"log_truncated"``. ``ragguard.exporters.tracelog`` appends the lines ``to_record`` makes;
``ragguard replay`` reads them back with ``read_log``, through the one JSONL reader
(``ragguard.runtime.jsonl``).

Records are bounded: inline image/video data (``data:`` URIs, or any value longer than
``INLINE_MEDIA_CHARS``) is replaced by a ``sha256:`` content reference, and a record still
longer than ``max_record_bytes`` has its item texts cut (marked ``"log_truncated": true``).
"""

from __future__ import annotations

import glob
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragguard.errors import TraceValidationError
from ragguard.runtime.jsonl import DEFAULT_MAX_LINE_BYTES, parse_raw, raw_lines
from ragguard.schema import Evaluation, JudgeVerdict, Trace, is_inline, media_reference

LOG_FIELDS = ("evaluation", "logged_at", "log_truncated")
"""Top-level keys the trace log adds to a trace; popped before the rest is parsed as a Trace."""

LOG_RECORD_START = b'{"trace_id":'
"""How every trace-log record begins: ``trace_id`` is a Trace's first field, and JSON escapes
every quote inside a string, so these bytes only occur as structure."""

MAX_RECORD_BYTES = 1 << 20
"""Default bound on one logged line (1 MiB)."""
MIN_ITEM_CHARS = 256
"""Item texts are never cut below this when a record is over its bound."""


def to_record(
    trace: Trace,
    evaluation: Evaluation,
    logged_at: datetime,
    *,
    max_record_bytes: int = MAX_RECORD_BYTES,
) -> bytes | None:
    """The log line for one evaluated trace (newline included); None when even with item
    texts cut to ``MIN_ITEM_CHARS`` it exceeds ``max_record_bytes``."""
    record: dict[str, Any] = trace.model_dump(mode="json", exclude_none=True)
    for key in LOG_FIELDS:
        record.pop(key, None)  # a replayed trace logged again carries the old ones
    for item in record.get("items", []):
        for key in ("image", "video"):
            if isinstance(item.get(key), str) and is_inline(item[key]):
                item[key] = media_reference(item[key])
    record["evaluation"] = evaluation.model_dump(mode="json")
    record["logged_at"] = logged_at.isoformat()
    line = _encode(record)
    if len(line) <= max_record_bytes:
        return line
    texts = [item for item in record.get("items", []) if isinstance(item.get("text"), str)]
    room = (max_record_bytes - (len(line) - sum(len(i["text"]) for i in texts))) // 4
    cap = max(MIN_ITEM_CHARS, room // max(len(texts), 1))  # // 4: worst-case UTF-8 width
    for item in texts:
        item["text"] = item["text"][:cap]
    record["log_truncated"] = True
    line = _encode(record)
    return line if len(line) <= max_record_bytes else None


def _encode(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


@dataclass(frozen=True)
class LoggedTrace:
    """One trace-log line read back: the trace as it was logged and the evaluation made live."""

    source: str
    line: int
    trace: Trace
    evaluation: Evaluation | None
    logged_at: datetime | None
    truncated: bool = False

    @property
    def judge_scores(self) -> dict[int, JudgeVerdict]:
        """The judge scores the live evaluation recorded, by the index of their span, each
        with the hash of its question: a replay hands them, with the trace's id, to wherever
        the trace is evaluated (this process, a ``--workers`` process, a Ray actor), which
        reuses one only on the same span of the same trace, and only where the question it
        recomputes has that hash (``Cascade.remember``). None from an evaluation of another
        trace."""
        evaluation = self.evaluation
        if evaluation is None or evaluation.trace_id != self.trace.trace_id:
            return {}
        return {
            index: span.judge
            for index, span in enumerate(evaluation.spans)
            if span.judge is not None
            and span.judge.score is not None
            and span.judge.question is not None
        }


def expand_logs(patterns: Iterable[str | Path]) -> list[Path]:
    """Log files named or globbed, each base log preceded by its rotated backups, oldest
    first (``log.3``, ``log.2``, ``log.1``, ``log``), so records come in logged order."""
    found: list[Path] = []
    for pattern in patterns:
        matches = sorted(glob.glob(str(pattern))) or [str(pattern)]
        found.extend(Path(m) for m in matches if not m.endswith(".lock"))

    def key(path: Path) -> tuple[str, int]:
        match = re.fullmatch(r"(.*)\.(\d+)", path.name)
        base, index = (match[1], int(match[2])) if match else (path.name, 0)
        return (str(path.parent / base), -index)

    return sorted(dict.fromkeys(found), key=key)


def read_log(
    paths: Iterable[Path], *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[str, LoggedTrace | TraceValidationError]]:
    """Yield ("<file> line N", record or that line's error) per non-blank line of each
    trace log (``ragguard.exporters.tracelog``)."""
    for path in paths:
        for number, data in read_log_lines(path, max_line_bytes):
            yield f"{path.name} line {number}", as_logged(data, str(path), number)


def read_log_lines(
    path: Path, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any] | TraceValidationError]]:
    """One trace log's lines as JSON objects, read as a log is: a cut last line skipped,
    a record glued after a cut one recovered."""
    for number, raw in raw_lines(path, max_line_bytes):
        for data in parse_log_line(raw, number, max_line_bytes):
            yield number, data


def parse_log_line(
    raw: bytes | None, number: int, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> list[dict[str, Any] | TraceValidationError]:
    """One line of a trace log (from ``raw_lines``) as ``read_log_lines`` reads it."""
    return parse_raw(
        raw,
        number,
        whole_lines_only=True,
        record_start=LOG_RECORD_START,
        max_line_bytes=max_line_bytes,
    )


def as_logged(
    data: dict[str, Any] | TraceValidationError, source: str, number: int
) -> LoggedTrace | TraceValidationError:
    """A parsed line of a trace log as a LoggedTrace, or its error."""
    return data if isinstance(data, TraceValidationError) else _logged_trace(source, number, data)


def _logged_trace(
    source: str, number: int, data: dict[str, Any]
) -> LoggedTrace | TraceValidationError:
    evaluation, logged_at, truncated = (data.pop(key, None) for key in LOG_FIELDS)
    try:
        trace = Trace.parse(data, line=number, check_keys=False)  # replayed as it was logged
        live = None if evaluation is None else Evaluation.model_validate(evaluation)
        when = None if logged_at is None else datetime.fromisoformat(logged_at)
    except TraceValidationError as error:
        return error
    except ValidationError as error:
        issue = TraceValidationError.from_pydantic(error, line=number)
        return TraceValidationError(
            f"evaluation.{issue.field}", issue.message, trace_id=trace.trace_id, line=number
        )
    except (TypeError, ValueError) as error:
        return TraceValidationError("logged_at", str(error), line=number)
    return LoggedTrace(source, number, trace, live, when, bool(truncated))
