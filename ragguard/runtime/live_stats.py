"""Live counters: what every Monitor reports and ``ragguard.stats()`` sums.

Imports no other ragguard module, so the exporters (which publish these counters) and the
live runtime (which produces them) both depend on it, and not on each other.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class LiveStats:
    """Counters of one Monitor (or all of them, from ``ragguard.stats()``)."""

    submitted: int = 0
    dropped: int = 0
    evaluated: int = 0
    failed: int = 0
    pending: int = 0
    sampled_out: int = 0
    flagged: int = 0
    """Evaluated answers that failed the guard's minimums (counted in every mode)."""
    guard_timeouts: int = 0
    """Guard evaluations that took longer than guard_timeout_s (the answer went through)."""
    capture_errors: int = 0
    """Errors inside ragguard's callbacks (logged; the request went on)."""
    callback_errors: int = 0
    """Errors raised by the user's on_evaluation (logged)."""
    abandoned: int = 0
    """Requests forgotten unfinished (a stream never read to its end) beyond max_open_requests."""
    export_errors: int = 0
    """Exporter failures (logged; the other exporters still ran): calls that raised, and
    the trace log's own write failures (disk full, directory deleted)."""
    lost: int = 0
    """Evaluations still pending at exit (or SIGTERM) when exit_flush_timeout_s ran out:
    given up, logged."""
    worker_restarts: int = 0
    """Evaluation child processes killed by the watchdog (no progress for
    worker_stall_timeout_s) or found dead; the next batch starts a new one."""
    guard_failed_open: int = 0
    """Guard requests let through at once because the evaluation process was down (they
    are still evaluated in the background)."""

    def __add__(self, other: LiveStats) -> LiveStats:
        return LiveStats(
            **{k: getattr(self, k) + getattr(other, k) for k in self.__dataclass_fields__}
        )


class StatsSource(Protocol):
    """Anything that reports live counters (a Monitor)."""

    @property
    def stats(self) -> LiveStats: ...


_LOCK = threading.Lock()
_SOURCES: weakref.WeakSet[StatsSource] = weakref.WeakSet()
_PROCESS: Counter[str] = Counter()


def record_process_event(name: str) -> None:
    """Count an event of the process rather than of one Monitor (a child process restarted,
    a trace-log write that failed): ``stats()`` adds it once, however many Monitors share
    the child or the log."""
    with _LOCK:
        _PROCESS[name] += 1


def register_stats_source(source: StatsSource) -> None:
    """Count ``source`` in ``stats()`` for as long as it lives."""
    with _LOCK:
        _SOURCES.add(source)


def stats() -> LiveStats:
    """Counters summed over every Monitor in the process."""
    with _LOCK:
        sources = list(_SOURCES)
        total = LiveStats(**_PROCESS)
    for source in sources:
        total += source.stats
    return total
