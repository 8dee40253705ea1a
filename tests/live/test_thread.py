"""The background worker and the monitor's policy on their own: queue bounds, batching,
failures, flush (also at exit), guard minimums. The evaluator here is a plain function:
what is tested is the queue and the policy, not scoring."""

import logging
import os
import subprocess
import sys
import textwrap
import threading

import pytest

from ragguard import Guard, Monitor
from ragguard.live.thread import EvaluationThread, flush
from ragguard.schema import Evaluation, Metrics, SpanEvaluation, Trace


def _trace(n: int) -> Trace:
    return Trace(trace_id=f"t{n}", query="q", response="a")


def _evaluation(trace: Trace) -> Evaluation:
    return Evaluation(trace_id=trace.trace_id, items=[], spans=[], metrics=Metrics())


class Gate:
    """An evaluate_batch that records its batches and holds each until released."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started = threading.Event()
        self.batches: list[list[str]] = []

    def __call__(self, traces):
        self.started.set()
        self.open.wait(10)
        self.batches.append([t.trace_id for t in traces])
        return [_evaluation(t) for t in traces]


def test_full_queue_drops_and_counts_without_blocking():
    gate = Gate()
    worker = EvaluationThread(gate, queue_size=2)
    done = []
    assert worker.submit(lambda: _trace(0), done.append)
    assert gate.started.wait(10)  # trace 0 is being evaluated; the queue is empty again
    accepted = [worker.submit(lambda n=n: _trace(n), done.append) for n in range(1, 6)]
    assert accepted == [True, True, False, False, False]
    assert worker.stats.dropped == 3
    gate.open.set()
    assert worker.flush(10)
    assert sorted(e.trace_id for e in done) == ["t0", "t1", "t2"]
    assert worker.stats.evaluated == 3 and worker.stats.pending == 0


def test_requests_queued_during_a_batch_are_evaluated_together():
    gate = Gate()
    worker = EvaluationThread(gate, queue_size=100, batch_size=64)
    worker.submit(lambda: _trace(0), lambda _: None)
    assert gate.started.wait(10)
    for n in range(1, 11):
        worker.submit(lambda n=n: _trace(n), lambda _: None)
    gate.open.set()
    assert worker.flush(10)
    assert [len(b) for b in gate.batches] == [1, 10]


def test_evaluator_errors_are_counted_and_logged_never_raised(caplog):
    def explode(traces):
        raise RuntimeError("scorer exploded")

    worker = EvaluationThread(explode)
    results = []
    with caplog.at_level(logging.WARNING, logger="ragguard.live.thread"):
        worker.submit(lambda: _trace(0), results.append)
        worker.submit(lambda: (_ for _ in ()).throw(ValueError("no query")), results.append)
        assert worker.flush(10)
    assert worker.stats.failed == 2
    assert {type(r) for r in results} == {RuntimeError, ValueError}
    assert "scorer exploded" in caplog.text and "no query" in caplog.text


def test_a_failing_callback_does_not_stop_the_worker():
    worker = EvaluationThread(lambda traces: [_evaluation(t) for t in traces])
    seen = []

    def boom(_):
        raise RuntimeError("user callback")

    worker.submit(lambda: _trace(0), boom)
    worker.submit(lambda: _trace(1), seen.append)
    assert worker.flush(10)
    assert [e.trace_id for e in seen] == ["t1"]


def test_waiting_submissions_are_never_dropped():
    gate = Gate()
    worker = EvaluationThread(gate, queue_size=1)
    worker.submit(lambda: _trace(0), lambda _: None)
    assert gate.started.wait(10)
    worker.submit(lambda: _trace(1), lambda _: None)  # the queue is now full
    future = worker.submit_waiting(lambda: _trace(2))
    gate.open.set()
    assert future.result(10).trace_id == "t2"


def test_flush_times_out_while_work_is_pending_then_completes():
    gate = Gate()
    worker = EvaluationThread(gate)
    worker.submit(lambda: _trace(0), lambda _: None)
    assert gate.started.wait(10)
    assert not flush(0.05)
    gate.open.set()
    assert flush(10)
    assert worker.stats.pending == 0


def test_a_forked_process_gets_a_worker_of_its_own():
    """A pre-fork server forks after the worker has started: the copy has no thread."""
    worker = EvaluationThread(lambda traces: [_evaluation(t) for t in traces])
    worker.submit(lambda: _trace(0), lambda _: None)
    assert worker.flush(10)
    pid = os.fork()
    if pid == 0:  # the forked copy
        done = []
        worker.submit(lambda: _trace(1), done.append)
        os._exit(0 if worker.flush(10) and [e.trace_id for e in done] == ["t1"] else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_pending_evaluations_are_flushed_at_interpreter_exit():
    script = textwrap.dedent(
        """
        import time
        from ragguard.schema import Evaluation, Metrics, Trace
        from ragguard.live.thread import EvaluationThread

        def slow(traces):
            time.sleep(0.5)
            return [Evaluation(trace_id=t.trace_id, items=[], spans=[], metrics=Metrics())
                    for t in traces]

        EvaluationThread(slow).submit(lambda: Trace(trace_id="t1", query="q", response="a"),
                            lambda e: print("evaluated", e.trace_id, flush=True))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert "evaluated t1" in result.stdout, result.stderr


@pytest.mark.parametrize(
    ("metrics", "failed"),
    [
        (Metrics(support_rate=1.0, relevant_at_k=1.0), []),
        (Metrics(support_rate=0.5, relevant_at_k=1.0), ["support rate 0.50 < 0.75"]),
        (Metrics(support_rate=1.0, relevant_at_k=0.25), ["relevant items 0.25 < 0.50"]),
        (Metrics(), []),  # nothing to judge (no objective claim, no item): never fails
    ],
)
def test_guard_minimums(metrics, failed):
    monitor = Monitor(guard=Guard(), min_support_rate=0.75, min_relevant_at_k=0.5)
    span = SpanEvaluation(
        text="Made up.", start=0, end=8, kind="objective", support=0.1, supported=False
    )
    evaluation = Evaluation(trace_id="t", items=[], spans=[span], metrics=metrics)
    reasons = monitor.failures(evaluation)
    assert [r.split(" (")[0] for r in reasons] == failed


def test_evaluation_lost_is_a_ragguard_error() -> None:
    from ragguard.errors import EvaluationLost, RagguardError

    assert issubclass(EvaluationLost, RagguardError)
