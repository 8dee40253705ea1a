"""How well a scorer agrees with human labels (MEMERAG reports balanced accuracy)."""

from __future__ import annotations

import numpy as np


def true_rates(predicted: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """(true1, true0): recall on positives and on negatives (RAG-Check's Table 1)."""
    predicted = np.asarray(predicted, dtype=bool)
    labels = np.asarray(labels, dtype=bool)
    true1 = float(predicted[labels].mean()) if labels.any() else float("nan")
    true0 = float((~predicted[~labels]).mean()) if (~labels).any() else float("nan")
    return true1, true0


def balanced_accuracy(predicted: np.ndarray, labels: np.ndarray) -> float:
    return float(np.mean(true_rates(predicted, labels)))


def roc_auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Area under the ROC curve via the rank-sum (Mann-Whitney U) identity, ties averaged."""
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels, dtype=bool)
    n_pos, n_neg = int(labels.sum()), int((~labels).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores), dtype=np.float64)
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return float((ranks[labels].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))
