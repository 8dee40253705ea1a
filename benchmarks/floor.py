"""ragguard's batched evaluation against the model's own floor, measured in the same run.

    python benchmarks/floor.py [--traces examples/traces.jsonl] [--runs 3] [--profile]

The floor is one MiniLM encode pass over every sentence of the traces (the query, each
item's evidence sentences, each response span), as sentence-transformers runs it by default
(fp32, on torch). Each run clears ragguard's caches (models stay loaded) and times the
batched evaluation and then that encode pass, back to back, so the ratio holds even on a
machine shared with other jobs, which absolute times here do not. A second ratio compares
with one pass of ragguard's own backbone (the int8 ONNX MiniLM of the lite tier) over the
same sentences: what is left above 1.0 is ragguard's work beyond encoding. Prints each run
and the median ratios, plus the peak RSS before the floor's torch model loaded. ``--profile``
adds a cProfile of one more evaluation (cumulative time of the top calls: encoding per
caller, features, span analysis).
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
from collections.abc import Callable

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragguard import Guard
from ragguard.runtime.jsonl import read_traces
from ragguard.schema import Trace
from ragguard.scoring.encoders.backbones import bundled_minilm_path
from ragguard.scoring.lexical import text as tx
from ragguard.spans import ItemRef


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", default="examples/traces.jsonl")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    traces = [t for _, t in read_traces(args.traces) if isinstance(t, Trace)]
    guard = Guard()
    evaluator = guard.evaluator
    load_s = guard.load()
    spans = evaluator.models.analyzer.analyze_many(
        [(t.response, [ItemRef(i.id, i.modality) for i in t.items], None) for t in traces]
    )
    sentences = [t.query for t in traces]
    sentences += [s for t in traces for i in t.items for s in tx.evidence_sentences(i.text or "")]
    sentences += [s.text for found in spans for s in found]
    backbone = evaluator.models.embedder.model
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    from sentence_transformers import SentenceTransformer

    floor = SentenceTransformer(bundled_minilm_path(), device="cpu")

    ratios, own_ratios = [], []
    for run in range(args.runs):
        evaluator.clear_caches()
        ragguard_s = _timed(lambda: guard.evaluate_many(traces))
        encode_s = _timed(lambda: floor.encode(sentences, batch_size=64, show_progress_bar=False))
        own_s = _timed(lambda: list(backbone.forward(sentences)))
        ratios.append(ragguard_s / encode_s)
        own_ratios.append(ragguard_s / own_s)
        print(
            f"run {run + 1}: ragguard {ragguard_s:.2f} s, fp32 encode pass {encode_s:.2f} s "
            f"(ratio {ratios[-1]:.2f}), own backbone pass {own_s:.2f} s "
            f"(ratio {own_ratios[-1]:.2f})",
            flush=True,
        )
    if args.profile:
        evaluator.clear_caches()
        profile = cProfile.Profile()
        profile.runcall(guard.evaluate_many, traces)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(r"ragguard|linear", 30)
    print(
        f"{len(traces)} traces, {len(sentences)} sentences; model load {load_s:.1f} s; "
        f"median ratio ragguard / fp32 encode pass {statistics.median(ratios):.2f}, "
        f"/ own backbone pass {statistics.median(own_ratios):.2f}; "
        f"peak RSS before the floor model {peak_mb:.0f} MB; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    sys.exit(main())
