"""Evaluation speed on this machine: traces with 5 text items and a 4-sentence answer.

    python benchmarks/speed.py --data DIR [--traces 200] [--batch-size 64] [--unrelated] [--warm]

Items are Factcheck-GPT passages (about 90 words each): the evidence of the answer's claims
plus one other (``--unrelated``: five passages about something else, as the first version
did). Caches are cleared before the batch and before each single request: cold-cache
figures (within the batch, passages that several traces share are embedded once);
``--warm`` keeps the caches between single requests, as a live pipeline whose retriever
returns recurring passages does (the Factcheck-GPT claims share evidence). Reports
batched throughput (``Guard.evaluate_many``) and single-request latency
(``Guard.evaluate``, p50/p95).
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


def make_traces(data: Path, count: int, offset: int = 0, related: bool = True) -> list[dict]:
    """Traces of 5 items and a 4-claim answer. ``related``: the items are the evidence
    passages of the answer's claims plus one passage about something else, as a retriever
    returns them; otherwise five passages unrelated to the answer (the first version of
    this benchmark, kept to compare with its figures: pre-selection skips most of such
    passages, so it flatters ragguard)."""
    cases = devsets.factcheck_gpt(data)
    unique = list({c.claim: c for c in cases}.values())
    passages = [c.evidence for c in cases]
    traces = []
    for t in range(offset, offset + count):
        chosen = [unique[(t * 4 + k) % len(unique)] for k in range(4)]
        if related:
            texts = [*dict.fromkeys(c.evidence for c in chosen)]
            texts += [
                p for k in range(5) if (p := passages[(t * 5 + k) % len(passages)]) not in texts
            ]
        else:
            texts = [passages[(t * 5 + k) % len(passages)] for k in range(5)]
        items = [{"id": f"d{k}", "text": text} for k, text in enumerate(texts[:5])]
        sentences = [c.claim for c in chosen]
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
    parser.add_argument(
        "--unrelated", action="store_true", help="items unrelated to the answer (first version)"
    )
    parser.add_argument(
        "--warm", action="store_true", help="keep the caches between single requests"
    )
    args = parser.parse_args()
    related = not args.unrelated

    guard = Guard({"batch_size": args.batch_size})
    guard.evaluate_many(
        make_traces(args.data, 4, 10_000, related)
    )  # load models outside the timing

    batch = make_traces(args.data, args.traces, 0, related)
    guard.evaluator.clear_caches()
    started = time.perf_counter()
    evaluations = guard.evaluate_many(batch)
    seconds = time.perf_counter() - started
    spans = sum(e.metrics.n_objective for e in evaluations)

    single = make_traces(args.data, min(args.traces, 100), args.traces, related)
    latencies = []
    for trace in single:
        # cold: claims of one answer share evidence across the Factcheck-GPT cases, so later
        # traces would hit the caches
        if not args.warm:
            guard.evaluator.clear_caches()
        t0 = time.perf_counter()
        guard.evaluate(trace)
        latencies.append((time.perf_counter() - t0) * 1000)

    kind = "the answer's evidence + 1 other" if related else "unrelated to the answer"
    print(f"machine: {os.cpu_count()} cores; 5 items x ~90 words ({kind}), 4-claim answers")
    print(
        f"batched (batch {args.batch_size}): {len(batch) / seconds:.1f} traces/s, "
        f"{spans / seconds:.0f} objective spans/s, {1000 * seconds / len(batch):.1f} ms/trace"
    )
    print(
        f"single request: p50 {np.percentile(latencies, 50):.1f} ms, "
        f"p95 {np.percentile(latencies, 95):.1f} ms ({len(latencies)} requests, "
        f"{'warm' if args.warm else 'cold'} caches)"
    )


if __name__ == "__main__":
    main()
