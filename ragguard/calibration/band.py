"""The judge's band: the lite support scores that are sent to the LLM judge.

The band is centred on the lite eta in probability mass, not in score units: it holds
``share / 2`` of the spans just below eta and ``share / 2`` just above, on data where the
lite scorer was calibrated (training sets, never the dev sets the benchmarks report).
Those are the spans whose lite verdict is the least sure; widening the band sends more spans
to the judge (more calls and tokens, accuracy closer to the judge's).
"""

from __future__ import annotations

import numpy as np


def band_for_share(scores: np.ndarray, eta: float, share: float) -> tuple[float, float]:
    """[lo, hi] around ``eta`` holding ``share`` of ``scores`` (half on each side where the
    data allows: at the ends of the score range the band stops at the last score)."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be in [0, 1], got {share}")
    ordered = np.sort(np.asarray(scores, dtype=float))
    if ordered.size == 0:
        raise ValueError("no scores to calibrate a band on")
    below = float(np.searchsorted(ordered, eta)) / ordered.size
    lo = float(np.quantile(ordered, max(below - share / 2, 0.0)))
    hi = float(np.quantile(ordered, min(below + share / 2, 1.0)))
    return round(min(lo, eta), 3), round(max(hi, eta), 3)


def share_in_band(scores: np.ndarray, band: tuple[float, float]) -> float:
    """The share of ``scores`` that fall in the closed band."""
    values = np.asarray(scores, dtype=float)
    if values.size == 0:
        return 0.0
    return float(((values >= band[0]) & (values <= band[1])).mean())
