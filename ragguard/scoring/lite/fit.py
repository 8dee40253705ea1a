"""Fit a lite head: features from a lite scorer, a small MLP, eta calibrated per RAG-Check."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ragguard.metrics import balanced_accuracy, roc_auc, true_rates
from ragguard.scoring.lite.heads import Head, Layer, equal_error_threshold
from ragguard.scoring.lite.losses import balanced_bce, pairwise_loss
from ragguard.scoring.lite.pairs import Pair
from ragguard.scoring.lite.triplets import Shared, triplet_indices


@dataclass
class FitResult:
    head: Head
    validation: dict[str, Any]


def with_unrelated_negatives(pairs: list[Pair], share: float, seed: int) -> list[Pair]:
    """Add negatives that pair statements with the context of another, random row.

    NLI-style sets only hold topically related negatives, so without these a head has never
    seen evidence about something else entirely, which is most of what a retriever returns
    wrongly, and it extrapolates there."""
    rng = random.Random(seed)
    extra = []
    for pair in rng.sample(pairs, int(len(pairs) * share)):
        other = rng.choice(pairs)
        if other.context != pair.context:
            extra.append(Pair(other.context, pair.statement, 0, "unrelated"))
    return pairs + extra


def sample_pairs(
    pairs: Iterable[Pair], per_source: int, seed: int
) -> tuple[list[Pair], list[Pair]]:
    """Up to ``per_source`` pairs from each source, class-balanced where possible, split
    85/15 into train and validation (deterministic given ``seed``)."""
    by_key: dict[tuple[str, int], list[Pair]] = defaultdict(list)
    for pair in pairs:
        by_key[(pair.source, pair.label)].append(pair)
    rng = random.Random(seed)
    train: list[Pair] = []
    valid: list[Pair] = []
    for key in sorted(by_key):
        rows = by_key[key]
        rng.shuffle(rows)
        rows = rows[: per_source // 2]
        cut = int(len(rows) * 0.85)
        train += rows[:cut]
        valid += rows[cut:]
    rng.shuffle(train)
    return train, valid


def fit_mlp(
    x: np.ndarray,
    y: np.ndarray,
    *,
    triplets: np.ndarray | None = None,
    hidden: int = 16,
    epochs: int = 300,
    lr: float = 0.01,
    weight_decay: float = 1e-4,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray, list[Layer]]:
    """Full-batch Adam; returns standardization and layers in the numpy ``Head`` format.

    The loss is RAG-Check's pairwise loss over ``triplets`` (rows of (positive, negative)
    indices into ``x`` sharing a context) plus class-balanced binary cross-entropy over every
    row: the pairwise term orders statements about the same evidence, the binary term
    anchors the scale where only plain labels exist. ``hidden=0`` fits a logistic
    regression."""
    import torch

    torch.manual_seed(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-6
    xt = torch.tensor((x - mean) / std, dtype=torch.float32)
    yt = torch.tensor(y, dtype=torch.float32)
    model = (
        torch.nn.Sequential(torch.nn.Linear(x.shape[1], 1))
        if hidden == 0
        else torch.nn.Sequential(
            torch.nn.Linear(x.shape[1], hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, 1)
        )
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    pairs = torch.as_tensor(triplets if triplets is not None else np.zeros((0, 2), np.int64))
    for _ in range(epochs):
        optimizer.zero_grad()
        logits = model(xt)[:, 0]
        loss = balanced_bce(logits, yt)
        if len(pairs):
            loss = loss + pairwise_loss(logits[pairs[:, 0]], logits[pairs[:, 1]])
        loss.backward()
        optimizer.step()
    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    layers = [
        Layer(
            m.weight.detach().numpy().T.copy(),
            m.bias.detach().numpy().copy(),
            "linear" if m is linear[-1] else "tanh",
        )
        for m in linear
    ]
    return mean.astype(np.float32), std.astype(np.float32), layers


def fit_head(
    name: str,
    feature_names: Sequence[str],
    featurize: Callable[[Sequence[Pair]], np.ndarray],
    train: Sequence[Pair],
    valid: Sequence[Pair],
    *,
    seed: int,
    hidden: int,
    card: dict[str, Any],
    pairwise: bool = True,
    shared: Shared = "context",
    adjust: Callable[[np.ndarray, Sequence[Pair]], np.ndarray] | None = None,
) -> FitResult:
    """Fit on ``feature_names``, a subset (in order) of the columns ``featurize`` returns;
    with ``pairwise``, triplets are drawn from training pairs sharing their ``shared`` side.
    ``adjust`` turns the head's validation scores into the scorer's (a veto) before eta is
    calibrated, so eta is the one the scorer needs."""
    x_train = featurize(train)
    y_train = np.array([p.label for p in train], dtype=np.float32)
    triplets = triplet_indices(train, 2, seed, shared)[0] if pairwise else None
    mean, std, layers = fit_mlp(x_train, y_train, triplets=triplets, hidden=hidden, seed=seed)
    head = Head(name, list(feature_names), mean, std, layers, card=card)
    scores = head.predict(featurize(valid))
    if adjust is not None:
        scores = adjust(scores, valid)
    labels = np.array([p.label for p in valid], dtype=bool)
    head.threshold = equal_error_threshold(scores, labels)
    predicted = scores >= head.threshold
    true1, true0 = true_rates(predicted, labels)
    validation = {
        "pairs": len(valid),
        "balanced_accuracy": round(balanced_accuracy(predicted, labels), 4),
        "auc": round(roc_auc(scores, labels), 4),
        "true1": round(true1, 4),
        "true0": round(true0, 4),
        "eta": round(head.threshold, 4),
    }
    head.card = {
        **card,
        "loss": (
            "RAG-Check pairwise loss on triplets + class-balanced binary cross-entropy"
            if pairwise
            else "class-balanced binary cross-entropy"
        ),
        "train_pairs": len(train),
        "train_triplets": 0 if triplets is None else len(triplets),
        "validation": validation,
    }
    return FitResult(head, validation)
