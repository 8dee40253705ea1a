"""The append-only trace log: one JSON line per evaluated request, for ``ragguard replay``.

A line is the record of ``ragguard.runtime.log_record``, which writes and reads it. Several
threads and several processes may append to one file: each line goes out in ``os.write``
calls on an ``O_APPEND`` descriptor under an exclusive ``flock`` on ``<log>.lock``.
``os.write`` leaves nothing in a user-space buffer, so a crashed process loses at most the
line it was writing; the next writer sees the file does not end in a newline and starts its
record on a fresh line, so a cut record never takes the next one with it. ``fsync`` (policy
below) covers a crash of the machine. The reader (``ragguard.runtime.log_record.read_log``)
reports a cut line with its line number and skips it. A log file deleted under the writer is
created again; when its directory is gone, the records are counted as errors, never as
written. Write failures
also count in ``ragguard.stats().export_errors``. A log that cannot be opened when it is
made (a read-only mount, a missing folder that cannot be created) is counted the same way,
never raised into the application, and opening is tried again at the next record. Only
the first failure of a run of failures is logged with its traceback (a full disk would
otherwise print one per request); the rest are counted, and the first write that works
again says how many failed.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from ragguard.config import ExportConfig
from ragguard.exporters.base import Exporter, ExportResult, Finished
from ragguard.runtime import MAX_RECORD_BYTES, register_once, to_record
from ragguard.schema import Evaluation, Trace

logger = logging.getLogger(__name__)

FsyncPolicy = Literal["always", "interval", "never"]


@dataclass
class TraceLogStats:
    written: int = 0
    rotations: int = 0
    oversized: int = 0
    """Records over max_record_bytes even after cutting item texts (not written)."""
    errors: int = 0
    """Writes that failed (disk full, permissions, directory deleted); logged, never raised,
    and counted in ``ragguard.stats().export_errors`` too."""


class TraceLog(Exporter):
    """Appends evaluated traces to a JSONL file; an exporter for the live Monitor.

    ``max_bytes``: rotate when the file would grow past this (``log`` -> ``log.1`` ...
    ``log.<backups>``, the oldest dropped). ``fsync``: "always" after every line (safest,
    slowest), "interval" at most every ``fsync_interval_s`` (default), "never" (the OS
    decides). Thread- and process-safe; ``export`` never raises.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        max_bytes: int | None = None,
        backups: int = 5,
        fsync: FsyncPolicy = "interval",
        fsync_interval_s: float = 1.0,
        max_record_bytes: int = MAX_RECORD_BYTES,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        if max_bytes is not None and max_bytes <= 0:
            raise ValueError("max_bytes must be positive (or None: never rotate)")
        if backups < 0:
            raise ValueError("backups must be >= 0")
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self.fsync = fsync
        self.fsync_interval_s = fsync_interval_s
        self.max_record_bytes = max_record_bytes
        self.clock = clock or (lambda: datetime.now(UTC))
        self.stats = TraceLogStats()
        self._lock = threading.RLock()  # a SIGTERM handler may shut it down mid-export
        self._last_sync = time.monotonic()
        self._fd: int | None = None
        self._lock_fd = -1
        self._shut = False
        self._failing = 0
        """Failures since the last write that worked (only the first is logged in full)."""
        register_once("ragguard.exporters.tracelog", after_fork=_reopen_in_child)
        try:
            self._open_files()
        except OSError:
            self._failed(f"cannot open {self.path}")
        _OPEN.add(self)

    def _open(self) -> int:
        """Readable too: a writer reads the last byte before appending (``_append``)."""
        return os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)

    def _open_files(self) -> None:
        """Own descriptors for this process: a flock belongs to the open file, which a
        forked child would otherwise share with its parent (and never exclude it)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = self._open()
        try:
            self._lock_fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            os.close(fd)
            raise
        self._fd = fd

    def _after_fork(self) -> None:
        self._lock = threading.RLock()  # another thread may have held it at the fork
        if self._fd is not None:
            self._open_files()

    def export(self, batch: Sequence[Finished]) -> ExportResult:
        """Append a record per request; FAILURE when one could not be written (each
        failure is logged and counted here, never raised)."""
        written = [self._append_record(f.trace, f.evaluation) for f in batch]
        return ExportResult.SUCCESS if all(written) else ExportResult.FAILURE

    def _append_record(self, trace: Trace, evaluation: Evaluation) -> bool:
        """Append one record; False when it could not be written."""
        try:
            line = to_record(
                trace, evaluation, self.clock(), max_record_bytes=self.max_record_bytes
            )
            with self._lock:
                if line is None:
                    self.stats.oversized += 1
                    logger.warning("ragguard: trace %s too large to log", trace.trace_id)
                    return True
                if self._shut:
                    raise OSError("the trace log is shut down")
                if self._fd is None:
                    self._open_files()  # it could not be opened before
                self._append(line)
                self.stats.written += 1
                if self._failing:
                    logger.warning(
                        "ragguard: %s is written again, after %d failed records",
                        self.path,
                        self._failing,
                    )
                    self._failing = 0
        except Exception:
            self._failed(f"cannot write trace {trace.trace_id} to {self.path}")
            return False
        return True

    def _failed(self, what: str) -> None:
        """Count a failure; log the first of a run of failures with its traceback."""
        with self._lock:
            self.stats.errors += 1
            self._failing += 1
            first = self._failing == 1
        if first:
            logger.exception("ragguard: %s (further failures are counted, not logged)", what)
        else:
            logger.debug("ragguard: %s", what)

    def _append(self, line: bytes) -> None:
        """Write one line; the flock makes it whole even across processes and rotation, and
        lets it check that the file ends in a newline (a writer killed mid-record leaves a
        cut line, which must not swallow this one)."""
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            self._follow_path()
            size = os.fstat(self._fd).st_size  # type: ignore[arg-type]
            if self.max_bytes is not None and size and size + len(line) > self.max_bytes:
                self._rotate()
            elif size and os.pread(self._fd, 1, size - 1) != b"\n":  # type: ignore[arg-type]
                line = b"\n" + line
            self._write(line)
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _write(self, line: bytes) -> None:
        view = memoryview(line)
        while view:
            view = view[os.write(self._fd, view) :]  # type: ignore[arg-type]
        if self.fsync == "always" or (
            self.fsync == "interval" and time.monotonic() - self._last_sync >= self.fsync_interval_s
        ):
            os.fsync(self._fd)  # type: ignore[arg-type]
            self._last_sync = time.monotonic()

    def _follow_path(self) -> None:
        """Our descriptor no longer is the file at ``path`` (another process rotated it, or
        it was deleted): open the path again. When that fails (its directory is gone) the
        record fails with it, rather than going to a file nobody can read."""
        try:
            current = os.stat(self.path).st_ino
        except FileNotFoundError:
            current = None
        if current != os.fstat(self._fd).st_ino:  # type: ignore[arg-type]
            fd = self._open()
            os.close(self._fd)  # type: ignore[arg-type]
            self._fd = fd

    def _rotate(self) -> None:
        os.fsync(self._fd)  # type: ignore[arg-type]
        if self.backups == 0:
            os.unlink(self.path)
        else:
            for index in range(self.backups - 1, 0, -1):
                older = Path(f"{self.path}.{index}")
                if older.exists():
                    older.replace(f"{self.path}.{index + 1}")
            self.path.replace(f"{self.path}.1")
        os.close(self._fd)  # type: ignore[arg-type]
        self._fd = self._open()
        self.stats.rotations += 1

    def shutdown(self) -> None:
        """Flush to disk and close; later exports are counted as errors."""
        with self._lock:
            self._shut = True
            if self._fd is None:
                return
            try:
                os.fsync(self._fd)
            finally:
                os.close(self._fd)
                os.close(self._lock_fd)
                self._fd = None


_OPEN: weakref.WeakSet[TraceLog] = weakref.WeakSet()


def _reopen_in_child() -> None:
    for log in list(_OPEN):
        log._after_fork()


_TRACE_LOGS: weakref.WeakValueDictionary[tuple[str, int | None, int], TraceLog] = (
    weakref.WeakValueDictionary()
)
_TRACE_LOGS_LOCK = threading.Lock()


def build(config: ExportConfig) -> TraceLog:
    """One ``TraceLog`` per file and rotation settings in this process, however many
    Monitors (one per distinct configuration: each pipeline name is one) write to it: each
    would otherwise hold two descriptors of its own. The registry's entry point."""
    assert config.trace_log is not None
    path = os.path.abspath(config.trace_log)
    key = (path, config.trace_log_max_bytes, config.trace_log_backups)
    with _TRACE_LOGS_LOCK:
        log = _TRACE_LOGS.get(key)
        if log is None or getattr(log, "_shut", False):  # shut at an earlier exit: a new one
            log = TraceLog(path, max_bytes=key[1], backups=key[2])
            _TRACE_LOGS[key] = log
        return log
