"""``ragguard review`` at scale: opening a large trace log and drawing the sample, against
a plain ``json.loads`` pass over the same file.

    python benchmarks/review_scale.py [--lines 1000000] [--log /tmp/review_scale.jsonl]
        [--sample 200] [--repeats 2]

The log is built once from ``examples/live_log.jsonl`` (every line evaluated), cycled to
``--lines`` lines with each trace id made unique. Each measured pass runs in a fresh
process, alternating the plain pass and ``ragguard.review.draw`` (the review's one pass,
with its progress bar on stderr), and reports its wall time and peak RSS
(``ru_maxrss``). Prints each run and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "examples" / "live_log.jsonl"

PLAIN = """
import json, resource, sys, time
start = time.perf_counter()
with open(sys.argv[1], "rb") as handle:
    for line in handle:
        json.loads(line)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
REVIEW = """
import resource, sys, time
from ragguard.review import draw, open_source
start = time.perf_counter()
sample = draw(open_source(sys.argv[1]), int(sys.argv[2]), seed=0)
took = time.perf_counter() - start
assert len(sample.drawn) == int(sys.argv[2]), len(sample.drawn)
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, sample.population.spans)
"""


def build(path: Path, lines: int) -> None:
    """``lines`` evaluated log lines, the example log's cycled, trace ids made unique."""
    records = [json.loads(line) for line in TEMPLATE.read_text(encoding="utf-8").splitlines()]
    records = [r for r in records if isinstance(r.get("evaluation"), dict)]
    with path.open("w", encoding="utf-8") as out:
        for number in range(lines):
            record = records[number % len(records)]
            unique = f"{record['trace_id']}-{number}"
            copy = {**record, "trace_id": unique}
            copy["evaluation"] = {**record["evaluation"], "trace_id": unique}
            out.write(json.dumps(copy, ensure_ascii=False, separators=(",", ":")) + "\n")


def measure(code: str, *args: str) -> list[float]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return [float(value) for value in done.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--log", type=Path, default=Path("/tmp/review_scale.jsonl"))
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    if not args.log.exists() or sum(1 for _ in args.log.open("rb")) != args.lines:
        start = time.perf_counter()
        build(args.log, args.lines)
        print(f"built {args.log}: {args.lines} lines in {time.perf_counter() - start:.0f} s")
    size = args.log.stat().st_size
    print(f"log: {args.lines} lines, {size / 1e9:.2f} GB")
    plain, review = [], []
    for run in range(args.repeats):
        seconds, rss_kb = measure(PLAIN, str(args.log))
        plain.append(seconds)
        print(f"run {run + 1} json.loads pass: {seconds:.1f} s, peak RSS {rss_kb / 1024:.0f} MB")
        seconds, rss_kb, spans = measure(REVIEW, str(args.log), str(args.sample))
        review.append(seconds)
        print(
            f"run {run + 1} review draw: {seconds:.1f} s, peak RSS {rss_kb / 1024:.0f} MB "
            f"({args.sample} of {int(spans)} objective spans)"
        )
    plain_s, review_s = statistics.median(plain), statistics.median(review)
    print(
        f"median: json.loads {plain_s:.1f} s, review {review_s:.1f} s, "
        f"ratio {review_s / plain_s:.2f}"
    )


if __name__ == "__main__":
    main()
