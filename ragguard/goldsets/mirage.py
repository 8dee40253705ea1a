"""MIRAGE's claim-level metrics (Martin et al.): InfoP / InfoR / InfoF1 and CiteP / CiteR / CiteF1.

Every MIRAGE metric is an average of a support score s(c, X) over a set of claims; they differ
only in which claims and which X. These functions take the scores already computed (by
``ragguard.goldsets.score``) so the arithmetic can be checked by hand.
"""

from __future__ import annotations

from collections.abc import Sequence


def _importance(n: int, weights: Sequence[float] | None) -> list[float]:
    """MIRAGE's importance I per claim, rescaled to mean 1 so a weighted score stays in [0, 1]
    and equals the unweighted one when all weights are equal (the paper leaves I's scale open)."""
    if weights is None:
        return [1.0] * n
    if len(weights) != n:
        raise ValueError(f"{len(weights)} weights for {n} claims")
    total = sum(weights)
    return [w * n / total for w in weights]


def mean_support(scores: Sequence[float], weights: Sequence[float] | None = None) -> float | None:
    """(1/|C|) * sum over claims of s(c, X) * I_c.

    InfoP (Eq. 1 / 6: X = the evidence collection E, or the reference answer), InfoR (Eq. 2 / 10:
    reference claims, X = the prediction), CiteP (Eq. 3 / 12: X = the claim's cited sources D(c),
    empty for an uncited claim, so s = 0; Eq. 4: X = the reference claims those sources attest),
    and with ``weights`` the weighted forms (Eq. 8, Eq. 11). None when there are no claims.
    """
    if not scores:
        return None
    importance = _importance(len(scores), weights)
    return sum(s * i for s, i in zip(scores, importance, strict=True)) / len(scores)


def mean_best_support(
    groups: Sequence[Sequence[float]], weights: Sequence[float] | None = None
) -> float | None:
    """(1/|C|) * sum over claims of max over sources of s(c, source), 0 for a claim with none.

    The single-source reformulation of precision (Eq. 7; weighted, Eq. 9): each claim against
    each item alone, best item wins. Also proper attribution CiteR (Eq. 5 / 13): for reference
    claim c_i, the groups are s(c_i, vs_v) for each source v attesting c_i that the prediction
    cites, vs_v being the predicted sentences citing v.
    """
    return mean_support([max(group, default=0.0) for group in groups], weights)


def f1(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of P and R (InfoF1, CiteF1); 0 when both are 0, None when either is."""
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)
