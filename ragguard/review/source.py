"""What ``ragguard review`` reads: a trace log (with its rotated backups), an evaluations
file with the traces file it came from (``evaluate -o``), or a labels file being continued.

A trace log is read quickly: a line in the shape the trace log writes (see
``quick_evaluation``) has only its evaluation decoded, and is read whole, through the one
JSONL reader, when the sample keeps one of its spans; any other line is read whole at once.
A pass over a log so costs less than decoding it.
"""

from __future__ import annotations

import glob
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragguard.errors import RagguardError, TraceValidationError
from ragguard.runtime import (
    LOG_RECORD_START,
    expand_logs,
    parse_log_line,
    parse_raw,
    raw_lines,
    read_jsonl,
)

SourceKind = Literal["log", "evaluations", "labels"]
PEEK_BYTES = 1 << 20
"""How much of the first line is read to tell the kinds of source apart."""
EVALUATION_KEY = b',"evaluation":'
LOG_TAIL = re.compile(r'(?:,"logged_at":"[^"\\]*")?(?:,"log_truncated":(?:true|false))?\}\n')
"""What may follow the evaluation on a trace-log line: the keys the writer puts after it."""
_decode_value = json.JSONDecoder().raw_decode


@dataclass(frozen=True)
class Record:
    """One line of the source: where it is, the trace's JSON (None for an evaluations file,
    whose traces come from ``--traces``) and its evaluation's JSON."""

    where: str
    trace: dict[str, Any] | None
    evaluation: dict[str, Any]


class Line:
    """An evaluated line as the pass meets it: its evaluation, and its whole record, read
    from ``raw`` only when asked for (a span of the line is drawn)."""

    def __init__(
        self,
        where: str,
        number: int,
        evaluation: dict[str, Any],
        raw: bytes | None,
        record: Record | None,
    ) -> None:
        self.where, self.number, self.evaluation = where, number, evaluation
        self._raw, self._record = raw, record
        self.error: TraceValidationError | None = None
        """Why the line, read whole, is left out (None: it is not)."""
        self.read_whole = raw is None

    def record(self) -> Record | None:
        """The whole record; None, with ``error`` set, when the line read whole is bad or
        its evaluation is not the one read quickly."""
        if self._raw is not None:
            read = _read_whole(self._raw, self.where, self.number, self.evaluation)
            self._record, self.error = read
            self._raw, self.read_whole = None, True
        return self._record


@dataclass(frozen=True)
class Source:
    """A review source: its kind and the files read, oldest first."""

    kind: SourceKind
    files: tuple[Path, ...]
    traces: Path | None = None

    @property
    def name(self) -> str:
        return self.files[-1].name

    def size(self) -> int:
        """Bytes to read (the progress bar's total)."""
        return sum(path.stat().st_size for path in self.files)

    def lines(self, bad: list[TraceValidationError]) -> Iterator[tuple[int, Line]]:
        """(bytes read so far, line) per evaluated line; bad lines go to ``bad``."""
        done = 0
        for path in self.files:
            start = done
            for number, raw in raw_lines(path):
                done += len(raw) if raw is not None else 0  # an overlong one counts at the end
                where = f"{path.name} line {number}"
                evaluation = quick_evaluation(raw) if self.kind == "log" else None
                if evaluation is not None:
                    yield done, Line(where, number, evaluation, raw, None)
                    continue
                for record in self._read(raw, number, where):
                    if isinstance(record, TraceValidationError):
                        bad.append(record)
                    else:
                        yield done, Line(where, number, record.evaluation, None, record)
            done = start + path.stat().st_size

    def _read(
        self, raw: bytes | None, number: int, where: str
    ) -> Iterator[Record | TraceValidationError]:
        """A line read whole: its record (two for a record glued after a cut one), or errors."""
        read = parse_log_line(raw, number) if self.kind == "log" else parse_raw(raw, number)
        for data in read:
            if isinstance(data, TraceValidationError):
                yield data
            else:
                yield as_record(self.kind, where, data, number)


def as_record(
    kind: SourceKind, where: str, data: dict[str, Any], number: int
) -> Record | TraceValidationError:
    """A parsed line of a ``kind`` source as a record, or the error of a line without one."""
    evaluation = data if kind == "evaluations" else data.get("evaluation")
    if not isinstance(evaluation, dict) or not isinstance(evaluation.get("spans"), list):
        return TraceValidationError("evaluation", "no evaluation", line=number)
    return Record(where, None if kind == "evaluations" else data, evaluation)


def _read_whole(
    raw: bytes, where: str, number: int, quick: dict[str, Any]
) -> tuple[Record | None, TraceValidationError | None]:
    """A quickly read trace-log line read whole: its record, or why it is left out."""
    read = parse_log_line(raw, number)
    first = read[0]
    if isinstance(first, TraceValidationError):
        return None, first
    record = as_record("log", where, first, number)
    if isinstance(record, TraceValidationError):
        return None, record
    if spans_drawn_from(record.evaluation) != spans_drawn_from(quick):
        message = "its evaluation read whole differs from the one read quickly"
        return None, TraceValidationError("evaluation", message, line=number)
    return record, None


def quick_evaluation(raw: bytes | None) -> dict[str, Any] | None:
    """A trace-log line's top-level ``evaluation``, decoded alone; None when unsure.

    Sure only for a line in the writer's shape: it starts with ``LOG_RECORD_START`` and
    holds it nowhere else but as the evaluation's start (no record glued after a cut one),
    and its last ``,"evaluation":`` key holds an object followed only by ``LOG_TAIL``.
    JSON escapes every quote inside a string, so those bytes are structure; an object that
    ends where the tail closes the line is the line's own, at its top level. A line that is
    valid JSON thus yields exactly its evaluation. One broken inside its trace part yields
    one too, and is found bad only when read whole (when a span of it is drawn).
    """
    if raw is None or not raw.startswith(LOG_RECORD_START):
        return None
    at = raw.rfind(EVALUATION_KEY) + len(EVALUATION_KEY)
    again = raw.find(LOG_RECORD_START, 1)
    again = raw.find(LOG_RECORD_START, at + 1) if again == at else again
    if at == len(EVALUATION_KEY) - 1 or again != -1:
        return None
    try:
        text = raw[at:].decode("utf-8")
        evaluation, end = _decode_value(text)
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, or a huge integer
        return None
    if not isinstance(evaluation, dict) or not isinstance(evaluation.get("spans"), list):
        return None
    return evaluation if LOG_TAIL.fullmatch(text, end) else None


def spans_drawn_from(evaluation: dict[str, Any]) -> list[tuple[int, bool]]:
    """The objective spans a sample is drawn from (index, flagged unsupported)."""
    spans = evaluation["spans"]
    return [(i, span.get("supported") is False) for i, span in enumerate(spans) if eligible(span)]


def eligible(span: Any) -> bool:
    """An objective span with a support score: what the sample is drawn from."""
    return (
        isinstance(span, dict)
        and span.get("kind") == "objective"
        and isinstance(span.get("support"), int | float)
        and not isinstance(span.get("support"), bool)
    )


def open_source(path: str, traces: str | None = None) -> Source:
    """The source ``path`` names, told apart by its first line; RagguardError says what is
    missing (an evaluations file needs ``--traces``; a plain traces file has no verdicts)."""
    first = _first_object(Path(path))
    if "evaluation" in first:
        backups = glob.glob(f"{glob.escape(path)}.[0-9]*")
        return Source("log", tuple(expand_logs([glob.escape(path), *map(glob.escape, backups)])))
    if "labels" in first:
        return Source("labels", (Path(path),))
    if "spans" in first and "query" not in first:
        if traces is None:
            raise RagguardError(
                f"{path} is an evaluations file: name the traces file it was evaluated from "
                "with --traces TRACES.jsonl"
            )
        return Source("evaluations", (Path(path),), Path(traces))
    raise RagguardError(
        f"{path} holds no verdicts: review a trace log ([exporters] trace_log), an "
        "evaluations file with --traces (ragguard evaluate TRACES -o results.jsonl), or a "
        "labels file"
    )


def _first_object(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        for raw in iter(lambda: handle.readline(PEEK_BYTES), b""):
            if raw.strip():
                try:
                    data = json.loads(raw)
                except ValueError:
                    break
                if isinstance(data, dict):
                    return data
                break
    raise RagguardError(f"{path}: the first line is not a JSON object (or the file is empty)")


def traces_by_id(path: Path, wanted: set[str]) -> dict[str, dict[str, Any]]:
    """The traces of ``wanted`` ids from a traces file (the last line of each id)."""
    found: dict[str, dict[str, Any]] = {}
    for _, data in read_jsonl(path):
        if isinstance(data, dict) and data.get("trace_id") in wanted:
            found[data["trace_id"]] = data
    return found
