"""Build ``examples/live_log.jsonl``: the example traces evaluated by a real ``Guard`` (the
offline lite models, default thresholds) and written by the live trace log, as the Monitor
writes them. The evaluations are computed here; only ``logged_at`` is simulated (a working
day of traffic from 08:00 UTC, a few minutes apart) so the report's timeline has a shape.
Run: python examples/build_live_log.py
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from pathlib import Path

from ragguard import Guard
from ragguard.exporters import TraceLog
from ragguard.runtime import read_traces
from ragguard.schema import Trace

HERE = Path(__file__).parent
START = datetime(2025, 6, 2, 8, 0, tzinfo=UTC)


def main() -> None:
    traces = [t for _, t in read_traces(HERE / "traces.jsonl") if isinstance(t, Trace)]
    target = HERE / "live_log.jsonl"
    target.unlink(missing_ok=True)
    rng = random.Random(0)
    gaps = accumulate(rng.uniform(4, 26) for _ in traces)
    moments = (START + timedelta(minutes=minutes) for minutes in gaps)
    log = TraceLog(target, clock=lambda: next(moments), fsync="never")
    for trace, evaluation in zip(traces, Guard().evaluate_many(traces), strict=True):
        log.export(trace, evaluation)
    log.shutdown()
    Path(f"{target}.lock").unlink(missing_ok=True)
    print(f"wrote {log.stats.written} records to {target}")


if __name__ == "__main__":
    main()
