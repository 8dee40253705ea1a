"""RAG-Check's training triplets: one context, a statement it supports and one it does not."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

import numpy as np

from ragguard.scoring.lite.pairs import Pair

Shared = Literal["context", "statement"]


def triplet_indices(
    pairs: Sequence[Pair], per_context: int, seed: int, shared: Shared = "context"
) -> tuple[np.ndarray, np.ndarray]:
    """``(k, 2)`` indices of (positive, negative) pairs sharing their ``shared`` side, up to
    ``per_context`` per group, and the indices of pairs left in no triplet (binary data).

    Support shares the context (one evidence, a supported and an unsupported statement);
    relevance shares the statement, which is the query (one query, a relevant and an
    irrelevant passage), as RAG-Check's RS triplets share the query."""
    rng = random.Random(seed)
    groups: dict[str, list[int]] = defaultdict(list)
    for index, pair in enumerate(pairs):
        groups[getattr(pair, shared)].append(index)
    triplets: list[tuple[int, int]] = []
    single: list[int] = []
    for context in sorted(groups):
        positives = [i for i in groups[context] if pairs[i].label == 1]
        negatives = [i for i in groups[context] if pairs[i].label == 0]
        rng.shuffle(positives)
        rng.shuffle(negatives)
        k = min(per_context, len(positives), len(negatives))
        triplets += zip(positives[:k], negatives[:k], strict=True)
        single += positives[k:] + negatives[k:]
    rng.shuffle(triplets)
    rng.shuffle(single)
    return np.array(triplets, dtype=np.int64).reshape(-1, 2), np.array(single, dtype=np.int64)
