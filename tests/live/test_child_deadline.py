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
    "import ragguard.evaluation.evaluator as engine; spins = engine.Evaluator.evaluate_batch; "
    "engine.Evaluator.evaluate_batch = lambda self, traces: ("
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
