"""A child that keeps using CPU without ever answering (a spinning deadlock) is killed at
its batch's deadline, which the stall watchdog alone never reaches (CPU time counts as
progress), and the next batch gets a new child."""

import time

import pytest

import ragguard
from ragguard.config import Config
from ragguard.errors import RagguardError
from ragguard.live import child as process
from ragguard.schema import Trace

SPINNING_CHILD = (
    "from ragguard.evaluation.evaluator import Evaluator; spins = Evaluator.evaluate_batch; "
    "Evaluator.evaluate_batch = lambda self, traces: ("
    "next(x for x in iter(int, 1) if x) if traces[0].trace_id == 'spin' "
    "else spins(self, traces)); "
)
"""Prepended to the child's code: a batch whose first trace is "spin" never ends, on CPU."""

TRACE = Trace(
    trace_id="t1",
    query="Where is the Eiffel Tower?",
    items=[{"id": "d1", "text": "The Eiffel Tower is a wrought-iron lattice tower in Paris."}],
    response="The Eiffel Tower is in Paris.",
)


def test_a_child_spinning_on_cpu_is_killed_at_the_batch_deadline(monkeypatch):
    monkeypatch.setattr(process, "_CHILD", SPINNING_CHILD + process._CHILD)
    child = process.EvaluationChild(Config(live={"worker_nice": 0}))
    try:
        (first,) = child([TRACE])  # the models load within the default deadline
        assert first.trace_id == "t1"
        pid = child.pid
        live = {"worker_nice": 0, "worker_stall_timeout_s": 1.0, "worker_seconds_per_trace": 1.0}
        child.config = Config(live=live)
        restarts = ragguard.stats().worker_restarts
        started = time.monotonic()
        with pytest.raises(RagguardError, match="deadline of 3 s"):
            child([TRACE.model_copy(update={"trace_id": "spin"}), TRACE])
        assert 3.0 <= time.monotonic() - started < 15
        assert child.down and ragguard.stats().worker_restarts == restarts + 1
        child.config = Config(live={"worker_nice": 0})  # time to load its models again
        (again,) = child([TRACE])  # a new child answers
        assert again.trace_id == "t1" and child.pid != pid and not child.down
    finally:
        if child._process is not None:
            child._process.kill()
            child._process.wait()


def test_a_slow_judge_costs_its_spans_their_judge_verdicts_not_the_batch_its_lite_ones():
    """The child waits on a judge that never answers, using no CPU: the stall limit and
    the deadline make room for the judge's own deadline, so the batch comes back with the
    lite verdicts and ``judge_skipped: timeout`` instead of the child being killed."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # connections complete in the backlog; nothing ever answers
    judge = {"backend": "openai", "base_url": f"http://127.0.0.1:{silent.getsockname()[1]}/v1"}
    judge |= {"model": "silent", "timeout_s": 3.0, "retries": 0, "band": [0.0, 1.0]}
    judge |= {"answer_band": [0.0, 0.0], "max_calls_per_trace": 1}
    child = process.EvaluationChild(Config(live={"worker_nice": 0}, judge=judge))
    try:
        (first,) = child([TRACE])  # the models load within the default deadline
        assert first.trace_id == "t1"
        live = {"worker_nice": 0, "worker_stall_timeout_s": 1.0, "worker_seconds_per_trace": 0.2}
        child.config = Config(live=live, judge=judge)
        restarts = ragguard.stats().worker_restarts
        (second,) = child([TRACE.model_copy(update={"trace_id": "t2"})])
        assert second.trace_id == "t2" and not child.down
        assert ragguard.stats().worker_restarts == restarts
        (span,) = second.spans
        assert span.judge_skipped == "timeout" and span.supported is not None
    finally:
        silent.close()
        if child._process is not None:
            child._process.kill()
            child._process.wait()


def test_the_limits_grow_with_the_judge_only_when_it_is_on():
    off = Config(live={"worker_stall_timeout_s": 60.0, "worker_seconds_per_trace": 5.0})
    assert process.batch_limits(off, 4) == (60.0, 80.0)
    judge = {"backend": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}
    judge |= {"timeout_s": 20.0, "retries": 0, "backoff_s": 0.0, "max_calls_per_trace": 3}
    stall, deadline = process.batch_limits(
        off.model_copy(update={"judge": Config(judge=judge).judge}), 4
    )
    assert stall == 60.0 and deadline == 80.0 + 4 * 3 * 20.0
    slow = {**judge, "timeout_s": 100.0}
    stall, _ = process.batch_limits(Config(judge=slow), 1)
    assert stall == 105.0  # one call, waited on without CPU, fits the stall limit
