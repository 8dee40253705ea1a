"""Choose a lite head's recipe by leave-one-source-out over the training sets only.

    python benchmarks/select_heads.py support --data DIR [--per-source 1500] [--seed 0]
    python benchmarks/select_heads.py relevance --data DIR

Every training pair (plus unrelated-context negatives and, for support, the hard-negative
edits of ``ragguard train``) is featurized once; then, for each recipe and each source, a
head is fitted on the other sources, its eta calibrated there (equal true0/true1, with the
recipe's veto applied), and it is scored on the held-out source: balanced accuracy and AUC
on the natural pairs, and for support the share of the held-out source's edits flagged
(scored below eta). The development sets are never read: the recipe is chosen here, and
their figures are reported after, by ``benchmarks/accuracy.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragguard.metrics.agreement import balanced_accuracy, roc_auc
from ragguard.metrics.summary import markdown_table
from ragguard.scoring.checks import CONTRADICTIONS, check
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lite import Pair
from ragguard.scoring.lite.fit import fit_mlp, sample_pairs, with_unrelated_negatives
from ragguard.scoring.lite.heads import Head, equal_error_threshold
from ragguard.scoring.lite.scorers import (
    CHECK_FEATURES,
    RELEVANCE_FEATURES,
    SUPPORT_FEATURES,
    check_features,
    vetoed,
)
from ragguard.scoring.lite.triplets import triplet_indices
from ragguard.train.datasets import RELEVANCE_SOURCES, SUPPORT_SOURCES
from ragguard.train.lite import featurizer
from ragguard.train.perturb import hard_negatives


@dataclass(frozen=True)
class Recipe:
    name: str
    features: tuple[str, ...]
    hidden: int = 0
    edits: bool = True
    veto: tuple[str, ...] = ()


def support_recipes() -> list[Recipe]:
    every = tuple(SUPPORT_FEATURES)
    plain = tuple(f for f in every if f not in ("contradiction", "uncovered"))
    veto = tuple(CONTRADICTIONS)
    return [
        Recipe("check features + edits + veto (shipped recipe)", every, veto=veto),
        Recipe("check features + edits, no veto", every),
        Recipe("check features, no edits, veto", every, edits=False, veto=veto),
        Recipe("no check features + edits + veto", plain, veto=veto),
        Recipe("check features + edits + veto, MLP 16", every, hidden=16, veto=veto),
        Recipe(
            "check features + edits + veto without entity",
            every,
            veto=tuple(v for v in veto if v != "entity"),
        ),
    ]


def relevance_recipes() -> list[Recipe]:
    return [
        Recipe(
            "sim_passage + token_align_mean (shipped recipe)", ("sim_passage", "token_align_mean")
        ),
        Recipe("all features", tuple(RELEVANCE_FEATURES)),
        Recipe("all features, MLP 16", tuple(RELEVANCE_FEATURES), hidden=16),
    ]


def training_pairs(
    role: str, data: Path, per_source: int, seed: int
) -> tuple[list[Pair], np.ndarray]:
    """The training pairs of every source, and which of them are hard-negative edits."""
    registry = SUPPORT_SOURCES if role == "support" else RELEVANCE_SOURCES
    pairs: list[Pair] = []
    edited: list[bool] = []
    for name, read in registry.items():
        train, valid = sample_pairs(read(data), per_source, seed)
        natural = train + valid
        extra = with_unrelated_negatives(natural, 0.15, seed)[len(natural) :]
        natural += [replace(p, source=name) for p in extra]
        made = hard_negatives(natural, 0.5, seed)[0] if role == "support" else natural
        pairs += made
        edited += [False] * len(natural) + [True] * (len(made) - len(natural))
    return pairs, np.array(edited, dtype=bool)


def loso(
    recipe: Recipe,
    role: str,
    x: np.ndarray,
    pairs: Sequence[Pair],
    edited: np.ndarray,
    reasons: list[tuple[Reason, ...]],
    seed: int,
) -> dict[str, object]:
    available = SUPPORT_FEATURES if role == "support" else RELEVANCE_FEATURES
    columns = [available.index(f) for f in recipe.features]
    sources = np.array([p.source for p in pairs])
    labels = np.array([p.label for p in pairs], dtype=bool)
    veto = frozenset(recipe.veto)
    row: dict[str, object] = {"recipe": recipe.name}
    accuracies, aucs, flagged = [], [], []
    for held in dict.fromkeys(sources):
        train = (sources != held) & (recipe.edits | ~edited)
        index = np.flatnonzero(train)
        shared = "context" if role == "support" else "statement"
        triplets = triplet_indices([pairs[i] for i in index], 2, seed, shared)[0]
        mean, std, layers = fit_mlp(
            x[index][:, columns],
            labels[index].astype(np.float32),
            triplets=triplets,
            hidden=recipe.hidden,
            seed=seed,
        )
        head = Head("loso", list(recipe.features), mean, std, layers)

        def scores(rows: np.ndarray, head: Head = head) -> np.ndarray:
            raw = head.predict(x[rows][:, columns])
            found = [reasons[i] for i in rows]
            return vetoed(raw, found, veto, float(raw.min(initial=0.0))) if veto else raw

        eta = equal_error_threshold(scores(index), labels[index])
        test = np.flatnonzero((sources == held) & ~edited)
        test_scores = scores(test)
        accuracies.append(balanced_accuracy(test_scores >= eta, labels[test]))
        aucs.append(roc_auc(test_scores, labels[test]))
        row[held] = accuracies[-1]
        edits = np.flatnonzero((sources == held) & edited)
        if len(edits):
            flagged.append(float(np.mean(scores(edits) < eta)))
    row["BA"] = float(np.mean(accuracies))
    row["AUC"] = float(np.mean(aucs))
    if flagged:
        row["edits flagged"] = float(np.mean(flagged))
    return row


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("role", choices=["support", "relevance"])
    parser.add_argument("--data", type=Path, required=True, help="folder of the training sets")
    parser.add_argument("--per-source", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--cache",
        type=Path,
        help="features saved here on the first run and read back after (the check columns "
        "are always recomputed, so changed checks need no new encoding)",
    )
    args = parser.parse_args(argv)
    pairs, edited = training_pairs(args.role, args.data, args.per_source, args.seed)
    x = np.load(args.cache) if args.cache and args.cache.exists() else np.zeros((0, 0))
    if len(x) != len(pairs):  # no cache, or one made for other pairs (the edits changed)
        names = SUPPORT_FEATURES if args.role == "support" else RELEVANCE_FEATURES
        x = featurizer(args.role, TextEmbedder(), list(range(len(names))), True)(pairs)
        if args.cache:
            np.save(args.cache, x)
    support = args.role == "support"
    reasons = [check(p.statement, p.context) if support else () for p in pairs]
    if support:
        columns = [SUPPORT_FEATURES.index(f) for f in CHECK_FEATURES]
        x[:, columns] = [check_features(r) for r in reasons]
    recipes = support_recipes() if support else relevance_recipes()
    rows = [
        loso(r, args.role, x, pairs, edited, reasons, args.seed) for r in tqdm(recipes, "recipes")
    ]
    print(f"\n{len(pairs)} pairs ({int(edited.sum())} edits); held-out BA per source\n")
    columns = ["recipe", *dict.fromkeys(p.source for p in pairs), "BA", "AUC"]
    print(markdown_table(rows, columns + (["edits flagged"] if support else [])))
    print(f"\nchosen: {choose(rows)['recipe']}")


def choose(rows: list[dict[str, object]]) -> dict[str, object]:
    """Among recipes within 0.01 of the best held-out balanced accuracy: the one that flags
    the most edits (support), or the first, i.e. the simplest (relevance)."""
    best = max(float(str(r["BA"])) for r in rows)
    close = [r for r in rows if float(str(r["BA"])) >= best - 0.01]
    return max(close, key=lambda r: float(str(r.get("edits flagged", 0.0))))


if __name__ == "__main__":
    sys.exit(main())
