"""Background evaluation: a bounded queue drained in batches by one daemon thread.

The request path only appends to a deque under a lock: it never evaluates and never waits.
When the queue is full a new request is dropped and counted, so a slow evaluator can cost
coverage but never latency. The thread takes everything queued (up to a batch) at once, so
requests that arrive while a batch runs are evaluated together: few model calls for many.

At exit (``close_all``) every worker gets one shared deadline to deliver what it holds;
what is still pending then is given up: each job ends with ``EvaluationLost``, is counted
(``lost``) and reported, and nothing is delivered afterwards, so the exporters can close.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import KW_ONLY, dataclass

from ragguard.errors import EvaluationLost
from ragguard.runtime import register_once
from ragguard.schema import Evaluation, Trace

logger = logging.getLogger(__name__)

Result = Evaluation | Exception
"""What a job ends with: its Evaluation, or why it has none (bad trace, evaluator error)."""


DELIVERY_GRACE_S = 1.0
"""At close, a delivery already under way at the deadline gets this much longer (exporting
one record takes milliseconds), so the exporters never shut down under it."""

BATCH_GRACE_S = 30.0
"""At close, a batch already in the models at the deadline gets at most this much longer
to end (its outcomes are not delivered): a process that exits while a daemon thread is
inside ONNX Runtime aborts ("terminate called without an active exception")."""


@dataclass(eq=False)
class _Job:
    build: Callable[[], Trace]
    done: Callable[[Result], object]
    finished: bool = False
    """Its outcome is decided (being delivered, delivered or lost): it ends exactly once."""


@dataclass(frozen=True)
class ThreadStats:
    submitted: int
    dropped: int
    """Requests turned away because the queue was full (or the worker closed at exit)."""
    evaluated: int
    failed: int
    """Requests whose trace could not be built or evaluated (logged)."""
    pending: int
    """Queued, in evaluation, or being delivered (a job leaves once its callback returns)."""
    lost: int = 0
    """Requests still pending when the worker closed at exit (logged)."""


@dataclass(eq=False)
class EvaluationThread:
    """One evaluation thread behind a bounded queue; started on the first job."""

    evaluate_batch: Callable[[Sequence[Trace]], Sequence[Evaluation | Exception]]
    _: KW_ONLY
    queue_size: int = 1000
    batch_size: int = 64
    exit_timeout_s: float = 10.0
    """How long pending evaluations may hold up interpreter exit."""

    def __post_init__(self) -> None:
        self._submitted = self._dropped = self._evaluated = self._failed = self._lost = 0
        self._restart()
        register_hooks()
        _WORKERS.add(self)

    def _restart(self) -> None:
        """An empty queue and no thread yet: at creation, and in a forked child (a pre-fork
        server's worker), which inherits neither the thread nor a usable lock. The lock is
        reentrant because a SIGTERM handler may flush on a thread interrupted inside it."""
        self._jobs: deque[_Job] = deque()
        self._taken: list[_Job] = []  # out of the queue, not yet delivered
        self._delivering = 0
        self._evaluating = False
        self._closed = False
        self._changed = threading.Condition(threading.RLock())
        self._thread: threading.Thread | None = None

    def submit(self, build: Callable[[], Trace], done: Callable[[Result], object]) -> bool:
        """Queue a request without blocking; False (and counted) when the queue is full.
        ``build`` runs on the worker thread, so even assembling the trace leaves the request."""
        with self._changed:
            if self._closed or len(self._jobs) >= self.queue_size:
                self._dropped += 1
                return False
            self._enqueue(_Job(build, done))
        return True

    def submit_waiting(self, build: Callable[[], Trace]) -> Future[Result]:
        """Queue a request someone waits on (guard mode). Never dropped: each waiting caller
        holds one slot, so these are bounded by the callers' own concurrency (after the
        worker closed at exit, it ends at once with ``EvaluationLost``)."""
        future: Future[Result] = Future()
        with self._changed:
            if not self._closed:
                self._enqueue(_Job(build, future.set_result))
                return future
        future.set_result(EvaluationLost("ragguard is shutting down"))
        return future

    def _enqueue(self, job: _Job) -> None:
        self._jobs.append(job)
        self._submitted += 1
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="ragguard-worker", daemon=True)
            self._thread.start()
        self._changed.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued request is evaluated; False if ``timeout`` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            return self._wait(lambda: not (self._jobs or self._taken), deadline)

    def _wait(self, done: Callable[[], bool], deadline: float | None) -> bool:
        """Under the lock: wait until ``done()``; False if ``deadline`` passed first."""
        while not done():
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return False
            self._changed.wait(remaining)
        return True

    def close(self, deadline: float) -> int:
        """Deliver what can be delivered by ``deadline`` (a ``time.monotonic`` value), then
        give up the rest: each remaining job ends with ``EvaluationLost`` and nothing is
        delivered afterwards. Waits for deliveries already under way (``DELIVERY_GRACE_S``
        past the deadline at most), so an exporter shut down next gets no late record.
        Returns how many were lost."""
        with self._changed:
            self._wait(lambda: not (self._jobs or self._taken), deadline)
            self._closed = True
            left = [*self._jobs, *(job for job in self._taken if not job.finished)]
            self._jobs.clear()
            for job in left:
                job.finished = True
                if job in self._taken:
                    self._taken.remove(job)
            self._lost += len(left)
            self._changed.notify_all()
        lost = EvaluationLost("still pending when the exit flush timeout ran out")
        for job in left:
            self._deliver(job, lost)
        with self._changed:
            self._wait(lambda: not self._delivering, deadline + DELIVERY_GRACE_S)
            self._wait(lambda: not self._evaluating, deadline + BATCH_GRACE_S)
        return len(left)

    @property
    def stats(self) -> ThreadStats:
        with self._changed:
            return ThreadStats(
                submitted=self._submitted,
                dropped=self._dropped,
                evaluated=self._evaluated,
                failed=self._failed,
                pending=len(self._jobs) + len(self._taken),
                lost=self._lost,
            )

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._jobs:
                    self._changed.wait()
                batch = [self._jobs.popleft() for _ in range(min(len(self._jobs), self.batch_size))]
                self._taken.extend(batch)
                self._evaluating = True
            try:
                self._evaluate(batch)
            finally:
                del batch  # its traces are let go now, not when the next batch comes
                with self._changed:
                    self._evaluating = False
                    self._changed.notify_all()

    def _evaluate(self, batch: list[_Job]) -> None:
        traces: list[Trace] = []
        ready: list[_Job] = []
        for job in batch:
            try:
                traces.append(job.build())
                ready.append(job)
            except Exception as error:
                logger.warning("ragguard: cannot build a trace: %s", error)
                self._finish(job, error)
        if not traces:
            return
        try:
            outcomes = self.evaluate_batch(traces)
        except Exception as error:
            logger.exception("ragguard: evaluating a batch of %d traces failed", len(ready))
            for job in ready:
                self._finish(job, error)
            return
        for job, outcome in zip(ready, outcomes, strict=True):
            if isinstance(outcome, Exception):
                logger.warning("ragguard: cannot evaluate a trace: %s", outcome)
            self._finish(job, outcome)

    def _finish(self, job: _Job, result: Result) -> None:
        """Count and deliver one outcome, unless the job was given up at exit meanwhile."""
        with self._changed:
            if job.finished:
                return
            job.finished = True
            if isinstance(result, Exception):
                self._failed += 1
            else:
                self._evaluated += 1
        self._deliver(job, result)

    def _deliver(self, job: _Job, result: Result) -> None:
        """Run the job's callback; the job stops counting as pending once it returns."""
        with self._changed:
            self._delivering += 1
        try:
            job.done(result)
        except Exception:
            logger.exception("ragguard: a callback for a finished evaluation raised")
        finally:
            with self._changed:
                self._delivering -= 1
                if job in self._taken:
                    self._taken.remove(job)
                self._changed.notify_all()


_WORKERS: weakref.WeakSet[EvaluationThread] = weakref.WeakSet()


def flush(timeout: float | None = None) -> bool:
    """Wait for every pending background evaluation, in all workers, within one ``timeout``
    (seconds; None waits for as long as it takes). True when nothing is left pending."""
    deadline = None if timeout is None else time.monotonic() + timeout
    done = True
    for worker in list(_WORKERS):
        remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        done = worker.flush(remaining) and done
    return done


def exit_timeout() -> float:
    """The longest ``exit_timeout_s`` of the workers with something pending (0: none)."""
    return max((w.exit_timeout_s for w in list(_WORKERS) if w.stats.pending), default=0.0)


def close_all(timeout: float) -> int:
    """Close every worker within one ``timeout`` (not one per worker) and report what was
    given up; returns how many evaluations were lost. Safe to call more than once."""
    deadline = time.monotonic() + timeout
    lost = sum(worker.close(deadline) for worker in list(_WORKERS))
    if lost:
        logger.warning(
            "ragguard: %d background evaluations still pending after %.1f s at exit were lost",
            lost,
            timeout,
        )
    return lost


def _close_at_exit() -> None:
    close_all(exit_timeout())


def _after_fork() -> None:
    for worker in list(_WORKERS):
        worker._restart()


def register_hooks() -> None:
    """At the first EvaluationThread: close the workers at exit, restart them in a forked child."""
    register_once("ragguard.live.thread", at_exit=_close_at_exit, after_fork=_after_fork)
