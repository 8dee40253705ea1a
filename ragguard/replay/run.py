"""Resumable re-evaluation of a trace log: which logged traces still need replaying.

``--out`` holds one replayed ``Evaluation`` per line. On restart its trace ids are skipped
(their stored evaluations still reach the report); a partial last line left by a crash is
cut off first, so appended lines stay whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from ragguard.errors import RagguardError
from ragguard.io import LOG_RECORD_START, LoggedTrace, read_jsonl, read_log
from ragguard.schema import Evaluation, Trace


def load_done(path: Path) -> tuple[dict[str, Evaluation], int]:
    """Evaluations already in ``path`` by trace id, and the bytes of a partial last line
    removed from it (0 when the file ends cleanly or does not exist)."""
    if not path.exists():
        return {}, 0
    data = path.read_bytes()
    cut = len(data) - (data.rfind(b"\n") + 1)
    if cut:
        with path.open("r+b") as handle:
            handle.truncate(len(data) - cut)
    done = {}
    for number, line in enumerate(data[: len(data) - cut].splitlines(), start=1):
        if not line.strip():
            continue
        try:
            evaluation = Evaluation.model_validate_json(line)
        except (ValidationError, json.JSONDecodeError) as error:
            raise ValueError(f"{path} line {number} is not an evaluation: {error}") from None
        done[evaluation.trace_id] = evaluation
    return done, cut


def last_records(paths: list[Path]) -> dict[str, tuple[str, int]]:
    """Where each trace id was last logged: (file, line number)."""
    latest: dict[str, tuple[str, int]] = {}
    for path in paths:
        for number, data in read_jsonl(path, whole_lines_only=True, record_start=LOG_RECORD_START):
            if isinstance(data, dict) and isinstance(data.get("trace_id"), str):
                latest[data["trace_id"]] = (str(path), number)
    return latest


@dataclass
class Replay:
    """The log's records to evaluate: bad lines pass through (to be reported), records
    already done go to ``on_resumed`` instead, at most ``limit`` new ones."""

    paths: list[Path]
    done: dict[str, Evaluation] = field(default_factory=dict)
    limit: int | None = None
    on_resumed: Callable[[LoggedTrace, Evaluation], None] = lambda logged, evaluation: None
    resumed: int = 0
    queued: int = 0
    superseded: int = 0
    """Records of a trace id logged again later (``ragguard serve`` re-evaluates a trace
    when a late span arrives): only the last record of each trace id is replayed."""

    def entries(self) -> Iterator[tuple[str, Trace | RagguardError, LoggedTrace | None]]:
        latest = last_records(self.paths)
        for where, record in read_log(self.paths):
            if isinstance(record, RagguardError):
                yield where, record, None
                continue
            if latest.get(record.trace.trace_id, (record.source, record.line)) != (
                record.source,
                record.line,
            ):
                self.superseded += 1
                continue
            admitted = self.admit(record)
            if admitted is None:
                return
            if admitted:
                yield where, record.trace, record

    def admit(self, record: LoggedTrace) -> bool | None:
        """True: replay this record; False: done already (handed to ``on_resumed``);
        None: the limit is reached."""
        previous = self.done.get(record.trace.trace_id)
        if previous is not None:
            self.resumed += 1
            self.on_resumed(record, previous)
            return False
        if self.limit is not None and self.queued >= self.limit:
            return None
        self.queued += 1
        return True
