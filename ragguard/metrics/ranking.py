"""Ranking agreement with graded human relevance."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np


def ndcg_at_k(scores: Sequence[float], grades: Sequence[int], k: int = 10) -> float:
    """nDCG@k with exponential gain (2^grade - 1), ranking by descending score."""
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    gains = (2.0 ** np.asarray(grades, dtype=np.float64)) - 1.0
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = float((gains[order][:k] * discounts[: len(order[:k])]).sum())
    ideal = np.sort(gains)[::-1][:k]
    idcg = float((ideal * discounts[: len(ideal)]).sum())
    return dcg / idcg if idcg > 0 else 0.0


def pairwise_reward(scores: Sequence[float], grades: Sequence[int]) -> tuple[float, float]:
    """RAG-Check's alignment reward (Table 2): for each pair with grades r1 < r2, reward
    r2 - r1 when the scorer also ranks the second above the first, else 0; averaged over
    pairs. Returns (reward, the reward a perfect ranking would get) for scale."""
    earned, possible, pairs = 0.0, 0.0, 0
    for (s1, r1), (s2, r2) in combinations(zip(scores, grades, strict=True), 2):
        if r1 == r2:
            continue
        if r1 > r2:
            (s1, r1), (s2, r2) = (s2, r2), (s1, r1)
        pairs += 1
        possible += r2 - r1
        earned += (r2 - r1) if s2 > s1 else 0.0
    return (earned / pairs, possible / pairs) if pairs else (0.0, 0.0)
