"""An application that exits with evaluations pending, evaluated by the real lite models on
the thread worker: the exit flush evaluates and logs them. Python refuses new work to every
thread pool before the atexit hooks run, and on 67adc45 every pending batch failed there
("cannot schedule new futures after shutdown"): one answer of 20 reached the log."""

import subprocess
import sys
from pathlib import Path

from ragguard.runtime.log_record import read_log

APPLICATION = """
import ragguard
from ragguard.schema import Trace

monitor = ragguard.Monitor(
    {{"live": {{"worker": "thread"}}, "exporters": {{"trace_log": {log!r}, "prometheus": False}}}},
    exit_flush_timeout_s=600,
)
monitor.guard.warmup()
for n in range({n}):
    trace = Trace(
        trace_id=f"t{{n}}",
        query=f"Which year was tower {{n}} finished?",
        items=[{{"id": "d1", "text": f"Tower {{n}} was finished in {{1900 + n}}."}}],
        response=f"Tower {{n}} was finished in {{1900 + n}}.",
    )
    monitor.handle(lambda trace=trace: trace)
print("exiting", flush=True)
"""


def test_evaluations_pending_at_exit_are_evaluated_by_the_models_and_logged(tmp_path: Path):
    log = tmp_path / "log.jsonl"
    script = APPLICATION.format(log=str(log), n=20)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "exiting" in done.stdout
    assert "failed" not in done.stderr and "were lost" not in done.stderr, done.stderr[-3000:]
    logged = {record.trace.trace_id for _, record in read_log([log])}
    assert logged == {f"t{n}" for n in range(20)}
