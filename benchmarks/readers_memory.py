"""Peak memory of the readers that hold or stream a whole file (issue 45's targets):

- ``csv``: reading N DeepEval rows as a CSV export against the same rows as JSONL
  (``read_input``, every row parsed into a Trace, nothing evaluated): the CSV within 2x;
- ``compare``: ``ragguard compare`` of two results files of N traces each (the example
  traces' evaluations repeated under new ids, NEW with every other claim flipped): <= 1 GB
  at 100,000 traces per side.

Each figure is the peak RSS (``VmHWM``) of a fresh process doing only that; wall time
is printed too, and the machine's load average with it: timings taken on a shared machine
are not speed figures.

    python benchmarks/readers_memory.py csv --rows 1000000
    python benchmarks/readers_memory.py compare --traces 100000
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSAGE = "The Eiffel Tower is a wrought-iron lattice tower in Paris, completed in 1889."

PEAK = """
def peak_mb():
    # VmHWM: this process's own peak (ru_maxrss keeps the forking parent's across exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
"""
READ = (
    PEAK
    + """
import sys
from ragguard.runtime.foreign import read_input
n = sum(1 for _ in read_input(sys.argv[1], "deepeval"))
print(n, peak_mb())
"""
)
COMPARE = (
    PEAK
    + """
import contextlib, io, sys
from ragguard.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["compare", sys.argv[1], sys.argv[2]])
print(status, peak_mb())
"""
)


def measure(code: str, *args: str) -> tuple[str, int, float]:
    """(the child's first printed word, its peak RSS in MB, wall seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,  # "-c" puts the working folder first on sys.path: this checkout's ragguard
        check=True,
    )
    first, peak = done.stdout.split()[-2:]
    return first, int(peak), time.perf_counter() - start


def rows(n: int) -> Iterator[dict[str, object]]:
    for i in range(n):
        yield {
            "input": f"Where is the Eiffel Tower? ({i})",
            "actual_output": "The Eiffel Tower is in Paris.",
            "retrieval_context": [PASSAGE, f"Passage {i} about the tower."],
        }


def bench_csv(n: int, folder: Path) -> None:
    jsonl, table = folder / "rows.jsonl", folder / "rows.csv"
    with jsonl.open("w") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in rows(n))
    with table.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["input", "actual_output", "retrieval_context"])
        writer.writerows(
            [r["input"], r["actual_output"], json.dumps(r["retrieval_context"])] for r in rows(n)
        )
    for path in (jsonl, table):
        count, peak, wall = measure(READ, str(path))
        size = path.stat().st_size / 1e6
        print(f"{path.suffix}: {count} rows, {size:.0f} MB file, peak RSS {peak} MB, {wall:.1f} s")


def bench_compare(n: int, folder: Path) -> None:
    examples = folder / "examples.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    traces = ROOT / "examples" / "traces.jsonl"
    subprocess.run(
        [sys.executable, "-m", "ragguard.cli", "evaluate", str(traces), "-o", str(examples)],
        capture_output=True,
        env=env,
        check=True,
    )
    records = [json.loads(line) for line in examples.read_text().splitlines()]
    base, new = folder / "base.jsonl", folder / "new.jsonl"
    with base.open("w") as b, new.open("w") as w:
        for i in range(n):
            record = dict(records[i % len(records)], trace_id=f"t{i}")
            b.write(json.dumps(record) + "\n")
            for j, span in enumerate(record["spans"]):
                if span["supported"] is not None and j % 2:
                    span["supported"] = not span["supported"]
            w.write(json.dumps(record) + "\n")
    status, peak, wall = measure(COMPARE, str(base), str(new))
    size = base.stat().st_size / 1e6
    print(
        f"compare: {n} traces per side ({size:.0f} MB a file), exit {status}, "
        f"peak RSS {peak} MB, {wall:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("which", choices=["csv", "compare"])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--traces", type=int, default=100_000)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        if args.which == "csv":
            bench_csv(args.rows, Path(folder))
        else:
            bench_compare(args.traces, Path(folder))


if __name__ == "__main__":
    main()
