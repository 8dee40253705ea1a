"""The policy between capture and evaluation: sampling, background or guard, and what a
failing answer does. Front ends hand it finished requests; it never sees a framework.

Monitors are cheap: the worker (one thread, one queue) is shared by every Monitor with the
same models and queue settings, so wrapping with many pipeline names or exporters starts
no more threads. Each Monitor counts its own requests. At exit and on SIGTERM the workers
get one deadline to deliver, then the exporters close (nothing reaches a closed exporter);
what was given up is counted (``lost``) and reported."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from types import FrameType
from typing import Any

from ragguard.config import (
    Config,
    ConfigLike,
    ExportConfig,
    JudgeConfig,
    LiveConfig,
    validate_config,
)
from ragguard.errors import EvaluationLost, UnsupportedAnswerError
from ragguard.evaluation import Guard
from ragguard.exporters import Exporter, ExporterDelivery, FailurePolicy, Finished, build_exporters
from ragguard.live import thread as worker
from ragguard.live.child import EvaluationChild, shared_child
from ragguard.live.minimums import below_minimums
from ragguard.live.shared import shared_guard
from ragguard.live.thread import EvaluationThread, Result, close_all, exit_timeout, flush
from ragguard.runtime import LiveStats, register_once, register_stats_source
from ragguard.schema import Evaluation, GuardResult, Trace
from ragguard.scoring.wiring import CachedRelevanceScorer

logger = logging.getLogger(__name__)
_COUNTED_HINT = "its further errors are only counted: ragguard.stats().export_errors"

OnEvaluation = Callable[[Evaluation], object]
Annotate = Callable[[GuardResult], object]


_SHARED_LOCK = threading.RLock()  # also taken by the SIGTERM handler
_MONITORS: dict[tuple[object, ...], Monitor] = {}
_ALL: weakref.WeakSet[Monitor] = weakref.WeakSet()
_WORKERS: weakref.WeakKeyDictionary[object, dict[tuple[int, int, float], EvaluationThread]] = (
    weakref.WeakKeyDictionary()
)
OUTCOMES = ("evaluated", "failed", "lost")
"""How a submitted request ends; until then it is pending."""


class _Kept:
    """A job's trace builder that keeps what it built: the worker hands back only the
    result, and the exporters want the trace beside it."""

    def __init__(self, build: Callable[[], Trace]) -> None:
        self.build = build
        self.trace: Trace | None = None

    def __call__(self) -> Trace:
        self.trace = self.build()
        return self.trace


def _outcome(result: Result) -> str:
    if isinstance(result, EvaluationLost):
        return "lost"
    return "failed" if isinstance(result, Exception) else "evaluated"


def _shared_worker(
    owner: object,
    evaluate: Callable[[Sequence[Trace]], Sequence[Evaluation | Exception]],
    config: Config,
) -> EvaluationThread:
    """The worker for ``owner``'s models (a Guard or an evaluation process) and ``config``'s
    queue settings: one thread per process however many Monitors use them."""
    live = config.live
    key = (live.queue_size, config.batch_size, live.exit_flush_timeout_s)
    with _SHARED_LOCK:
        workers = _WORKERS.setdefault(owner, {})
        if key not in workers:
            workers[key] = EvaluationThread(
                evaluate,
                queue_size=live.queue_size,
                batch_size=config.batch_size,
                exit_timeout_s=live.exit_flush_timeout_s,
            )
        return workers[key]


def _configure(config: ConfigLike, options: dict[str, Any]) -> Config:
    """``config`` with ``options`` (LiveConfig fields, validated) applied."""
    base = Config.coerce(config)
    if not options:
        return base
    live = validate_config(LiveConfig, {**base.live.model_dump(), **options}, "keyword argument")
    return base.model_copy(update={"live": live})


def _warm_up(load: Callable[[], object]) -> None:
    """Load the models off the caller's thread; a failure is logged here and reported again
    by every evaluation that needs them."""
    try:
        load()
    except Exception:
        logger.exception("ragguard: loading the models failed")


class Monitor:
    """Decides which requests are evaluated, evaluates them in the background or before the
    answer returns (guard), and applies the guard's action. Thread-safe; ``Monitor.shared``
    gives one per configuration, and all of them share the worker of their models.

    ``options`` are LiveConfig fields applied over ``config``:
    ``Monitor(mode="guard", action="raise")``. Every evaluation goes to the exporters that
    ``config.exporters`` turns on, then to ``exporters``.
    """

    def __init__(
        self,
        config: ConfigLike = None,
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
        self.process: EvaluationChild | None = None
        if guard is None and self.live.worker == "process":
            # scores the reranker cached here go to the child with each batch
            relevance = self.guard.models.relevance_scorer
            cached = relevance if isinstance(relevance, CachedRelevanceScorer) else None
            self.process = shared_child(models, cached)
            self.worker = _shared_worker(self.process, self.process, self.config)
            load: Callable[[], object] = self.process.warmup  # it loads before its first batch
        else:
            self.worker = _shared_worker(self.guard, self.guard.evaluate_batch, self.config)
            load = self.guard.warmup  # holds the Guard, so the worker's first batch waits
        if self.live.warmup:
            threading.Thread(
                target=_warm_up, args=(load,), name="ragguard-warmup", daemon=True
            ).start()
        self._counts: Counter[str] = Counter()
        self._deliveries: dict[int, ExporterDelivery] = {}
        self._lock = threading.RLock()  # a SIGTERM handler may count on an interrupted thread
        _register_hooks()
        with _SHARED_LOCK:
            _ALL.add(self)
        register_stats_source(self)
        if self.live.flush_on_sigterm:
            _install_sigterm_flush()

    def _after_fork(self) -> None:
        """In a forked copy: the requests pending at the fork stay with the original (its
        worker delivers them), so they are not pending here."""
        self._lock = threading.RLock()
        pending = self.stats.pending
        self._counts["submitted"] -= pending

    @classmethod
    def shared(
        cls,
        config: ConfigLike = None,
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
        """This Monitor's requests (the shared worker's other users aside): ``pending`` are
        submitted and not yet delivered, evaluated, failed or lost."""
        with self._lock:
            counts = dict(self._counts)
        ended = sum(counts.get(name, 0) for name in OUTCOMES)
        return LiveStats(pending=counts.get("submitted", 0) - ended, **counts)

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
        if self._in_background():
            self._submit(kept, on_evaluation)
            self._failed_open(annotate)
            return None
        try:
            result = self._submit_waiting(kept).result(self.live.guard_timeout_s)
        except TimeoutError:
            result = None
        return self._apply_guard(kept, result, on_evaluation, annotate, can_raise)

    async def ahandle(
        self,
        build: Callable[[], Trace],
        *,
        on_evaluation: OnEvaluation | None = None,
        annotate: Annotate | None = None,
    ) -> UnsupportedAnswerError | None:
        """``handle`` for async callers: guard mode waits without blocking the event loop."""
        kept = _Kept(build)
        if self._in_background():
            self._submit(kept, on_evaluation)
            self._failed_open(annotate)
            return None
        future = asyncio.wrap_future(self._submit_waiting(kept))
        try:
            result = await asyncio.wait_for(future, self.live.guard_timeout_s)
        except TimeoutError:
            result = None
        return self._apply_guard(kept, result, on_evaluation, annotate, can_raise=True)

    def _in_background(self) -> bool:
        """Background mode; or guard mode while the evaluation process is down (counted):
        the answer goes through at once, and the request is still evaluated later."""
        if self.live.mode == "background":
            return True
        if self.process is not None and self.process.down:
            self.count("guard_failed_open")
            return True
        return False

    def _submit(self, kept: _Kept, on_evaluation: OnEvaluation | None) -> None:
        """Queue a background request; counted as submitted before the worker can end it,
        and as dropped instead when the queue is full."""
        self.count("submitted")

        def done(result: Result) -> None:
            try:
                self._delivered(kept, result, on_evaluation)
            finally:
                self.count(_outcome(result))

        if not self.worker.submit(kept, done):
            with self._lock:
                self._counts["submitted"] -= 1
                self._counts["dropped"] += 1

    def _submit_waiting(self, kept: _Kept) -> Future[Result]:
        self.count("submitted")
        future = self.worker.submit_waiting(kept)
        future.add_done_callback(lambda ended: self.count(_outcome(ended.result())))
        return future

    def failures(self, evaluation: Evaluation) -> list[str]:
        """Why an answer fails the configured minimums (empty: it passes)."""
        return below_minimums(self.live, evaluation)

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
            batch = [Finished(trace, result)]
            self._each_exporter(lambda delivery: delivery.export(batch))
        if on_evaluation is not None:
            try:
                on_evaluation(result)
            except Exception:
                self.count("callback_errors")
                logger.exception("ragguard: on_evaluation raised")
        return reasons

    def _each_exporter(self, call: Callable[[ExporterDelivery], object]) -> None:
        """``call`` on every exporter under the delivery policy (``exporters.delivery``): a
        failure is counted (``export_errors``), never raised, and logged the first time."""
        for exporter in self.exporters:
            with self._lock:
                delivery = self._deliveries.get(id(exporter))
                if delivery is None or delivery.exporter is not exporter:
                    delivery = ExporterDelivery(
                        exporter,
                        FailurePolicy(lambda: self.count("export_errors"), _COUNTED_HINT),
                    )
                    self._deliveries[id(exporter)] = delivery
            call(delivery)

    def shutdown(self, timeout: float | None = None) -> bool:
        """Wait for pending evaluations (``timeout`` seconds at most), then let every
        exporter send what it holds; True when nothing was left pending. Runs at exit."""
        done = self.worker.flush(timeout)
        self._each_exporter(ExporterDelivery.shutdown)
        return done

    def _failed_open(self, annotate: Annotate | None) -> None:
        """Guard mode with the evaluation process down: the answer went through unjudged."""
        if self.live.mode == "guard":
            error = "the evaluation process is down; evaluated later in the background"
            self._attach(annotate, GuardResult(status="failed", error=error))

    def _attach(self, annotate: Annotate | None, result: GuardResult) -> None:
        """Annotate the answer (``action="annotate"``) with what the guard found, whatever it
        was: an error here is counted, never raised."""
        if annotate is None or self.live.action != "annotate":
            return
        try:
            annotate(result)
        except Exception:
            self.count("capture_errors")
            logger.exception("ragguard: cannot attach the evaluation to the result")

    def _apply_guard(
        self,
        kept: _Kept,
        result: Result | None,
        on_evaluation: OnEvaluation | None,
        annotate: Annotate | None,
        can_raise: bool,
    ) -> UnsupportedAnswerError | None:
        """Guard mode: deliver the evaluation, annotate the answer, and decide whether it
        is refused (the refusal, for the front end to raise) or goes through."""
        if result is None:
            self.count("guard_timeouts")
            logger.warning("ragguard: guard evaluation timed out; the answer went through")
            timeout = self.live.guard_timeout_s
            self._attach(annotate, GuardResult(status="timed_out", error=f"over {timeout} s"))
            return None
        reasons = self._delivered(kept, result, on_evaluation)
        if isinstance(result, Exception):  # fail open: the worker logged and counted it
            error = f"{type(result).__name__}: {result}"
            self._attach(annotate, GuardResult(status="failed", error=error))
            return None
        done = GuardResult(status="evaluated", evaluation=result, reasons=tuple(reasons))
        self._attach(annotate, done)
        if not reasons:
            return None
        if self.live.action == "raise" and can_raise:
            return UnsupportedAnswerError(result, reasons)
        logger.warning("ragguard: unsupported answer in trace %s: %s", result.trace_id, reasons)
        return None


def _close_for_exit() -> None:
    """Every worker delivers what it can within one exit_flush_timeout_s and gives up (counts
    and reports) the rest; only then do the exporters shut down, so the trace log stays open
    until the last delivery. Registered after the worker's own exit close, so it runs first
    (atexit is last in, first out)."""
    close_all(exit_timeout())
    with _SHARED_LOCK:
        monitors = [m for m in _ALL if m.exporters]
    for monitor in monitors:
        monitor._each_exporter(ExporterDelivery.shutdown)


_previous_sigterm: Callable[[int, FrameType | None], Any] | int | None = None


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM: with an application handler before ours, deliver what is pending (within
    the exit timeout, exporters left open) and hand over to it; without one, close as at
    exit, then die of SIGTERM as the process would have."""
    previous = _previous_sigterm
    if callable(previous):
        flush(exit_timeout())
        previous(signum, frame)
        return
    _close_for_exit()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _install_sigterm_flush() -> None:
    """Once per process, from the main thread (the only one Python lets set a handler); not
    over an ignored SIGTERM or a handler set outside Python, which cannot be chained."""
    global _previous_sigterm
    if threading.current_thread() is not threading.main_thread():
        return
    with _SHARED_LOCK:
        previous = signal.getsignal(signal.SIGTERM)
        if previous in (_on_sigterm, signal.SIG_IGN, None):
            return
        _previous_sigterm = previous
        signal.signal(signal.SIGTERM, _on_sigterm)


def _after_fork() -> None:
    global _SHARED_LOCK
    _SHARED_LOCK = threading.RLock()
    for monitor in list(_ALL):
        monitor._after_fork()


def _register_hooks() -> None:
    """At the first Monitor. The workers' hooks go first, so that this exit hook, registered
    after them, runs before theirs (atexit is last in, first out)."""
    worker.register_hooks()
    register_once("ragguard.live.monitor", at_exit=_close_for_exit, after_fork=_after_fork)
