"""Evaluation on several cores of one machine: worker processes, each with its own models.

One process uses the cores only in the model's matrix products (ONNX Runtime or torch);
span analysis, features and the rest are Python under one GIL. ``--workers N`` runs N
processes, each loading the models once (about 23 MB of weights each for the lite tier) and
running them on its share of the cores, and hands them whole batches; results come back in
input order, so the output file, the summary and resumption are those of one process.

A batch goes to a worker pickled. The size limits are checked here first (a trace with
metadata nested hundreds deep may not even pickle); should a batch still fail to travel or
to come back, its traces are sent one at a time, and a trace that cannot travel alone is
reported as that line's error: one bad line never stops the pool.

A replay's recorded judge scores (``remember``) go with the batch that holds their trace, so
the worker that evaluates it reuses them rather than asking the judge again.
"""

from __future__ import annotations

import collections
import concurrent.futures
import itertools
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Protocol

from ragguard.config import Config
from ragguard.errors import RagguardError, TraceValidationError
from ragguard.evaluation import Guard, Outcome, TraceLike, check_limits
from ragguard.judge import per_worker
from ragguard.runtime import available_cores
from ragguard.schema import JudgeVerdict, Trace

if TYPE_CHECKING:
    import multiprocessing.synchronize

Entry = TraceLike | RagguardError
Recorded = tuple[str, Mapping[int, JudgeVerdict]]
"""A trace id and the judge scores its logged evaluation recorded, by span index."""
Batch = concurrent.futures.Future[list[Outcome]]
LOAD_TIMEOUT_S = 600.0


class Runner(Protocol):
    """What the CLI evaluates with: a Guard in this process, or a WorkerPool."""

    def load(self) -> float:
        """Load the models everywhere; the seconds it took."""
        ...

    def evaluate_stream(
        self, entries: Iterable[Entry], /, *, batch_size: int | None = None
    ) -> Iterator[Outcome]:
        """One outcome per entry, in input order."""
        ...


_guard: Guard | None = None


def _start_worker(config: Config, threads: int, ready: multiprocessing.synchronize.Barrier) -> None:
    """Pool worker initializer: its share of the cores for the models, its models, then wait
    for the others, so the first finished task means every worker has loaded."""
    global _guard
    os.environ["OMP_NUM_THREADS"] = str(threads)  # torch backends, imported after this
    _guard = Guard(config.with_thread_share(threads))
    _guard.load()
    ready.wait(LOAD_TIMEOUT_S)


def _ping() -> int:
    return os.getpid()


def _evaluate(batch: list[Entry], recorded: Sequence[Recorded] = ()) -> list[Outcome]:
    assert _guard is not None
    judge = _guard.models.judge
    for trace_id, scores in recorded:
        if judge is not None:
            judge.remember(trace_id, scores)
    return list(_guard.evaluate_stream(batch, batch_size=len(batch)))


class WorkerPool:
    """``workers`` spawned processes; at most two batches per worker in flight."""

    def __init__(self, config: Config, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"--workers must be at least 1, not {workers}")
        config = config.model_copy(update={"judge": per_worker(config.judge, workers)})
        self.config = config
        self.workers = workers
        context = multiprocessing.get_context("spawn")  # fork after thread pools is unsafe
        threads = max(1, available_cores() // workers)
        self._ready = context.Barrier(workers)
        self._recorded: list[Recorded] = []
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(config, threads, self._ready),
        )

    def load(self) -> float:
        started = time.perf_counter()
        pings = [self._pool.submit(_ping) for _ in range(self.workers)]
        concurrent.futures.wait(pings, timeout=LOAD_TIMEOUT_S)
        for ping in pings:
            ping.result(timeout=0)  # a worker that failed to load raises here
        return time.perf_counter() - started

    def evaluate_stream(
        self, entries: Iterable[Entry], *, batch_size: int | None = None
    ) -> Iterator[Outcome]:
        size = batch_size or self.config.batch_size
        iterator = map(self._checked, entries)
        pending: collections.deque[tuple[Batch, list[Entry], list[Recorded]]] = collections.deque()
        while batch := list(itertools.islice(iterator, size)):
            recorded, self._recorded = self._recorded, []  # remembered as the batch was read
            pending.append((self._pool.submit(_evaluate, batch, recorded), batch, recorded))
            if len(pending) >= 2 * self.workers:
                yield from self._outcomes(*pending.popleft())
        while pending:
            yield from self._outcomes(*pending.popleft())

    def _checked(self, entry: Entry) -> Entry:
        """A trace past a size limit becomes its error here, before it is pickled."""
        if isinstance(entry, Trace):
            return check_limits(entry, self.config.limits) or entry
        return entry

    def remember(self, trace_id: str, recorded: Mapping[int, JudgeVerdict]) -> None:
        """Judge scores a logged evaluation of ``trace_id`` recorded, sent with the next
        batch (the one that holds that trace) to whichever worker evaluates it."""
        if self.config.judge.backend != "none" and recorded:
            self._recorded.append((trace_id, recorded))

    def _outcomes(
        self, future: Batch, batch: list[Entry], recorded: list[Recorded]
    ) -> list[Outcome]:
        """The batch's outcomes; when it could not travel, each trace sent on its own."""
        try:
            return future.result()
        except BrokenProcessPool:
            raise
        except Exception:
            return [self._alone(entry, recorded) for entry in batch]

    def _alone(self, entry: Entry, recorded: list[Recorded]) -> Outcome:
        try:
            return self._pool.submit(_evaluate, [entry], recorded).result()[0]
        except BrokenProcessPool:
            raise
        except Exception as error:
            trace_id = entry.trace_id if isinstance(entry, Trace) else None
            message = f"cannot be sent to a worker process ({type(error).__name__})"
            return TraceValidationError("<trace>", message, trace_id=trace_id)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._pool.shutdown(cancel_futures=True)


def judge_memory(runner: Runner) -> Callable[[str, Mapping[int, JudgeVerdict]], object] | None:
    """Where a replay hands the judge scores each logged evaluation recorded: the worker
    pool (sent on with the trace's batch) or this process's judge; None without a judge."""
    if isinstance(runner, WorkerPool):
        return runner.remember
    judge = runner.models.judge if isinstance(runner, Guard) else None
    return None if judge is None else judge.remember
