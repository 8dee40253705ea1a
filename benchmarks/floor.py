"""ragguard's batched evaluation against the model's own floor, measured in the same run.

    python benchmarks/floor.py [--traces examples/traces.jsonl] [--runs 3] [--profile]

The floor is one MiniLM encode pass over every sentence of the traces (the query, each
item's evidence sentences, each response span), as sentence-transformers runs it by default.
Each run clears ragguard's caches (models stay loaded) and times the batched evaluation and
then that encode pass, back to back, so the ratio holds even on a machine shared with other
jobs, which absolute times here do not. Prints each run and the median ratio, plus the
process's peak RSS. ``--profile`` adds a cProfile of one more evaluation (cumulative time
of the top calls: encoding per caller, features, span analysis).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragguard import Guard
from ragguard.io import read_traces
from ragguard.schema import Trace
from ragguard.scoring import text as tx
from ragguard.spans import ItemRef


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", default="examples/traces.jsonl")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    traces = [t for _, t in read_traces(args.traces) if isinstance(t, Trace)]
    guard = Guard()
    evaluator = guard.evaluator
    started = time.perf_counter()
    guard.evaluate(traces[0])  # loads every model
    load_s = time.perf_counter() - started
    spans = evaluator.analyzer.analyze_many(
        [(t.response, [ItemRef(i.id, i.modality) for i in t.items], None) for t in traces]
    )
    sentences = [t.query for t in traces]
    sentences += [s for t in traces for i in t.items for s in tx.evidence_sentences(i.text or "")]
    sentences += [s.text for found in spans for s in found]
    model = evaluator.embedder.model

    ratios = []
    for run in range(args.runs):
        evaluator.embedder.clear_cache()
        tx.content_tokens.cache_clear()
        t0 = time.perf_counter()
        guard.evaluate_many(traces)
        ragguard_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        model.encode(sentences, batch_size=64, show_progress_bar=False)
        encode_s = time.perf_counter() - t0
        ratios.append(ragguard_s / encode_s)
        print(
            f"run {run + 1}: ragguard {ragguard_s:.2f} s, encode pass {encode_s:.2f} s, "
            f"ratio {ratios[-1]:.2f}",
            flush=True,
        )
    if args.profile:
        evaluator.embedder.clear_cache()
        tx.content_tokens.cache_clear()
        profile = cProfile.Profile()
        profile.runcall(guard.evaluate_many, traces)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(r"ragguard|linear", 30)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{len(traces)} traces, {len(sentences)} sentences; model load {load_s:.1f} s; "
        f"median ratio ragguard / encode pass {statistics.median(ratios):.2f}; "
        f"peak RSS {peak_mb:.0f} MB; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    sys.exit(main())
