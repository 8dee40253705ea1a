"""Background evaluation in a low-priority child process.

A worker thread in the application's process would compete with the application's own
threads for the GIL (the evaluator's feature code is Python) and for the CPU: measured on a
2-core machine, that more than doubled a LangChain request's latency while it worked.
A child process has its own GIL, and at a higher niceness the OS serves the application's
requests first. The parent's worker thread ships each batch over a pipe and waits.

The child is a fresh ``python -c`` that calls ``serve``, so nothing of the application's
``__main__`` runs again in it (multiprocessing's spawn would re-import it). One child
serves every Monitor with the same scoring configuration.

Neither side can hang the other. The parent waits for a reply with a watchdog: the child
makes progress while it uses CPU time (read from ``/proc``) or sends bytes, and with
neither for ``worker_stall_timeout_s`` (stopped, deadlocked) it is killed and counted in
``worker_restarts``. A child that keeps using CPU without answering (a spinning deadlock)
is killed the same way once its batch passes a deadline sized from the batch
(``worker_seconds_per_trace``). The child polls its parent's id and exits within ``PARENT_POLL_S``
of being reparented, even mid-batch, so a SIGKILLed application leaves no evaluator behind.
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from ragguard.config import Config
from ragguard.errors import RagguardError
from ragguard.evaluation import Guard
from ragguard.live.shared import with_score_cache
from ragguard.runtime import PeriodicRelease, available_cores, record_process_event, register_once
from ragguard.schema import Evaluation, Trace
from ragguard.scoring.interface import TEXT_SURROGATES, item_evidence
from ragguard.scoring.wiring import CachedRelevanceScorer

logger = logging.getLogger(__name__)
_PROCESSES: weakref.WeakSet[EvaluationChild] = weakref.WeakSet()


def _slim(trace: Trace) -> Trace:
    """The trace as the evaluator reads it: item metadata cut to its text surrogates, so
    arbitrary objects in a framework's metadata never have to pickle."""
    items = [
        item.model_copy(
            update={
                "metadata": {
                    k: v
                    for k, v in item.metadata.items()
                    if k in TEXT_SURROGATES and isinstance(v, str)
                }
            }
        )
        for item in trace.items
    ]
    return trace.model_copy(update={"items": items})


_CHILD = "import sys; from ragguard.live.child import serve; serve(*sys.argv[1:])"

PARENT_POLL_S = 0.5
"""How often the child checks that its parent is alive."""
_HEADER = 8
"""A reply is its pickle's length (8 bytes, big-endian), then the pickle."""


class _Stalled(Exception):
    """The child made no progress for worker_stall_timeout_s."""


def _cpu_ticks(pid: int) -> int | None:
    """A process's CPU time so far (user + system, clock ticks) from ``/proc``; None where
    there is none (then only bytes from the child count as its progress)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


JUDGE_CALLS_ASSUMED = 10
"""Judge calls a trace is allowed for in its batch's deadline when ``max_calls_per_trace``
is unset."""


def batch_limits(config: Config, traces: int) -> tuple[float, float]:
    """The watchdog's stall limit and the batch's deadline, in seconds. With the judge on,
    both make room for it: the child waits on a remote judge using no CPU (so the stall
    limit covers one call with its retries), and each trace may ask up to
    ``max_calls_per_trace`` questions one after another, each up to its deadline; a judge
    that is slow must cost its spans their judge verdicts (``timeout``), never the batch its
    lite ones."""
    live, judge = config.live, config.judge
    stall_s, per_trace_s = live.worker_stall_timeout_s, live.worker_seconds_per_trace
    if judge.backend != "none":
        per_call = judge.timeout_s * (judge.retries + 1) + judge.backoff_s * 3 * 2**judge.retries
        calls = (
            JUDGE_CALLS_ASSUMED if judge.max_calls_per_trace is None else judge.max_calls_per_trace
        )
        stall_s = max(stall_s, per_call + 5.0)
        per_trace_s += per_call * calls
    return stall_s, stall_s + per_trace_s * traces


class _Watchdog:
    """Sends a batch to the child and reads its reply while watching it for progress (a
    stopped child reads nothing either: a batch larger than the pipe would block too)."""

    def __init__(
        self, process: subprocess.Popen[bytes], stall_s: float, deadline_s: float = float("inf")
    ) -> None:
        if process.stdin is None or process.stdout is None:
            raise OSError("no pipe to the evaluation process")
        self.requests = process.stdin.fileno()
        self.replies = process.stdout.fileno()
        os.set_blocking(self.requests, False)
        self.pid = process.pid
        self.stall_s = stall_s
        self.cpu = _cpu_ticks(self.pid)
        self.progress = time.monotonic()
        self.deadline_s = deadline_s
        self.deadline = self.progress + deadline_s

    def _ready(self, fd: int, *, write: bool) -> bool:
        """Whether ``fd`` is ready within a poll; raises ``_Stalled`` once the child has
        neither moved its pipes nor used CPU for ``stall_s``."""
        poll = min(1.0, self.stall_s / 4)
        ready = (
            select.select([], [fd], [], poll)[1] if write else select.select([fd], [], [], poll)[0]
        )
        now = time.monotonic()
        if now > self.deadline:
            raise _Stalled(f"no reply within the batch's deadline of {self.deadline_s:g} s: killed")
        if ready:
            self.progress = now
            return True
        cpu = _cpu_ticks(self.pid)
        if cpu != self.cpu:
            self.cpu, self.progress = cpu, time.monotonic()
        elif time.monotonic() - self.progress > self.stall_s:
            raise _Stalled(f"no progress for {self.stall_s:g} s: killed")
        return False

    def send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            if self._ready(self.requests, write=True):
                try:
                    view = view[os.write(self.requests, view) :]
                except BlockingIOError:
                    continue

    def read(self, size: int) -> bytes:
        chunks = []
        while size:
            if self._ready(self.replies, write=False):
                chunk = os.read(self.replies, min(size, 1 << 20))
                if not chunk:
                    raise EOFError("the evaluation process closed its pipe")
                chunks.append(chunk)
                size -= len(chunk)
        return b"".join(chunks)

    def reply(self) -> Any:
        return pickle.loads(self.read(int.from_bytes(self.read(_HEADER), "big")))


class EvaluationChild:
    """``evaluate_batch`` run by a child process, started on the first batch and again
    after it dies. ``scores``: relevance already computed here (by the reranker), sent with
    each batch so the child does not compute it again. Use ``shared`` to get one."""

    def __init__(self, config: Config, *, scores: CachedRelevanceScorer | None = None) -> None:
        self.config = config
        self.scores = scores
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # one batch in flight per pipe
        self.down = False
        """True from a child's death (or the watchdog killing it) until a new one answers."""
        register_once("ragguard.live.child", after_fork=_after_fork)
        _PROCESSES.add(self)

    def _after_fork(self) -> None:
        """In a forked copy of this process (a pre-fork server's worker): close its copies
        of the pipes, so the original's child still sees its parent go, and start a child
        of its own on the next batch."""
        if self._process is not None:
            for pipe in (self._process.stdin, self._process.stdout):
                if pipe is not None:
                    pipe.close()
        self._process = None
        self._lock = threading.Lock()

    def warmup(self) -> None:
        """Start the child now rather than on the first batch; it loads its models before it
        reads one."""
        with self._lock:
            if self._process is None:
                self._start()

    @property
    def pid(self) -> int | None:
        """The child's process id (None until it starts: at warm-up or the first batch)."""
        return None if self._process is None else self._process.pid

    def __call__(self, traces: Sequence[Trace]) -> list[Evaluation | Exception]:
        request = ([_slim(t) for t in traces], self._known(traces))
        with self._lock:
            process = self._process or self._start()
            try:
                stall_s, deadline_s = batch_limits(self.config, len(traces))
                watchdog = _Watchdog(process, stall_s, deadline_s)
                watchdog.send(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))
                answer = watchdog.reply()
            except (OSError, EOFError, pickle.UnpicklingError, _Stalled) as error:
                process.kill()
                process.wait()
                self._process = None
                self.down = True
                record_process_event("worker_restarts")
                raise RagguardError(f"the evaluation process stopped: {error}") from error
        self.down = False
        return list(answer)

    def _start(self) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _CHILD,
                self.config.model_dump_json(),
                str(self.config.live.worker_nice),
                str(os.getpid()),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        return self._process

    def _known(self, traces: Sequence[Trace]) -> dict[bytes, float]:
        if self.scores is None:
            return {}
        queries, evidence = [], []
        for trace in traces:
            for item in trace.items:
                found = item_evidence(item)
                if found is not None:
                    queries.append(trace.query)
                    evidence.append(found)
        return self.scores.known(queries, evidence)


def serve(config_json: str, nice: str, parent: str) -> None:
    """The child's main: its pipe to the parent is the real stdout, and anything a library
    prints goes to stderr instead."""
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    if int(nice) and hasattr(os, "nice"):
        os.nice(int(nice))
    watch = threading.Thread(target=_exit_with_parent, args=(int(parent),), daemon=True)
    watch.start()
    _serve(config_json, sys.stdin.buffer, replies)


def _exit_with_parent(parent: int) -> None:
    """Exit as soon as the parent is gone (this process reparented), even mid-batch: the
    pipe's end of file is only seen between batches, and nobody will read this reply."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(0)


def _serve(config_json: str, requests: IO[bytes], replies: IO[bytes]) -> None:
    """The child's loop: a batch of traces (and known RS scores) in, outcomes out, until
    the parent closes the pipe. It leaves one core to the application, whose requests
    slow down far less that way (the measurement: ``docs/history/measurements.md``)."""
    config = Config.model_validate_json(config_json)
    guard = with_score_cache(Guard(config.with_thread_share(max(1, available_cores() - 1))))
    cache = guard.models.relevance_scorer
    assert isinstance(cache, CachedRelevanceScorer)  # what with_score_cache installs
    try:
        guard.warmup()
    except Exception:  # each batch will report it, as it would have without a warm-up
        logger.exception("ragguard: loading the models failed")
    release = PeriodicRelease()
    while True:
        release()
        try:
            traces, known = pickle.load(requests)
        except EOFError:
            return
        cache.seed(known)
        try:
            outcomes: Sequence[Any] = guard.evaluator.evaluate_batch(traces)
        except Exception as error:
            logger.exception("ragguard: evaluating a batch failed")
            outcomes = [error] * len(traces)
        answer = pickle.dumps([_portable(o) for o in outcomes], protocol=pickle.HIGHEST_PROTOCOL)
        replies.write(len(answer).to_bytes(_HEADER, "big"))
        replies.write(answer)
        replies.flush()


def _portable(outcome: Evaluation | Exception) -> Evaluation | Exception:
    """An outcome that crosses the pipe as it is: ragguard's errors pickle with their fields
    (a TraceValidationError keeps ``.field``); any other error becomes a RagguardError that
    names its type."""
    if isinstance(outcome, Evaluation):
        return outcome
    try:
        pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return RagguardError(f"{type(outcome).__name__}: {outcome}")
    return outcome


_SHARED_LOCK = threading.Lock()
_SHARED: dict[str, EvaluationChild] = {}


def shared_child(config: Config, scores: CachedRelevanceScorer | None) -> EvaluationChild:
    """The child for ``config``'s models, niceness and stall timeout (other live options
    aside), one per process however many Monitors use it."""
    live = config.live.model_dump_json(
        include={"worker_nice", "worker_stall_timeout_s", "worker_seconds_per_trace"}
    )
    key = f"{config.model_dump_json(exclude={'live'})} {live}"
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = EvaluationChild(config, scores=scores)
        return _SHARED[key]


def _after_fork() -> None:
    for process in list(_PROCESSES):
        process._after_fork()
