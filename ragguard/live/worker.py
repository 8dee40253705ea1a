"""Background evaluation: a bounded queue drained in batches by one daemon thread.

The request path only appends to a deque under a lock: it never evaluates and never waits.
When the queue is full a new request is dropped and counted, so a slow evaluator can cost
coverage but never latency. The thread takes everything queued (up to a batch) at once, so
requests that arrive while a batch runs are evaluated together: few model calls for many.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import KW_ONLY, dataclass

from ragguard.schema import Evaluation, Trace

logger = logging.getLogger(__name__)

Result = Evaluation | Exception
"""What a job ends with: its Evaluation, or why it has none (bad trace, evaluator error)."""

_Job = tuple[Callable[[], Trace], Callable[[Result], object]]


@dataclass(frozen=True)
class WorkerStats:
    submitted: int
    dropped: int
    """Requests turned away because the queue was full."""
    evaluated: int
    failed: int
    """Requests whose trace could not be built or evaluated (logged)."""
    pending: int


@dataclass(eq=False)
class Worker:
    """One evaluation thread behind a bounded queue; started on the first job."""

    evaluate_batch: Callable[[Sequence[Trace]], Sequence[Evaluation | Exception]]
    _: KW_ONLY
    queue_size: int = 1000
    batch_size: int = 64
    exit_timeout_s: float = 10.0
    """How long pending evaluations may hold up interpreter exit."""

    def __post_init__(self) -> None:
        self._submitted = self._dropped = self._evaluated = self._failed = 0
        self._restart()
        _WORKERS.add(self)

    def _restart(self) -> None:
        """An empty queue and no thread yet: at creation, and in a forked child (a pre-fork
        server's worker), which inherits neither the thread nor a usable lock."""
        self._jobs: deque[_Job] = deque()
        self._running = 0
        self._changed = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None

    def submit(self, build: Callable[[], Trace], done: Callable[[Result], object]) -> bool:
        """Queue a request without blocking; False (and counted) when the queue is full.
        ``build`` runs on the worker thread, so even assembling the trace leaves the request."""
        with self._changed:
            if len(self._jobs) >= self.queue_size:
                self._dropped += 1
                return False
            self._enqueue((build, done))
        return True

    def submit_waiting(self, build: Callable[[], Trace]) -> Future[Result]:
        """Queue a request someone waits on (guard mode). Never dropped: each waiting caller
        holds one slot, so these are bounded by the callers' own concurrency."""
        future: Future[Result] = Future()
        with self._changed:
            self._enqueue((build, future.set_result))
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
            while self._jobs or self._running:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._changed.wait(remaining)
        return True

    @property
    def stats(self) -> WorkerStats:
        with self._changed:
            return WorkerStats(
                submitted=self._submitted,
                dropped=self._dropped,
                evaluated=self._evaluated,
                failed=self._failed,
                pending=len(self._jobs) + self._running,
            )

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._jobs:
                    self._changed.wait()
                batch = [self._jobs.popleft() for _ in range(min(len(self._jobs), self.batch_size))]
                self._running = len(batch)
            try:
                self._evaluate(batch)
            finally:
                with self._changed:
                    self._running = 0
                    self._changed.notify_all()

    def _evaluate(self, batch: list[_Job]) -> None:
        traces: list[Trace] = []
        ready: list[_Job] = []
        for job in batch:
            try:
                traces.append(job[0]())
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
        for job, trace, outcome in zip(ready, traces, outcomes, strict=True):
            if isinstance(outcome, Exception):
                logger.warning("ragguard: cannot evaluate a trace: %s", outcome)
            else:
                # the captured request's own timing (request, retrieval) travels along
                outcome.timing_ms.update(trace.timing_ms or {})
            self._finish(job, outcome)

    def _finish(self, job: _Job, result: Result) -> None:
        failed = isinstance(result, Exception)
        with self._changed:
            if failed:
                self._failed += 1
            else:
                self._evaluated += 1
        try:
            job[1](result)
        except Exception:
            logger.exception("ragguard: a callback for a finished evaluation raised")


_WORKERS: weakref.WeakSet[Worker] = weakref.WeakSet()


def flush(timeout: float | None = None) -> bool:
    """Wait for every pending background evaluation, in all workers, within one ``timeout``
    (seconds; None waits for as long as it takes). True when nothing is left pending."""
    deadline = None if timeout is None else time.monotonic() + timeout
    done = True
    for worker in list(_WORKERS):
        remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        done = worker.flush(remaining) and done
    return done


def _flush_at_exit() -> None:
    workers = [w for w in list(_WORKERS) if w.stats.pending]
    if workers and not flush(max(w.exit_timeout_s for w in workers)):
        logger.warning("ragguard: exiting with background evaluations still pending")


def _after_fork() -> None:
    for worker in list(_WORKERS):
        worker._restart()


atexit.register(_flush_at_exit)
os.register_at_fork(after_in_child=_after_fork)
