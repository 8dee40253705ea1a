"""CRUX's sub-question coverage metrics for a retrieval context (Ju et al., "Controlled
Retrieval-augmented Context Evaluation for Long-form RAG").

Inputs are binary answerability matrices, one row per text (ranked item, or the response) and
one column per sub-question: row r, column i is G(z_r, q_i) >= eta (Eq. 2), decided by a grader.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ALPHA = 0.5
"""alpha-nDCG's redundancy discount (CRUX uses ir_measures' alpha_nDCG, whose default is 0.5)."""
DENSITY_WEIGHT = 0.5
"""Den's exponent w (Eq. 6)."""


def _matrix(answerable: np.ndarray | Sequence[Sequence[bool]], n_questions: int) -> np.ndarray:
    return np.asarray(answerable, dtype=bool).reshape(-1, n_questions)


def coverage(answerable: np.ndarray | Sequence[Sequence[bool]], n_questions: int) -> float | None:
    """Cov(Z), Eq. 3: share of the sub-questions that some text of the context answers. Applied
    to the response's single row it is Cov(y). None when there are no sub-questions."""
    if n_questions == 0:
        return None
    return float(_matrix(answerable, n_questions).any(axis=0).sum()) / n_questions


def novelty_gains(answerable: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """ng(r), Eq. 5: sum over sub-questions of I_{i,r} * (1 - alpha)^{c_{i,r-1}}, where c counts
    the texts ranked above r that already answer q_i."""
    matrix = np.asarray(answerable, dtype=np.float64)
    seen_before = np.cumsum(matrix, axis=0) - matrix
    return (matrix * (1.0 - alpha) ** seen_before).sum(axis=1)


def _dcg(gains: np.ndarray) -> float:
    return float((gains / np.log2(np.arange(2, len(gains) + 2))).sum())


def greedy_ideal(pool: np.ndarray, depth: int, alpha: float = ALPHA) -> np.ndarray:
    """The ideal ranking's rows: at each rank the pool text with the largest novelty gain given
    those already placed (the greedy approximation alpha-nDCG's ideal uses)."""
    remaining = list(range(len(pool)))
    seen = np.zeros(pool.shape[1])
    order: list[int] = []
    while remaining and len(order) < depth:
        gains = [(pool[k] * (1.0 - alpha) ** seen).sum() for k in remaining]
        best = remaining.pop(int(np.argmax(gains)))
        order.append(best)
        seen += pool[best]
    return pool[order]


def alpha_ndcg(
    ranked: np.ndarray | Sequence[Sequence[bool]],
    pool: np.ndarray | Sequence[Sequence[bool]],
    n_questions: int,
    alpha: float = ALPHA,
) -> float | None:
    """Ranked coverage, Eq. 4: DCG of the novelty gains of the ranking, over that of the greedy
    ideal ranking of ``pool`` (every graded text: the oracle context and the retrieved items) cut
    at the same depth. None without sub-questions or when nothing in the pool answers any."""
    ranked_m = _matrix(ranked, n_questions).astype(np.float64)
    pool_m = _matrix(pool, n_questions).astype(np.float64)
    if n_questions == 0 or len(ranked_m) == 0:
        return None
    ideal = _dcg(novelty_gains(greedy_ideal(pool_m, len(ranked_m), alpha), alpha))
    return _dcg(novelty_gains(ranked_m, alpha)) / ideal if ideal > 0 else None


def density(
    cov: float | None,
    tokens: int,
    oracle_cov: float | None,
    oracle_tokens: int,
    w: float = DENSITY_WEIGHT,
) -> float | None:
    """Den, Eq. 6: ((Cov / tokens) / (Cov(Z*) / tokens(Z*)))^w, coverage per token relative to
    the oracle context Z*. None when either side is undefined or the oracle covers nothing."""
    if cov is None or oracle_cov is None or not oracle_cov or tokens == 0 or oracle_tokens == 0:
        return None
    return float(((cov / tokens) / (oracle_cov / oracle_tokens)) ** w)


def redundant(ranked: np.ndarray | Sequence[Sequence[bool]], n_questions: int) -> list[int]:
    """Ranks (0-based) of the texts that answer no sub-question left unanswered by the texts
    ranked above them: the redundant retrieval CRUX diagnoses (answering none counts too)."""
    matrix = _matrix(ranked, n_questions)
    seen = np.zeros(n_questions, dtype=bool)
    found = []
    for rank, row in enumerate(matrix):
        if not (row & ~seen).any():
            found.append(rank)
        seen |= row
    return found


def token_count(texts: Sequence[str]) -> int:
    """token(.) of Eq. 6, as whitespace-separated tokens (CRUX used a model tokenizer)."""
    return sum(len(text.split()) for text in texts)
