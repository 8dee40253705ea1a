"""The policy between capture and evaluation: sampling, background or guard, and what a
failing answer does. Front ends hand it finished requests; it never sees a framework."""

from __future__ import annotations

import asyncio
import atexit
import logging
import random
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ragguard.adapters.models import shared_guard
from ragguard.config import Config, ExportConfig, JudgeConfig, LiveConfig
from ragguard.errors import UnsupportedAnswerError
from ragguard.exporters import Exporter, build_exporters
from ragguard.guard import Guard
from ragguard.schema import Evaluation, Trace
from ragguard.scoring.cache import CachedRelevanceScorer
from ragguard.worker import Result, Worker
from ragguard.worker_process import shared_process

logger = logging.getLogger(__name__)

OnEvaluation = Callable[[Evaluation], object]
Annotate = Callable[[Evaluation], object]


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
    """Errors raised by exporters (logged; the other exporters still ran)."""

    def __add__(self, other: LiveStats) -> LiveStats:
        return LiveStats(
            **{k: getattr(self, k) + getattr(other, k) for k in self.__dataclass_fields__}
        )


_SHARED_LOCK = threading.Lock()
_MONITORS: dict[tuple[object, ...], Monitor] = {}
_ALL: weakref.WeakSet[Monitor] = weakref.WeakSet()


class _Kept:
    """A job's trace builder that keeps what it built: the worker hands back only the
    result, and the exporters want the trace beside it."""

    def __init__(self, build: Callable[[], Trace]) -> None:
        self.build = build
        self.trace: Trace | None = None

    def __call__(self) -> Trace:
        self.trace = self.build()
        return self.trace


def _configure(config: Config | dict[str, Any] | None, options: dict[str, Any]) -> Config:
    """``config`` with ``options`` (LiveConfig fields, validated) applied."""
    base = config if isinstance(config, Config) else Config.model_validate(config or {})
    if not options:
        return base
    live = LiveConfig.model_validate({**base.live.model_dump(), **options})
    return base.model_copy(update={"live": live})


class Monitor:
    """Decides which requests are evaluated, evaluates them in the background or before the
    answer returns (guard), and applies the guard's action. Thread-safe; share one per
    configuration (``Monitor.shared``) so wrapping many chains starts one worker.

    ``options`` are LiveConfig fields applied over ``config``:
    ``Monitor(mode="guard", action="raise")``. Every evaluation goes to the exporters that
    ``config.exporters`` turns on, then to ``exporters``.
    """

    def __init__(
        self,
        config: Config | dict[str, Any] | None = None,
        *,
        guard: Guard | None = None,
        exporters: Sequence[Exporter] = (),
        **options: Any,
    ) -> None:
        self.config = _configure(config, options)
        self.live = self.config.live
        self.exporters = [*build_exporters(self.config.exporters), *exporters]
        # the models do not depend on where results go: share them across export settings
        models = self.config.model_copy(update={"exporters": ExportConfig()})
        if self.live.mode == "guard":  # the judge never sits on the request path
            models = models.model_copy(update={"judge": JudgeConfig()})
        self.guard = guard or shared_guard(models)
        evaluate: Callable[[Sequence[Trace]], Sequence[Evaluation | Exception]]
        if guard is None and self.live.worker == "process":
            # scores the reranker cached here go to the child with each batch
            relevance = self.guard.evaluator.relevance_scorer
            cached = relevance if isinstance(relevance, CachedRelevanceScorer) else None
            evaluate = shared_process(models, cached)
        else:
            evaluate = self.guard.evaluator.evaluate_batch
        self.worker = Worker(
            evaluate,
            queue_size=self.live.queue_size,
            batch_size=self.config.batch_size,
            exit_timeout_s=self.live.exit_flush_timeout_s,
        )
        self._counts: Counter[str] = Counter()
        self._lock = threading.Lock()
        with _SHARED_LOCK:
            _ALL.add(self)

    @classmethod
    def shared(
        cls,
        config: Config | dict[str, Any] | None = None,
        *,
        guard: Guard | None = None,
        exporters: Sequence[Exporter] = (),
        **options: Any,
    ) -> Monitor:
        """The Monitor for ``config`` with ``options`` (LiveConfig fields) applied, created
        once per distinct configuration, guard and exporters."""
        merged = _configure(config, options)
        key = (merged.model_dump_json(), id(guard), *map(id, exporters))
        with _SHARED_LOCK:
            monitor = _MONITORS.get(key)
        if monitor is None:
            monitor = cls(merged, guard=guard, exporters=exporters)
            with _SHARED_LOCK:
                monitor = _MONITORS.setdefault(key, monitor)
        return monitor

    def sample(self) -> bool:
        """Whether a request starting now is evaluated."""
        rate = self.live.sample_rate
        if rate >= 1.0 or (rate > 0.0 and random.random() < rate):
            return True
        self.count("sampled_out")
        return False

    def count(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1

    @property
    def stats(self) -> LiveStats:
        worker = self.worker.stats
        with self._lock:
            counts = dict(self._counts)
        return LiveStats(
            submitted=worker.submitted,
            dropped=worker.dropped,
            evaluated=worker.evaluated,
            failed=worker.failed,
            pending=worker.pending,
            **counts,
        )

    def handle(
        self,
        build: Callable[[], Trace],
        *,
        on_evaluation: OnEvaluation | None = None,
        annotate: Annotate | None = None,
        can_raise: bool = True,
    ) -> UnsupportedAnswerError | None:
        """A finished request. Background: queue it and return at once. Guard: evaluate it
        now and act; with action "raise" the refusal is returned for the front end to raise
        to the caller (``can_raise=False`` where it cannot: the answer is flagged instead)."""
        kept = _Kept(build)
        if self.live.mode == "background":
            self.worker.submit(kept, lambda result: self._delivered(kept, result, on_evaluation))
            return None
        try:
            result = self.worker.submit_waiting(kept).result(self.live.guard_timeout_s)
        except TimeoutError:
            result = None
        return self._judge(kept, result, on_evaluation, annotate, can_raise)

    async def ahandle(
        self,
        build: Callable[[], Trace],
        *,
        on_evaluation: OnEvaluation | None = None,
        annotate: Annotate | None = None,
    ) -> UnsupportedAnswerError | None:
        """``handle`` for async callers: guard mode waits without blocking the event loop."""
        if self.live.mode == "background":
            return self.handle(build, on_evaluation=on_evaluation)
        kept = _Kept(build)
        future = asyncio.wrap_future(self.worker.submit_waiting(kept))
        try:
            result = await asyncio.wait_for(future, self.live.guard_timeout_s)
        except TimeoutError:
            result = None
        return self._judge(kept, result, on_evaluation, annotate, can_raise=True)

    def failures(self, evaluation: Evaluation) -> list[str]:
        """Why an answer fails the configured minimums (empty: it passes)."""
        live, metrics = self.live, evaluation.metrics
        reasons = []
        rate = metrics.support_rate
        if live.min_support_rate is not None and rate is not None and rate < live.min_support_rate:
            unsupported = [s.text for s in evaluation.spans if s.supported is False]
            reasons.append(
                f"support rate {rate:.2f} < {live.min_support_rate:.2f} "
                f"(unsupported: {'; '.join(unsupported[:3])!r})"
            )
        share = metrics.relevant_at_k
        if (
            live.min_relevant_at_k is not None
            and share is not None
            and share < live.min_relevant_at_k
        ):
            reasons.append(f"relevant items {share:.2f} < {live.min_relevant_at_k:.2f}")
        return reasons

    def _delivered(
        self, kept: _Kept, result: Result, on_evaluation: OnEvaluation | None
    ) -> list[str]:
        """Count, export and report a finished evaluation; its failures, for the guard."""
        if isinstance(result, Exception):
            return []
        reasons = self.failures(result)
        if reasons:
            self.count("flagged")
        trace = kept.trace
        if trace is not None:
            self._each_exporter("export", lambda exporter: exporter.export(trace, result))
        if on_evaluation is not None:
            try:
                on_evaluation(result)
            except Exception:
                self.count("callback_errors")
                logger.exception("ragguard: on_evaluation raised")
        return reasons

    def _each_exporter(self, what: str, call: Callable[[Exporter], object]) -> None:
        """``call`` on every exporter; an error is logged and counted, never raised."""
        for exporter in self.exporters:
            try:
                call(exporter)
            except Exception:
                self.count("export_errors")
                logger.exception("ragguard: %s of %s raised", what, type(exporter).__name__)

    def shutdown(self, timeout: float | None = None) -> bool:
        """Wait for pending evaluations (``timeout`` seconds at most), then let every
        exporter send what it holds; True when nothing was left pending. Runs at exit."""
        done = self.worker.flush(timeout)
        self._each_exporter("shutdown", lambda exporter: exporter.shutdown())
        return done

    def _judge(
        self,
        kept: _Kept,
        result: Result | None,
        on_evaluation: OnEvaluation | None,
        annotate: Annotate | None,
        can_raise: bool,
    ) -> UnsupportedAnswerError | None:
        if result is None:
            self.count("guard_timeouts")
            logger.warning("ragguard: guard evaluation timed out; the answer went through")
            return None
        reasons = self._delivered(kept, result, on_evaluation)
        if isinstance(result, Exception):
            return None  # fail open: the worker logged and counted it
        if annotate is not None and self.live.action == "annotate":
            try:
                annotate(result)
            except Exception:
                self.count("capture_errors")
                logger.exception("ragguard: cannot attach the evaluation to the result")
        if not reasons:
            return None
        if self.live.action == "raise" and can_raise:
            return UnsupportedAnswerError(result, reasons)
        logger.warning("ragguard: unsupported answer in trace %s: %s", result.trace_id, reasons)
        return None


def _shutdown_at_exit() -> None:
    """Registered after the worker's own exit flush, so it runs first (atexit is last in,
    first out): evaluations still pending reach the exporters before they shut down."""
    with _SHARED_LOCK:
        monitors = [m for m in _ALL if m.exporters]
    for monitor in monitors:
        monitor.shutdown(monitor.live.exit_flush_timeout_s)


atexit.register(_shutdown_at_exit)


def stats() -> LiveStats:
    """Counters summed over every Monitor in the process."""
    with _SHARED_LOCK:
        monitors = list(_ALL)
    total = LiveStats()
    for monitor in monitors:
        total += monitor.stats
    return total
