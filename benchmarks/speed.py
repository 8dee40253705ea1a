"""Evaluation speed on this machine: traces with 5 text items and a 4-sentence answer.

    python benchmarks/speed.py --data DIR [--traces 200] [--batch-size 64]

Items are Factcheck-GPT passages (about 90 words each), every trace's items distinct, so
the embedding cache does not help (a cold-cache figure). Reports batched throughput
(``Guard.evaluate_many``) and single-request latency (``Guard.evaluate``, p50/p95).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets

from ragguard import Guard


def make_traces(data: Path, count: int, offset: int = 0) -> list[dict]:
    cases = devsets.factcheck_gpt(data)
    claims = list(dict.fromkeys(c.claim for c in cases))
    passages = [c.evidence for c in cases]
    traces = []
    for t in range(offset, offset + count):
        items = [{"id": f"d{k}", "text": passages[(t * 5 + k) % len(passages)]} for k in range(5)]
        sentences = [claims[(t * 4 + k) % len(claims)] for k in range(4)]
        response = " ".join(f"{s.rstrip('.')} [{k % 5 + 1}]." for k, s in enumerate(sentences))
        traces.append(
            {"trace_id": f"speed-{t}", "query": sentences[0], "items": items, "response": response}
        )
    return traces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    devsets.add_data_argument(parser)
    parser.add_argument("--traces", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    guard = Guard({"batch_size": args.batch_size})
    guard.evaluate_many(make_traces(args.data, 4, offset=10_000))  # load models outside the timing

    batch = make_traces(args.data, args.traces)
    started = time.perf_counter()
    evaluations = guard.evaluate_many(batch)
    seconds = time.perf_counter() - started
    spans = sum(e.metrics.n_objective for e in evaluations)

    single = make_traces(args.data, min(args.traces, 100), offset=args.traces)
    latencies = []
    for trace in single:
        t0 = time.perf_counter()
        guard.evaluate(trace)
        latencies.append((time.perf_counter() - t0) * 1000)

    print(f"machine: {os.cpu_count()} cores; traces of 5 items x ~90 words, 4-sentence answers")
    print(
        f"batched (batch {args.batch_size}): {len(batch) / seconds:.1f} traces/s, "
        f"{spans / seconds:.0f} objective spans/s, {1000 * seconds / len(batch):.1f} ms/trace"
    )
    print(
        f"single request: p50 {np.percentile(latencies, 50):.1f} ms, "
        f"p95 {np.percentile(latencies, 95):.1f} ms ({len(latencies)} requests)"
    )


if __name__ == "__main__":
    main()
