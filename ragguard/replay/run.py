"""Resumable re-evaluation of a trace log: which logged traces still need replaying.

``--out`` holds one replayed ``Evaluation`` per line. On restart its trace ids are skipped
(their stored evaluations still reach the report); a partial last line left by a crash is
cut off first, so appended lines stay whole.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from pydantic import ValidationError

from ragguard.config import Config
from ragguard.errors import RagguardError
from ragguard.runtime import DEFAULT_MAX_LINE_BYTES, LoggedTrace, read_log, read_log_lines
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


def replay_id(trace_id: str, revision: object) -> str:
    """The id a record is replayed under: its trace id, or ``<trace id>#<n>`` for the
    re-evaluation that late spans from another service caused (``serve``'s ``revision``),
    which is shown beside the first record, never in its place."""
    number = revision.get("number") if isinstance(revision, dict) else None
    return f"{trace_id}#{number}" if isinstance(number, int) and number > 0 else trace_id


def last_records(
    paths: list[Path], max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> dict[str, tuple[str, int]]:
    """Where each replay id (``replay_id``) was last logged: (file, line number)."""
    latest: dict[str, tuple[str, int]] = {}
    for path in paths:
        for number, data in read_log_lines(path, max_line_bytes):
            if isinstance(data, dict) and isinstance(data.get("trace_id"), str):
                key = replay_id(data["trace_id"], data.get("revision"))
                latest[key] = (str(path), number)
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
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    """``limits.max_line_bytes`` of the replay's config: longer log lines are skipped."""
    superseded: int = 0
    """Records of a trace id logged again later (``ragguard serve`` re-evaluates a trace
    when a late span arrives): only the last record of each trace id is replayed, but a
    re-evaluation caused by another service's late spans is replayed beside the first,
    as ``<trace id>#<n>``."""

    def entries(self) -> Iterator[tuple[str, Trace | RagguardError, LoggedTrace | None]]:
        latest = last_records(self.paths, self.max_line_bytes)
        for where, record in read_log(self.paths, max_line_bytes=self.max_line_bytes):
            if isinstance(record, RagguardError):
                yield where, record, None
                continue
            trace = record.trace
            key = replay_id(trace.trace_id, (trace.model_extra or {}).get("revision"))
            if latest.get(key, (record.source, record.line)) != (record.source, record.line):
                self.superseded += 1
                continue
            if key != trace.trace_id:
                record = replace(record, trace=trace.model_copy(update={"trace_id": key}))
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


FINGERPRINT_SUFFIX = ".config.json"
"""Beside a resumable output: the fingerprint of the config that wrote it."""
_NOT_SCORING = {"live", "exporters", "batch_size", "threads", "cache_size"}


def config_fingerprint(config: Config) -> str:
    """A hash of what decides the scores (models, thresholds, span rules, limits, judge),
    not of how fast or where they are delivered."""
    settings = config.model_dump(mode="json", exclude=_NOT_SCORING)
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


def _record_path(out: Path) -> Path:
    return out.with_name(out.name + FINGERPRINT_SUFFIX)


def check_output_config(out: Path, config: Config, resuming: bool) -> str | None:
    """Refuse to resume an output another config wrote (its scores would be mixed with
    this config's); a warning when the output has no record to tell."""
    if not resuming:
        return None
    record = _record_path(out)
    if not record.exists():
        return f"{out} has no record of the config that wrote it; resuming with this one"
    stored = json.loads(record.read_text(encoding="utf-8"))
    fingerprint = config_fingerprint(config)
    if stored.get("config_sha256") != fingerprint:
        raise RagguardError(
            f"{out} was written with another config ({stored.get('config') or 'defaults'}, "
            f"{stored.get('config_sha256')}; now {fingerprint}): resuming would mix their "
            "scores. Choose another output, or delete it to start over"
        )
    return None


def record_output_config(out: Path, config: Config, config_name: str | None) -> None:
    """Write, beside ``out``, which config wrote it (once something was written there)."""
    payload = {"config_sha256": config_fingerprint(config), "config": config_name}
    _record_path(out).write_text(json.dumps(payload) + "\n", encoding="utf-8")
