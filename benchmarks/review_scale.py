"""``ragguard review`` at scale: opening a large trace log and drawing the sample, against
a plain ``json.loads`` pass over the same file.

    python benchmarks/review_scale.py [--lines 1000000] [--log /tmp/review_scale.jsonl]
        [--sample 200] [--repeats 3]

The log is built once from ``examples/live_log.jsonl`` (every line evaluated), cycled to
``--lines`` lines with each trace id made unique. Then, in one process (so both passes see
the same load and page cache), it alternates a plain ``json.loads`` pass over the file and
``ragguard.review.draw`` (the review's one pass, its progress bar on stderr) ``--repeats``
times, and prints each pass's wall time, the ratio of the median times, the peak resident
memory of the process (``ru_maxrss``: the imports and both passes), the load average and
the command.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

from ragguard.review import draw, open_source

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "examples" / "live_log.jsonl"


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


def plain_pass(path: Path) -> float:
    start = time.perf_counter()
    with path.open("rb") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start


def review_pass(path: Path, size: int) -> tuple[float, str]:
    start = time.perf_counter()
    sample = draw(open_source(str(path)), size, seed=0)
    took = time.perf_counter() - start
    population = sample.population
    assert len(sample.drawn) == size and not population.bad, (len(sample.drawn), population)
    return took, (
        f"{size} of {population.spans} objective spans in {population.records} lines, "
        f"{population.read_whole} read whole"
    )


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--log", type=Path, default=Path("/tmp/review_scale.jsonl"))
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not args.log.exists() or sum(1 for _ in args.log.open("rb")) != args.lines:
        start = time.perf_counter()
        build(args.log, args.lines)
        print(f"built {args.log}: {args.lines} lines in {time.perf_counter() - start:.0f} s")
    print(f"command: python {' '.join(sys.argv)}")
    print(f"log: {args.lines} lines, {args.log.stat().st_size / 1e9:.2f} GB")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    plain, review = [], []
    for run in range(1, args.repeats + 1):
        plain.append(plain_pass(args.log))
        print(f"run {run} json.loads pass: {plain[-1]:.1f} s (peak RSS {peak_rss_mb():.0f} MB)")
        seconds, drawn = review_pass(args.log, args.sample)
        review.append(seconds)
        print(f"run {run} review draw: {seconds:.1f} s ({drawn}; peak RSS {peak_rss_mb():.0f} MB)")
        print(f"run {run} ratio: {review[-1] / plain[-1]:.2f}", flush=True)
    plain_s, review_s = statistics.median(plain), statistics.median(review)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"median: json.loads {plain_s:.1f} s, review {review_s:.1f} s, "
        f"ratio {review_s / plain_s:.2f}; peak RSS {peak_rss_mb():.0f} MB"
    )


if __name__ == "__main__":
    main()
