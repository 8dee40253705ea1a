"""Accuracy of ragguard's scorers against human labels, beside a raw-cosine baseline.

    python benchmarks/accuracy.py --data DIR [--config CONFIG.toml] [--limit N] [--speed-only]

Support (CS): WiCE dev and Factcheck-GPT, balanced accuracy at the scorer's calibrated eta
(chosen on training data, never on these sets), AUC, true1/true0, and the share of
single-edit contradictions of their supported claims flagged (``contradictions.py``).
Relevance (RS): NovelEval nDCG@10 and RAG-Check's pairwise reward. Plus pairs/s on this
machine, and spans/s and items/s with 5 passages per span (cold cache, and passages
already embedded).
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import contradictions
import devsets

from ragguard import Config
from ragguard.evaluation.evaluator import Evaluator
from ragguard.metrics.agreement import balanced_accuracy, roc_auc, true_rates
from ragguard.metrics.ranking import ndcg_at_k, pairwise_reward
from ragguard.metrics.summary import markdown_table as table
from ragguard.scoring.encoders.blas import one_blas_thread
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.lite.heads import equal_error_threshold
from ragguard.scoring.lite.scorers import SentenceIndex
from ragguard.train.datasets import SUPPORT_SOURCES

BATCH = 128


class CosineBaseline:
    """Raw MiniLM cosine: query-passage for RS, best evidence sentence for CS. Its eta is
    calibrated like the heads', on training data (FEVER-NLI / MNLI pairs)."""

    def __init__(self, embedder, data: Path) -> None:
        self.embedder = embedder
        sample = list(
            itertools.chain(
                itertools.islice(SUPPORT_SOURCES["fever-nli-binary"](data), 1000),
                itertools.islice(SUPPORT_SOURCES["mnli-binary"](data), 1000),
            )
        )
        scores = self.support(
            [Claim(p.statement) for p in sample], [Evidence("e", p.context) for p in sample]
        )
        self.threshold = equal_error_threshold(scores, np.array([p.label for p in sample]))

    def support(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> np.ndarray:
        texts = [c.text for c in claims]
        index = SentenceIndex(self.embedder, [e.text or "" for e in evidence], texts)
        vectors = self.embedder.encode(texts)
        return np.array([index.align(i, v)[0].max() for i, v in enumerate(vectors)])

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        q = self.embedder.encode(list(queries))
        p = self.embedder.encode([e.text or "" for e in evidence])
        return (q * p).sum(axis=1)


def _batched(score: Callable, a: list, b: list, desc: str) -> tuple[np.ndarray, float]:
    out = []
    started = time.perf_counter()
    for i in tqdm(range(0, len(a), BATCH), desc=desc, leave=False, disable=None):
        out.append(score(a[i : i + BATCH], b[i : i + BATCH]))
    return np.concatenate(out), len(a) / (time.perf_counter() - started)


def support_row(name: str, scorer, cases: list, set_name: str) -> dict:
    claims = [Claim(c.claim) for c in cases]
    evidence = [Evidence(str(i), c.evidence) for i, c in enumerate(cases)]
    scores, speed = _batched(scorer.support, claims, evidence, f"{name} {set_name}")
    labels = np.array([c.label for c in cases])
    predicted = scores >= scorer.threshold
    true1, true0 = true_rates(predicted, labels)
    return {
        "scorer": name,
        "set": set_name,
        "n": len(cases),
        "balanced_acc": balanced_accuracy(predicted, labels),
        "auc": roc_auc(scores, labels),
        "true1": true1,
        "true0": true0,
        "eta": scorer.threshold,
        "pairs_per_s": speed,
    }


def relevance_row(name: str, scorer, data: Path) -> dict:
    queries, corpus, qrels = devsets.noveleval(data)
    qs, evidence, keys = [], [], []
    for qid, grades in qrels.items():
        for docid in grades:
            qs.append(queries[qid])
            evidence.append(Evidence(docid, corpus[docid]))
            keys.append((qid, docid))
    scores, speed = _batched(scorer.relevance, qs, evidence, f"{name} noveleval")
    by_query: dict[str, list[tuple[float, int]]] = {}
    for (qid, docid), score in zip(keys, scores, strict=False):
        by_query.setdefault(qid, []).append((float(score), qrels[qid][docid]))
    ndcg = np.mean([ndcg_at_k([s for s, _ in v], [g for _, g in v], 10) for v in by_query.values()])
    rewards = [pairwise_reward([s for s, _ in v], [g for _, g in v]) for v in by_query.values()]
    return {
        "scorer": name,
        "set": "noveleval",
        "n": len(keys),
        "ndcg@10": float(ndcg),
        "pairwise_reward": float(np.mean([r for r, _ in rewards])),
        "reward_max": float(np.mean([m for _, m in rewards])),
        "pairs_per_s": speed,
    }


SPEED_COLUMNS = ["scorer", "spans_per_s", "spans_per_s_warm", "items_per_s", "items_per_s_warm"]


def throughput_row(name: str, support, relevance, evaluator, cases: list, n: int = 100) -> dict:
    """Spans/s of CS against 5 passages per span and items/s of RS, as in a live request:
    from cold caches, and warm: the passages recur across requests, so an earlier request
    (another claim or query) has embedded and parsed them, as the live caches keep both."""
    n = min(n, len(cases))
    claims = [Claim(c.claim) for c in cases[:n] for _ in range(5)]
    queries = [c.claim for c in cases[:n] for _ in range(5)]
    passages = [cases[(i + j * 7) % len(cases)].evidence for i in range(n) for j in range(5)]
    evidence = [Evidence(str(k), text) for k, text in enumerate(passages)]

    earlier = "An earlier answer said something else."  # another claim, or query, before

    def timed(run: Callable[[], object], warm: bool) -> float:
        evaluator.clear_caches()
        if warm:  # the passages recur: an earlier request embedded and parsed them
            support.support([Claim(earlier)] * len(evidence), evidence)
            relevance.relevance([earlier] * len(evidence), evidence)
        started = time.perf_counter()
        with one_blas_thread():  # as the evaluator runs them
            run()
        return time.perf_counter() - started

    return {
        "scorer": name,
        "spans_per_s": n / timed(lambda: support.support(claims, evidence), False),
        "spans_per_s_warm": n / timed(lambda: support.support(claims, evidence), True),
        "items_per_s": 5 * n / timed(lambda: relevance.relevance(queries, evidence), False),
        "items_per_s_warm": 5 * n / timed(lambda: relevance.relevance(queries, evidence), True),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", help="ragguard config (TOML/JSON); default: the lite tier")
    devsets.add_data_argument(parser)
    parser.add_argument("--limit", type=int, default=None, help="cases per support set")
    parser.add_argument("--no-baseline", action="store_true", help="skip the raw-cosine rows")
    parser.add_argument(
        "--speed-only",
        action="store_true",
        help="only the throughput table (seconds, not minutes: for alternating timing runs)",
    )
    args = parser.parse_args(argv)
    data: Path = args.data

    config = Config.from_file(args.config) if args.config else Config()
    evaluator = Evaluator(config)
    label = f"ragguard {config.support.backend}"
    scorers = [(label, evaluator.models.support_scorer, evaluator.models.relevance_scorer)]
    if not args.no_baseline:
        baseline = CosineBaseline(evaluator.models.embedder, data)
        scorers.append(("raw cosine (MiniLM)", baseline, baseline))

    support_rows, relevance_rows, speed_rows = [], [], []
    sets = {"wice-dev": devsets.wice(data), "factcheck-gpt": devsets.factcheck_gpt(data)}
    for name, support, relevance in scorers:
        evaluator.clear_caches()  # every scorer's speed is measured from a cold cache
        if args.speed_only:  # load the models outside the timed runs
            support.support([Claim("A claim.")], [Evidence("0", "A passage.")])
        else:
            for set_name, cases in sets.items():
                support_rows.append(support_row(name, support, cases[: args.limit], set_name))
            relevance_rows.append(relevance_row(name, relevance, data))
        speed_rows.append(
            throughput_row(name, support, relevance, evaluator, sets["factcheck-gpt"])
        )
    if args.speed_only:
        print(table(speed_rows, SPEED_COLUMNS))
        return

    print("Support (CS) against human labels\n")
    print(
        table(
            support_rows,
            ["scorer", "set", "n", "balanced_acc", "auc", "true1", "true0", "eta", "pairs_per_s"],
        )
    )
    print("\nSingle-edit contradictions of supported dev claims (benchmarks/contradictions.py)\n")
    edits = contradictions.edit_rows(evaluator.models.support_scorer, sets)
    print(table(edits, ["set", "edit", "n", "flagged", "caught"]))
    print("\nRelevance (RS) against human grades\n")
    print(
        table(
            relevance_rows,
            ["scorer", "set", "n", "ndcg@10", "pairwise_reward", "reward_max", "pairs_per_s"],
        )
    )
    print(f"\nThroughput on this machine ({os.cpu_count()} CPUs): 5 passages per span/query\n")
    print(table(speed_rows, SPEED_COLUMNS))


if __name__ == "__main__":
    main()
