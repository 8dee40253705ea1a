"""``ragguard review`` at scale: opening a large trace log and drawing the sample, against
a plain ``json.loads`` pass over the same file.

    python benchmarks/review_scale.py [--lines 1000000] [--log /tmp/review_scale.jsonl]
        [--sample 200] [--repeats 3]

The log is built once from ``examples/live_log.jsonl`` (every line evaluated), cycled to
``--lines`` lines with each trace id made unique. Then, in one process (so both passes see
the same load and page cache), it alternates a plain ``json.loads`` pass over the file and
``ragguard.review.draw`` (the review's one pass, its progress bar on stderr) ``--repeats``
times, and prints each pass's wall and CPU time, the ratios of the medians, the peak
resident memory of the process (``ru_maxrss``: the imports and both passes), the load
average and the command. On a loaded machine the CPU-time ratio holds up best (other
processes' work is not counted); on quiet cores the two agree.
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


def plain_pass(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of a ``json.loads`` pass over ``path``."""
    start, cpu = time.perf_counter(), time.process_time()
    with path.open("rb") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start, time.process_time() - cpu


def review_pass(path: Path, size: int) -> tuple[float, float, str]:
    """(wall, CPU) seconds of the review's pass over ``path``, and what it drew."""
    start, cpu = time.perf_counter(), time.process_time()
    sample = draw(open_source(str(path)), size, seed=0)
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu
    population = sample.population
    assert len(sample.drawn) == size and not population.bad, (len(sample.drawn), population)
    return (
        took,
        took_cpu,
        (
            f"{size} of {population.spans} objective spans in {population.records} lines, "
            f"{population.read_whole} read whole"
        ),
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
    plain: list[tuple[float, float]] = []
    review: list[tuple[float, float]] = []
    for run in range(1, args.repeats + 1):
        plain.append(plain_pass(args.log))
        wall, cpu = plain[-1]
        print(f"run {run} json.loads pass: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
        wall, cpu, drawn = review_pass(args.log, args.sample)
        review.append((wall, cpu))
        print(f"run {run} review draw: {wall:.1f} s wall, {cpu:.1f} s CPU ({drawn})")
        print(f"run {run} ratio: {wall / plain[-1][0]:.2f} wall, {cpu / plain[-1][1]:.2f} CPU")
        print(f"peak RSS so far: {peak_rss_mb():.0f} MB", flush=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name, index in (("wall", 0), ("CPU", 1)):
        plain_s = statistics.median(p[index] for p in plain)
        review_s = statistics.median(r[index] for r in review)
        print(
            f"median {name}: json.loads {plain_s:.1f} s, review {review_s:.1f} s, "
            f"ratio {review_s / plain_s:.2f}"
        )
    print(f"peak RSS (imports and both passes): {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
