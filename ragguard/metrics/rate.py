"""A hallucination rate a dashboard can trust, and whether the scores have drifted.

The rate of unsupported objective spans is estimated by prediction-powered inference
(Angelopoulos et al., "Prediction-powered inference", Science 2023): the lite verdicts of
every span, corrected by the mean gap between the judge's verdict and the lite verdict on
the uniform random sample the judge labelled. The unit is the span, the unit sampled.
Without such a sample the rate is the lite verdicts' own, and is said to be uncorrected.

Drift is the two-sample Kolmogorov-Smirnov distance between the live support scores and
the calibration sample's; past ``drift_threshold`` the scores no longer look like the ones
the threshold was fitted on.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ragguard.schema import SpanEvaluation

Z_95 = 1.959964


@dataclass(frozen=True)
class Rate:
    """An estimated rate with its 95% interval; ``corrected`` says whether a judge-labelled
    sample corrected it (``n_sample`` spans of ``n`` in all)."""

    value: float
    low: float
    high: float
    n: int
    n_sample: int
    corrected: bool

    def __str__(self) -> str:
        if not self.n:
            return "n/a"
        how = (
            f"corrected by {self.n_sample} judge-labelled spans"
            if self.corrected
            else "uncorrected: no judge-labelled sample"
        )
        return f"{self.value:.3f} (95% CI {self.low:.3f}-{self.high:.3f}; {how})"


def corrected_rate(
    predicted: Sequence[bool],
    sampled_predicted: Sequence[bool],
    sampled_judged: Sequence[bool],
) -> Rate:
    """The rate of True among all spans' ``predicted`` flags (True = unsupported), corrected
    by the sample's judged flags against its predicted ones (the PPI mean estimator)."""
    gaps = Counter(int(j) - int(p) for p, j in zip(sampled_predicted, sampled_judged, strict=True))
    return RateTally(len(predicted), sum(map(bool, predicted)), gaps).rate()


def _unit(x: float) -> float:
    return min(max(x, 0.0), 1.0)


def wilson_interval(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for a proportion (the uncorrected rate's sampling spread)."""
    denominator = 1 + Z_95**2 / n
    centre = (p + Z_95**2 / (2 * n)) / denominator
    half = Z_95 * math.sqrt(p * (1 - p) / n + Z_95**2 / (4 * n * n)) / denominator
    return max(centre - half, 0.0), min(centre + half, 1.0)


def ks_distance(a: Sequence[float], b: Sequence[float]) -> float | None:
    """The two-sample Kolmogorov-Smirnov statistic (None when either side is empty)."""
    x, y = np.sort(np.asarray(a, float)), np.sort(np.asarray(b, float))
    if not x.size or not y.size:
        return None
    grid = np.concatenate([x, y])
    cdf_x = np.searchsorted(x, grid, side="right") / x.size
    cdf_y = np.searchsorted(y, grid, side="right") / y.size
    return float(np.abs(cdf_x - cdf_y).max())


SCORES_KEPT = 5000
"""Recent live support scores the drift test keeps (bounded memory)."""
MIN_FOR_DRIFT = 50
"""Live scores needed before a drift distance is reported: fewer say little."""


@dataclass
class RateTally:
    """Running counts for the corrected rate, fed one evaluation's spans at a time; memory
    stays bounded however long it runs."""

    n: int = 0
    n_unsupported: int = 0
    gaps: Counter[int] = field(default_factory=Counter)
    """Judge minus lite verdict (1 = unsupported) on the sampled spans: -1, 0 or 1."""

    def add(self, spans: Sequence[SpanEvaluation], eta: float) -> None:
        """Objective spans with a lite score: the lite verdict at ``eta``; calibration-sampled
        ones with a judge verdict also feed the correction."""
        for span in spans:
            if span.kind != "objective" or span.support is None:
                continue
            unsupported = span.support < eta
            self.n += 1
            self.n_unsupported += unsupported
            if (
                span.calibration_sample
                and span.judge is not None
                and span.judge.verdict is not None
            ):
                self.gaps[int(not span.judge.verdict) - int(unsupported)] += 1

    def rate(self) -> Rate:
        """The corrected rate from the counts alone (constant time however long it ran)."""
        n, m = self.n, sum(self.gaps.values())
        if not n:
            return Rate(0.0, 0.0, 0.0, 0, 0, False)
        p = self.n_unsupported / n
        if m < 2:
            low, high = wilson_interval(p, n)
            return Rate(p, low, high, n, m, False)
        gap_mean = sum(g * c for g, c in self.gaps.items()) / m
        gap_var = sum(c * (g - gap_mean) ** 2 for g, c in self.gaps.items()) / (m - 1)
        f_var = p * (1 - p) * n / (n - 1) if n > 1 else 0.0
        value = p + gap_mean
        se = math.sqrt(f_var / n + gap_var / m)
        return Rate(_unit(value), _unit(value - Z_95 * se), _unit(value + Z_95 * se), n, m, True)


class DriftMonitor:
    """Recent live support scores against a reference spread (bounded memory)."""

    def __init__(self, reference: Sequence[float] = ()) -> None:
        self.reference = list(reference)
        self.recent: deque[float] = deque(maxlen=SCORES_KEPT)

    def add(self, spans: Sequence[SpanEvaluation]) -> None:
        self.recent.extend(
            s.support for s in spans if s.kind == "objective" and s.support is not None
        )

    def distance(self) -> float | None:
        """KS distance of the recent scores from the reference (None: too few of either)."""
        if len(self.recent) < MIN_FOR_DRIFT or len(self.reference) < 2:
            return None
        value = ks_distance(list(self.recent), self.reference)
        return None if value is None else round(value, 4)
