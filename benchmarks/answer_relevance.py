"""Answer relevance on the held-out fifth of the question sets' questions.

    python benchmarks/answer_relevance.py --data ../shared/data [--traces 256] [--multilingual]

No dev set holds question-answer pairs, so the questions that ``ragguard.train.answer``
held out by hash before training (QNLI, SelQA, CLAPnq) are the benchmark. Per held-out
question: its own answer (kept?), another held-out question's own answer from the same set
(swapped: flagged?) and up to two sentences of its own passages that do not answer it
(faithful but off the question: flagged?), at the threshold the head ships with.

Then the cost: the held-out questions as traces (their passages as items, their own
answers as responses) through the Evaluator in batches of 64, and the evaluator's own
``timing_ms["answer"]`` (per trace, amortised over its batch), after a first batch that
loads the models; the memory the scorer adds is the traced allocation peak of scoring one
batch plus the head and rules it holds.

``--multilingual`` reads the same held-out English questions with the head German, French,
Spanish and Hindi answers get (``answer_relevance_multilingual``, on multilingual-E5, its
scores on the English head's scale): no labelled question set in those languages is held
here, so this is the only figure of its accuracy. Its cost is the scorer's own time per
answer (the E5 encoding of the question and the answer included: English traces never pay
it), from cold caches in batches of 64.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from ragguard.evaluation.evaluator import Evaluator
from ragguard.metrics.agreement import roc_auc
from ragguard.runtime.caches import clear_caches
from ragguard.schema import Trace
from ragguard.scoring.lite.answer import AnswerRelevanceScorer
from ragguard.scoring.wiring.routing import RoutedAnswerRelevance
from ragguard.train.answer import Question, questions

Case = tuple[str, str, list[str], str, list[str]]


def cases(held: list[Question], seed: int = 0) -> list[Case]:
    """(source, kind, sentences, question, items) for own, swapped and off-question answers;
    the items are the question's passages (its trace's retrieved items)."""
    rng = random.Random(seed)
    by_source: dict[str, list[Question]] = defaultdict(list)
    for q in held:
        if q.own:
            by_source[q.source].append(q)
    out = []
    for source, group in sorted(by_source.items()):
        for q in group:
            items = [" ".join(q.passage)]
            out.append((source, "own", q.own[0], q.text, items))
            other = rng.choice([g for g in group if g.text != q.text])
            out.append((source, "swapped", other.own[0], q.text, items))
            for sentence in rng.sample(q.off, min(2, len(q.off))):
                out.append((source, "off", [sentence], q.text, items))
    return out


def _auc(own: np.ndarray, negative: np.ndarray) -> float:
    scores = np.concatenate([own, negative])
    return roc_auc(scores, np.r_[np.ones(len(own)), np.zeros(len(negative))])


def accuracy(
    scorer: AnswerRelevanceScorer,
    rows: list[Case],
    languages: tuple[str, str] | None = None,
    *,
    with_items: bool = True,
) -> None:
    pairs = [(question, sentences) for _, _, sentences, question, _ in rows]
    items = [i if with_items else [] for *_, i in rows]
    scored = scorer.score(pairs, [languages] * len(pairs), items)
    eta = scorer.threshold
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (source, kind, *_), result in zip(rows, scored, strict=True):
        assert result is not None
        for key in (source, "all"):
            table[key][kind].append(result.score)
    given = "the question's passages as items" if with_items else "no items"
    given = given if scorer.reads_items else "a head that reads no items"
    print(f"threshold {eta:.3f} (shipped with the head), {given}\n")
    print(
        "| set | questions | own kept | swapped flagged | off-question flagged "
        "| AUC own vs swapped | AUC own vs off |"
    )
    print("|---|---|---|---|---|---|---|")
    for key in [*sorted(k for k in table if k != "all"), "all"]:
        own, swapped, off = (np.array(table[key][k]) for k in ("own", "swapped", "off"))

        print(
            f"| {key} | {len(own)} | {np.mean(own >= eta):.3f} | {np.mean(swapped < eta):.3f} | "
            f"{np.mean(off < eta):.3f} | {_auc(own, swapped):.4f} | {_auc(own, off):.4f} |"
        )


def cost(held: list[Question], n: int, batch: int = 64) -> None:
    traces = [
        Trace.parse(
            {
                "trace_id": f"q{i}",
                "query": q.text,
                "items": [{"id": "p", "text": " ".join(q.off[:6] + q.own[0])}],
                "response": " ".join(q.own[0]),
            }
        )
        for i, q in enumerate(x for x in held if x.own and x.off)
    ][:n]
    evaluator = Evaluator()
    evaluator.evaluate_batch(traces[:batch])  # loads the models
    evaluator.clear_caches()
    answer, total = [], []
    for start in range(0, len(traces), batch):
        for outcome in evaluator.evaluate_batch(traces[start : start + batch]):
            answer.append(outcome.timing_ms["answer"])  # type: ignore[union-attr]
            total.append(outcome.timing_ms["total"])  # type: ignore[union-attr]
    scorer = evaluator.models.answer_scorer
    pairs = [(t.query, [t.response]) for t in traces[:batch]]
    items = [[i.text or "" for i in t.items] for t in traces[:batch]]
    tracemalloc.start()
    scorer.score(pairs, items=items)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"\n{len(traces)} traces in batches of {batch}, cold caches: answer relevance "
        f"{statistics.mean(answer):.3f} ms per trace (median {statistics.median(answer):.3f}) of "
        f"{statistics.mean(total):.1f} ms in all; scoring a batch of {batch} allocates at most "
        f"{peak / 2**20:.2f} MiB (taken on a shared 2-core machine)"
    )


def multilingual_cost(scorer: AnswerRelevanceScorer, rows: list[Case], batch: int = 64) -> None:
    clear_caches()
    pairs = [(question, sentences) for _, _, sentences, question, _ in rows]
    watch = time.perf_counter()
    for start in range(0, len(pairs), batch):
        part = pairs[start : start + batch]
        scorer.score(part, [("en", "en")] * len(part))
    ms = (time.perf_counter() - watch) * 1000 / max(len(pairs), 1)
    print(
        f"\n{len(pairs)} answers in batches of {batch}, cold caches: the multilingual answer "
        f"head {ms:.1f} ms per answer, E5 encoding included (taken on a shared 2-core machine)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--traces", type=int, default=256)
    parser.add_argument("--multilingual", action="store_true")
    args = parser.parse_args()
    held = questions(args.data, held=True)
    models = Evaluator().models
    if args.multilingual:
        routed = models.answer_scorer
        if not isinstance(routed, RoutedAnswerRelevance):
            sys.exit("--multilingual needs ragguard-eval[multilingual]")
        rows = cases(held)
        accuracy(routed.multilingual, rows, ("en", "en"))
        multilingual_cost(routed.multilingual, rows[: args.traces])
        return
    scorer = AnswerRelevanceScorer(models.embedder)
    rows = cases(held)
    accuracy(scorer, rows)
    if scorer.reads_items:
        print()
        accuracy(scorer, rows, with_items=False)
    cost(held, args.traces)


if __name__ == "__main__":
    main()
