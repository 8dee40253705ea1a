"""No import side effects: exit and fork hooks are registered at the first
EvaluationThread, Monitor, evaluation child or trace log, not when ragguard is imported;
and at exit the monitor closes before the evaluation threads."""

from __future__ import annotations

import subprocess
import sys
import textwrap

RECORD = """
import atexit, os
registered = []
_exit, _fork = atexit.register, os.register_at_fork
def _record_exit(function, *args, **kwargs):
    registered.append(("exit", getattr(function, "__module__", None) or ""))
    return _exit(function, *args, **kwargs)
def _record_fork(**hooks):
    registered.extend(("fork", getattr(f, "__module__", None) or "") for f in hooks.values())
    return _fork(**hooks)
atexit.register, os.register_at_fork = _record_exit, _record_fork
def ours():
    return [(kind, module) for kind, module in registered if module.startswith("ragguard")]
"""


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", RECORD + textwrap.dedent(code)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_importing_ragguard_registers_no_hook() -> None:
    out = _run(
        """
        import ragguard, ragguard.live.monitor, ragguard.live.child, ragguard.live.thread
        import ragguard.exporters.tracelog, ragguard.exporters.otel
        print(ours())
        """
    )
    assert out == "[]"


def test_the_first_trace_log_registers_its_fork_hook_once(tmp_path) -> None:
    out = _run(
        f"""
        from ragguard.exporters.tracelog import TraceLog
        first = TraceLog({str(tmp_path / "a.jsonl")!r})
        second = TraceLog({str(tmp_path / "b.jsonl")!r})
        first.shutdown(); second.shutdown()
        print(ours())
        """
    )
    assert out == "[('fork', 'ragguard.exporters.tracelog')]"


def test_a_monitor_registers_the_workers_hooks_before_its_own() -> None:
    out = _run(
        """
        import ragguard
        from ragguard.evaluation.evaluator import Evaluator
        monitor = ragguard.Monitor(guard=ragguard.Guard(evaluator=Evaluator()))
        print(ours())
        """
    )
    exits = [module for kind, module in eval(out) if kind == "exit"]
    assert exits == ["ragguard.live.thread", "ragguard.live.monitor"]


def test_at_exit_the_monitor_closes_before_the_workers() -> None:
    """atexit runs the last registered first: the monitor's close (workers deliver, then the
    exporters shut down) must come before the workers' own close."""
    out = _run(
        """
        from ragguard.live import monitor
        from ragguard.live import thread as worker
        worker._close_at_exit = lambda: print("workers closed")
        monitor._close_for_exit = lambda: print("monitor closed")
        monitor._register_hooks()
        worker.register_hooks()  # a EvaluationThread built later registers nothing more
        print("exiting")
        """
    )
    assert out.splitlines() == ["exiting", "monitor closed", "workers closed"]
