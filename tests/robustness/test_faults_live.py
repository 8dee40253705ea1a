"""Faults of the live runtime (issue 13, items 6-11), each injected for real: a stopped or
orphaned evaluation child (SIGSTOP, SIGKILL of its parent), SIGTERM and exit with work
pending, many pipeline names, a deleted log directory, a writer SIGKILLed mid-record.
Processes, signals, files and the Prometheus registry are real; the evaluators are
stand-ins (the child's too), since scoring is not what is under test."""

import logging
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest
from prometheus_client import CollectorRegistry

import ragguard
from ragguard.errors import TraceValidationError
from ragguard.evaluation.guard import Guard
from ragguard.exporters import tracelog
from ragguard.exporters.base import Finished
from ragguard.exporters.prometheus import PrometheusExporter
from ragguard.exporters.tracelog import TraceLog
from ragguard.live import child as process
from ragguard.runtime.jsonl import CUT_RECORD
from ragguard.runtime.live_stats import LiveStats
from ragguard.runtime.log_record import read_log
from ragguard.schema import Evaluation, Metrics, Trace
from tests.support.exporters_fixtures import made_up
from tests.support.replay_fixtures import evaluation, trace

TRACE = Trace(trace_id="t1", query="q", response="a")
BIG = Trace(trace_id="big", query="q", response="a" * 200_000)


def _evaluation(trace):
    return Evaluation(trace_id=trace.trace_id, items=[], spans=[], metrics=Metrics())


class Instant:
    """An evaluator answering at once; ``hold`` (an Event) holds every batch until set."""

    def __init__(self, hold=None):
        self.hold = hold

    def evaluate_batch(self, traces):
        if self.hold is not None:
            self.hold.wait(10)
        return [_evaluation(t) for t in traces]


class StandIn(Guard):
    """A Guard over a stand-in evaluator: no models, so nothing to warm up."""

    def __init__(self, hold=None):
        super().__init__(evaluator=Instant(hold))

    def warmup(self):
        pass


def _alive(pid):
    """Whether ``pid`` runs (a zombie nobody reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


def _wait_gone(pid, seconds):
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _alive(pid)


# -- 6: a hung child --------------------------------------------------------------------

INSTANT_CHILD = (
    "from ragguard.evaluation.evaluator import Evaluator; "
    "from ragguard.schema import Evaluation, Metrics; "
    "Evaluator.evaluate_batch = lambda self, traces: [Evaluation(trace_id=t.trace_id, "
    "items=[], spans=[], metrics=Metrics()) for t in traces]; "
)
"""Prepended to the child's code: it evaluates at once (no models to load)."""


def test_a_stopped_child_is_restarted_by_the_watchdog_and_guard_fails_open_meanwhile(
    monkeypatch,
):
    monkeypatch.setattr(process, "_CHILD", INSTANT_CHILD + process._CHILD)
    monitor = ragguard.Monitor(
        mode="guard", worker_stall_timeout_s=2.0, worker_nice=0, guard_timeout_s=120
    )
    evaluations = []
    assert monitor.handle(lambda: TRACE, on_evaluation=evaluations.append) is None
    assert len(evaluations) == 1  # the child is up, models loaded
    stopped = monitor.process.pid
    restarts = ragguard.stats().worker_restarts
    os.kill(stopped, signal.SIGSTOP)

    started = time.monotonic()  # a batch larger than the pipe: sending it would block too
    assert monitor.handle(lambda: BIG, on_evaluation=evaluations.append) is None
    waited = time.monotonic() - started
    assert 2.0 <= waited < 30 and len(evaluations) == 1  # failed open, not after 120 s
    assert ragguard.stats().worker_restarts == restarts + 1
    assert monitor.process.down and not _alive(stopped)

    started = time.monotonic()
    assert monitor.handle(lambda: TRACE, on_evaluation=evaluations.append) is None
    assert time.monotonic() - started < 1.0  # the child is down: no wait at all
    assert monitor.stats.guard_failed_open == 1
    assert ragguard.flush(120)  # ... and that request is still evaluated, by a new child
    assert len(evaluations) == 2 and monitor.process.pid != stopped
    assert not monitor.process.down
    assert monitor.stats.failed == 1 and monitor.stats.evaluated == 2


# -- 7: the child outlives its parent ---------------------------------------------------

ORPHAN = """
import sys, threading, time
from ragguard.config import Config
from ragguard.live import child as process
from ragguard.schema import Trace

# the child's evaluation never ends: only its parent's death can stop it
process._CHILD = (
    "import sys, time; from ragguard.evaluation.evaluator import Evaluator; "
    "Evaluator.evaluate_batch = "
    "lambda self, traces: (print('busy', file=sys.stderr, flush=True), time.sleep(3600)); "
    + process._CHILD
)
child = process.EvaluationChild(Config())
trace = Trace(trace_id="t", query="q", response="a")
threading.Thread(target=child, args=([trace],), daemon=True).start()
while child.pid is None:
    time.sleep(0.01)
print(child.pid, flush=True)
time.sleep(3600)
"""


def test_the_child_exits_within_seconds_of_its_parent_being_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        child = int(parent.stdout.readline())
        assert parent.stderr.readline().strip() == "busy"  # mid-batch
    finally:
        parent.kill()
        parent.wait()
    try:
        assert _wait_gone(child, 10), "the evaluation child outlived its parent"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


# -- 8: loss at exit --------------------------------------------------------------------

APPLICATION = """
import signal, sys, time
import ragguard
from ragguard.schema import Evaluation, Metrics, Trace

class Slow:
    def evaluate_batch(self, traces):
        time.sleep({per_trace} * len(traces))
        return [Evaluation(trace_id=t.trace_id, items=[], spans=[], metrics=Metrics())
                for t in traces]

class StandIn(ragguard.Guard):
    def __init__(self):
        super().__init__(evaluator=Slow())

    def warmup(self):  # no models
        pass

if {own_handler}:
    def stop(signum, frame):
        print("own handler", flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
monitor = ragguard.Monitor(
    {{"batch_size": 8, "exporters": {{"trace_log": {log!r}}}}},
    guard=StandIn(),
    exit_flush_timeout_s={timeout},
)
for n in range({n}):
    monitor.handle(lambda n=n: Trace(trace_id=f"t{{n}}", query="q", response="a"),
                   on_evaluation=lambda e: print("delivered", e.trace_id, flush=True))
print("ready", flush=True)
if {wait}:
    time.sleep(60)
"""


def _run_application(tmp_path, *, how, timeout, per_trace, n=100, own_handler=False):
    """Run the application until it exits by ``how`` ("exit", "sigterm"); what it
    delivered, what reached the trace log, what it reported lost, and how long it took
    from "ready" to its end."""
    log = tmp_path / "log.jsonl"
    script = APPLICATION.format(
        per_trace=per_trace,
        own_handler=own_handler,
        log=str(log),
        timeout=timeout,
        n=n,
        wait=how == "sigterm",
    )
    app = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    lines = []
    for line in app.stdout:
        lines.append(line.strip())
        if line.strip() == "ready":
            break
    ready = time.monotonic()
    if how == "sigterm":
        app.send_signal(signal.SIGTERM)
    out, err = app.communicate(timeout=60)
    took = time.monotonic() - ready
    lines += out.splitlines()
    delivered = {line.split()[1] for line in lines if line.startswith("delivered")}
    logged = {r.trace.trace_id for _, r in read_log([log])} if log.exists() else set()
    found = re.search(r"(\d+) background evaluations still pending after", err)
    lost = int(found[1]) if found else 0
    return app.returncode, delivered, logged, lost, took, lines, err


def test_sigterm_delivers_every_pending_evaluation_then_dies_of_sigterm(tmp_path):
    code, delivered, logged, lost, _, _, err = _run_application(
        tmp_path, how="sigterm", timeout=30, per_trace=0.01
    )
    assert code == -signal.SIGTERM, err
    assert len(delivered) == 100 and logged == delivered and lost == 0


def test_sigterm_chains_the_applications_own_handler(tmp_path):
    code, delivered, logged, lost, _, lines, err = _run_application(
        tmp_path, how="sigterm", timeout=30, per_trace=0.01, own_handler=True
    )
    assert code == 0 and "own handler" in lines, err
    assert len(delivered) == 100 and logged == delivered and lost == 0


@pytest.mark.parametrize("how", ["exit", "sigterm"])
def test_past_the_timeout_the_rest_is_counted_lost_and_the_log_gets_every_delivery(tmp_path, how):
    code, delivered, logged, lost, took, _, err = _run_application(
        tmp_path, how=how, timeout=2, per_trace=0.05
    )
    assert logged == delivered  # the log stayed open until the last delivery
    assert lost > 0 and len(delivered) + lost == 100, err
    assert took < 2 * 2  # one timeout for everything, not one per stage
    assert code == (0 if how == "exit" else -signal.SIGTERM)


# -- 9: growth per wrap() ---------------------------------------------------------------


def test_monitors_for_many_pipelines_share_one_worker_thread_and_count_their_own():
    guard = StandIn()
    before = threading.active_count()
    # Prometheus off: this is about threads, and the default registry's pipeline cap is
    # shared with the other tests
    monitors = [
        ragguard.Monitor.shared(
            {"exporters": {"pipeline": f"p{n}", "prometheus": False}}, guard=guard
        )
        for n in range(200)
    ]
    for monitor in monitors:
        monitor.handle(lambda: TRACE)
    assert ragguard.flush(30)
    assert threading.active_count() <= before + 1
    assert len({id(monitor.worker) for monitor in monitors}) == 1
    assert all(m.stats.evaluated == 1 and m.stats.pending == 0 for m in monitors)


def test_pipeline_label_values_are_capped_and_the_rest_fold_into_other(caplog):
    registry = CollectorRegistry()
    made_trace, made_evaluation = made_up()
    with caplog.at_level(logging.WARNING, logger="ragguard.exporters.prometheus"):
        for n in range(250):
            exporter = PrometheusExporter(
                registry, f"p{n}", live_stats=LiveStats, max_pipelines=100
            )
            exporter.export([Finished(made_trace, made_evaluation)])
    pipelines = {
        sample.labels["pipeline"]
        for family in registry.collect()
        for sample in family.samples
        if "pipeline" in sample.labels
    }
    assert len(pipelines) == 101 and "other" in pipelines and "p99" in pipelines
    assert registry.get_sample_value("ragguard_responses_total", {"pipeline": "other"}) == 150
    assert caplog.text.count("pipeline names") == 1


# -- 10: counters that lie --------------------------------------------------------------


def test_trace_log_failures_reach_stats_and_prometheus_and_a_deleted_directory_writes_nothing(
    tmp_path,
):
    registry = CollectorRegistry()
    PrometheusExporter(registry, live_stats=ragguard.stats)

    def exported_errors():
        return registry.get_sample_value("ragguard_export_errors_total") or 0.0

    log = TraceLog(tmp_path / "logs" / "log.jsonl")
    monitor = ragguard.Monitor(guard=StandIn(), exporters=[log])
    errors, scraped = ragguard.stats().export_errors, exported_errors()
    shutil.rmtree(tmp_path / "logs")
    for _ in range(3):
        monitor.handle(lambda: TRACE)
    assert ragguard.flush(30)
    assert log.stats.written == 0 and log.stats.errors == 3
    assert ragguard.stats().export_errors == errors + 3
    assert exported_errors() == scraped + 3

    (tmp_path / "logs").mkdir()  # back: the next record creates the file again
    monitor.handle(lambda: TRACE)
    assert ragguard.flush(30)
    assert log.stats.written == 1
    assert [r.trace.trace_id for _, r in read_log([tmp_path / "logs" / "log.jsonl"])] == ["t1"]


def test_pending_counts_only_what_is_not_yet_delivered_while_callbacks_run():
    hold, inside, release = threading.Event(), threading.Event(), threading.Event()
    monitor = ragguard.Monitor(guard=StandIn(hold))

    def slow_delivery(result):
        if result.trace_id == "t2":
            inside.set()
            release.wait(10)

    for n in range(4):
        monitor.handle(
            lambda n=n: Trace(trace_id=f"t{n}", query="q", response="a"),
            on_evaluation=slow_delivery,
        )
    hold.set()
    assert inside.wait(10)  # t0 and t1 delivered, t2 being delivered, t3 waiting for it
    try:
        assert monitor.stats.pending == 2 and monitor.worker.stats.pending == 2
    finally:
        release.set()
    assert ragguard.flush(10)
    assert monitor.stats.pending == 0 and monitor.stats.evaluated == 4


def test_a_forked_copy_does_not_count_the_originals_pending_requests():
    hold = threading.Event()
    monitor = ragguard.Monitor(guard=StandIn(hold))
    monitor.handle(lambda: TRACE)
    pid = os.fork()
    if pid == 0:  # the copy: its worker starts empty
        hold.set()
        monitor.handle(lambda: TRACE)
        os._exit(0 if ragguard.flush(10) and monitor.stats.pending == 0 else 1)
    hold.set()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert ragguard.flush(10) and monitor.stats.evaluated == 1


# -- 11: a writer killed mid-record ------------------------------------------------------


def _die_halfway_through_a_record(path):
    """A writer SIGKILLed in the middle of its (900 KB) record."""
    write = os.write

    def half(fd, data):
        write(fd, bytes(data[: len(data) // 2]))
        os.kill(os.getpid(), signal.SIGKILL)

    tracelog.os.write = half  # this process only: it dies in it
    big = [{"id": "d1", "text": "x" * 900_000}]
    TraceLog(path).export([Finished(trace("cut", items=big), evaluation("cut"))])


def test_a_record_after_a_writer_killed_mid_record_starts_on_its_own_line(tmp_path):
    path = tmp_path / "log.jsonl"
    writer = multiprocessing.get_context("fork").Process(
        target=_die_halfway_through_a_record, args=(path,)
    )
    writer.start()
    writer.join(60)
    assert writer.exitcode == -signal.SIGKILL and path.stat().st_size > 400_000
    log = TraceLog(path)
    log.export([Finished(trace("next"), evaluation("next"))])
    log.shutdown()
    cut, following = path.read_bytes().split(b"\n")[:2]
    assert not cut.endswith(b"}") and following.startswith(b'{"trace_id":"next"')
    found = [record for _, record in read_log([path])]
    assert isinstance(found[0], TraceValidationError) and found[0].line == 1
    assert [r.trace.trace_id for r in found[1:]] == ["next"]


def test_the_reader_recovers_a_record_glued_onto_a_cut_line(tmp_path):
    path = tmp_path / "log.jsonl"
    log = TraceLog(path)
    log.export([Finished(trace("whole"), evaluation("whole"))])
    log.shutdown()
    record = path.read_bytes()
    path.write_bytes(record[: len(record) // 2] + record + record)  # an older writer's glue
    found = list(read_log([path]))
    (where, error), (_, glued), (_, last) = found
    assert where == "log.jsonl line 1" and isinstance(error, TraceValidationError)
    assert CUT_RECORD in str(error)
    assert glued.trace.trace_id == last.trace.trace_id == "whole" and glued.line == 1
