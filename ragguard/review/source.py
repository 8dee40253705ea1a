"""What ``ragguard review`` reads: a trace log (with its rotated backups), an evaluations
file with the traces file it came from (``evaluate -o``), or a labels file being continued.

Records are read through the one JSONL reader as plain JSON objects: only the spans a
sample keeps are parsed as traces and evaluations, so a pass over a log costs little more
than decoding it.
"""

from __future__ import annotations

import glob
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragguard.errors import RagguardError, TraceValidationError
from ragguard.runtime import expand_logs, read_jsonl, read_log_lines

SourceKind = Literal["log", "evaluations", "labels"]
PEEK_BYTES = 1 << 20
"""How much of the first line is read to tell the kinds of source apart."""


@dataclass(frozen=True)
class Record:
    """One line of the source: where it is, the trace's JSON (None for an evaluations file,
    whose traces come from ``--traces``) and its evaluation's JSON."""

    where: str
    trace: dict[str, Any] | None
    evaluation: dict[str, Any]


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

    def records(self, bad: list[TraceValidationError]) -> Iterator[tuple[int, Record]]:
        """(bytes read so far, record) per evaluated line; bad lines go to ``bad``."""
        done = 0
        for path in self.files:
            lines = read_log_lines(path) if self.kind == "log" else read_jsonl(path)
            for number, data in lines:
                if isinstance(data, TraceValidationError):
                    bad.append(data)
                    continue
                record = self._record(path, number, data)
                if record is None:
                    bad.append(TraceValidationError("evaluation", "no evaluation", line=number))
                    continue
                yield done, record
            done += path.stat().st_size

    def _record(self, path: Path, number: int, data: dict[str, Any]) -> Record | None:
        where = f"{path.name} line {number}"
        if self.kind == "evaluations":
            return Record(where, None, data) if isinstance(data.get("spans"), list) else None
        evaluation = data.get("evaluation")
        if not isinstance(evaluation, dict) or not isinstance(evaluation.get("spans"), list):
            return None
        return Record(where, data, evaluation)


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
