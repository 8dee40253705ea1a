"""Background evaluation in a low-priority child process.

A worker thread in the application's process would compete with the application's own
threads for the GIL (the evaluator's feature code is Python) and for the CPU: measured on a
2-core machine, that more than doubled a LangChain request's latency while it worked.
A child process has its own GIL, and at a higher niceness the OS serves the application's
requests first. The parent's worker thread ships each batch over a pipe and waits.

The child is a fresh ``python -c`` that calls ``serve``, so nothing of the application's
``__main__`` runs again in it (multiprocessing's spawn would re-import it). One child
serves every Monitor with the same scoring configuration.
"""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
import threading
import weakref
from collections.abc import Sequence
from typing import IO, Any

from ragguard.config import Config
from ragguard.errors import RagguardError
from ragguard.guard import Guard
from ragguard.live.models import with_score_cache
from ragguard.schema import Evaluation, Trace
from ragguard.scoring.cache import CachedRelevanceScorer
from ragguard.scoring.evidence import TEXT_SURROGATES, item_evidence

logger = logging.getLogger(__name__)
_PROCESSES: weakref.WeakSet[EvaluatorProcess] = weakref.WeakSet()


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


_CHILD = "import sys; from ragguard.live.process import serve; serve(sys.argv[1], int(sys.argv[2]))"


class EvaluatorProcess:
    """``evaluate_batch`` run by a child process, started on the first batch and again
    after it dies. ``scores``: relevance already computed here (by the reranker), sent with
    each batch so the child does not compute it again. Use ``shared`` to get one."""

    def __init__(self, config: Config, *, scores: CachedRelevanceScorer | None = None) -> None:
        self.config = config
        self.scores = scores
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # one batch in flight per pipe
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
        """The child's process id (None before the first batch)."""
        return None if self._process is None else self._process.pid

    def __call__(self, traces: Sequence[Trace]) -> list[Evaluation | Exception]:
        request = ([_slim(t) for t in traces], self._known(traces))
        with self._lock:
            process = self._process or self._start()
            try:
                requests, replies = process.stdin, process.stdout
                if requests is None or replies is None:
                    raise OSError("no pipe to the evaluation process")
                pickle.dump(request, requests, protocol=pickle.HIGHEST_PROTOCOL)
                requests.flush()
                answer = pickle.load(replies)
            except (OSError, EOFError, pickle.UnpicklingError) as error:
                process.kill()
                process.wait()
                self._process = None
                raise RagguardError(f"the evaluation process stopped: {error!r}") from error
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


def serve(config_json: str, nice: int) -> None:
    """The child's main: its pipe to the parent is the real stdout, and anything a library
    prints goes to stderr instead."""
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    _serve(config_json, sys.stdin.buffer, replies)


def _serve(config_json: str, requests: IO[bytes], replies: IO[bytes]) -> None:
    """The child's loop: a batch of traces (and known RS scores) in, outcomes out, until
    the parent closes the pipe."""
    guard = with_score_cache(Guard(Config.model_validate_json(config_json)))
    cache = guard.evaluator.relevance_scorer
    assert isinstance(cache, CachedRelevanceScorer)  # what with_score_cache installs
    try:
        guard.warmup()
    except Exception:  # each batch will report it, as it would have without a warm-up
        logger.exception("ragguard: loading the models failed")
    while True:
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
        answer = [_portable(o) for o in outcomes]
        pickle.dump(answer, replies, protocol=pickle.HIGHEST_PROTOCOL)
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
_SHARED: dict[str, EvaluatorProcess] = {}


def shared_process(config: Config, scores: CachedRelevanceScorer | None) -> EvaluatorProcess:
    """The child for ``config``'s models and niceness (live options aside), one per
    process however many Monitors use it."""
    key = config.model_dump_json(exclude={"live"}) + str(config.live.worker_nice)
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = EvaluatorProcess(config, scores=scores)
        return _SHARED[key]


def _after_fork() -> None:
    for process in list(_PROCESSES):
        process._after_fork()


os.register_at_fork(after_in_child=_after_fork)
