"""Fitting the support decision to one deployment's labels, shrunk toward the default.

The threshold comes from a two-parameter logistic model of "supported" on the logit of the
lite score, ``p = sigmoid(a + b * (logit(s) - logit(eta0)))``, fitted with class-balanced
weights and a Gaussian prior centred on the default (``a = 0``: the default eta decides;
``b = PRIOR_SLOPE``). Its decision point, ``a + b * (logit(s) - logit(eta0)) = 0``, is the
fitted eta. With few labels the prior dominates and eta barely moves; with many it follows
the data (a regularised, maximum a posteriori estimate). The fit is then checked under
stratified cross-validation against the default eta, and written only if it is shown
better: the 95% interval of its gain in balanced accuracy, bootstrapped over the labelled
spans with both decisions on the same resample, lies above 0. Labels that agree with the
scores less than chance does are reported as a likely inverted polarity, never fitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ragguard.calibration.band import band_for_share
from ragguard.metrics import balanced_accuracy

PRIOR_SLOPE = 1.0
"""The prior's slope on logit(score): about what the lite head's own calibration gives."""
PRIOR_SD_OFFSET = 1.0
"""Prior spread of the offset ``a`` (logit units). Chosen on the training sets with
``benchmarks/calibration.py --choose`` (each training set as a deployment)."""
PRIOR_SD_SLOPE = 1.0
"""Prior spread of the slope ``b``."""
MIN_SLOPE = 0.05
"""The slope is kept positive: a higher score never means less support."""
FOLDS = 5
TOO_FEW = 50
"""Fewer labelled spans than this draw a warning saying what the threshold did on them."""
ONE_SIDED = 0.1
"""A minority class below this share of the labels draws a warning."""
CHANCE = 0.5
"""Balanced accuracy of a decision that ignores the scores. A 95% interval wholly below it,
for the default or for the fit, says the labels run against the scores: most likely
``true`` was written for "not supported" (a file of hallucination flags)."""
_EPS = 1e-4


def _balanced(predicted: np.ndarray, labels: np.ndarray) -> float:
    """Balanced accuracy, 0.5 where a class is missing (a resample may draw none of one)."""
    value = balanced_accuracy(predicted, labels)
    return 0.5 if np.isnan(value) else value


def _logit(scores: np.ndarray) -> np.ndarray:
    clipped = np.clip(np.asarray(scores, float), _EPS, 1 - _EPS)
    return np.log(clipped / (1 - clipped))


def fit_threshold(scores: np.ndarray, labels: np.ndarray, default: float) -> float:
    """The maximum a posteriori eta (module docstring); ``default`` with no labels."""
    scores, labels = np.asarray(scores, float), np.asarray(labels, bool)
    if scores.size == 0 or labels.all() or not labels.any():
        return default
    x = _logit(scores) - _logit(np.array([default]))[0]
    y = labels.astype(float)
    weights = np.where(labels, 0.5 / labels.mean(), 0.5 / (1 - labels.mean()))
    prior_mean = np.array([0.0, PRIOR_SLOPE])
    prior_precision = np.diag([1 / PRIOR_SD_OFFSET**2, 1 / PRIOR_SD_SLOPE**2])
    design = np.column_stack([np.ones_like(x), x])
    theta = prior_mean.copy()
    for _ in range(50):  # Newton's method on a concave two-parameter objective
        p = 1 / (1 + np.exp(-(design @ theta)))
        gradient = design.T @ (weights * (y - p)) - prior_precision @ (theta - prior_mean)
        hessian = -(design.T * (weights * p * (1 - p))) @ design - prior_precision
        step = np.linalg.solve(hessian, gradient)
        theta = theta - step
        theta[1] = max(theta[1], MIN_SLOPE)
        if np.abs(step).max() < 1e-8:
            break
    offset, slope = theta
    decision = _logit(np.array([default]))[0] - offset / slope
    return round(float(1 / (1 + np.exp(-decision))), 4)


def _folds(labels: np.ndarray, k: int, seed: int) -> np.ndarray:
    """A fold number per label, stratified: each class spread evenly over the folds."""
    rng = np.random.default_rng(seed)
    fold = np.empty(labels.size, dtype=int)
    for c in (True, False):
        where = np.flatnonzero(labels == c)
        rng.shuffle(where)
        fold[where] = np.arange(where.size) % k
    return fold


NO_INTERVAL = (float("nan"), float("nan"))


def _resampled(
    decisions: Sequence[np.ndarray], labels: np.ndarray, seed: int, rounds: int
) -> np.ndarray:
    """Balanced accuracy of each decision (columns) on ``rounds`` bootstrap resamples of the
    labelled spans (rows), every decision on the same resample: paired, so a difference of
    two columns is the gain's own spread."""
    rng = np.random.default_rng(seed)
    values = np.empty((max(rounds, 0), len(decisions)))
    for row in range(values.shape[0]):
        pick = rng.integers(0, labels.size, labels.size)
        values[row] = [_balanced(decision[pick], labels[pick]) for decision in decisions]
    return values


def _interval(values: np.ndarray) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap ``values`` (NO_INTERVAL for none)."""
    if not values.size:
        return NO_INTERVAL
    low, high = np.percentile(values, [2.5, 97.5])
    return round(float(low), 3), round(float(high), 3)


def _bootstrap(
    correct_by: np.ndarray, labels: np.ndarray, seed: int, rounds: int = 1000
) -> tuple[float, float]:
    """95% percentile interval of balanced accuracy, resampling the labelled spans."""
    return _interval(_resampled([correct_by], labels, seed, rounds)[:, 0])


def shown_better(gain: tuple[float, float]) -> bool:
    """Whether a gain's 95% interval lies above 0 (never with no interval)."""
    return bool(gain[0] > 0.0)


@dataclass
class Fit:
    """A calibration's outcome and the evidence for it (what the card prints)."""

    default: float
    threshold: float
    band: tuple[float, float]
    n_labels: int
    n_supported: int
    cv_default: float
    cv_fitted: float
    cv_default_interval: tuple[float, float]
    cv_fitted_interval: tuple[float, float]
    kept_default: bool
    score_quantiles: list[float] = field(default_factory=list)
    """The spread of the scores at 41 quantiles: the drift test's reference."""
    warnings: list[str] = field(default_factory=list)
    gain_interval: tuple[float, float] = NO_INTERVAL
    """95% paired bootstrap interval of the fit's gain in balanced accuracy over the
    default: the fit is shown better when it lies above 0."""
    inverted: bool = False
    """The labels run against the scores (``CHANCE``): reported, and the default kept."""


def calibrate(
    scores: Sequence[float],
    labels: Sequence[bool],
    default: float,
    *,
    band_share: float = 0.2,
    all_scores: Sequence[float] | None = None,
    kept: Sequence[bool] = (),
    seed: int = 0,
    bootstrap_rounds: int = 1000,
    min_gain: float = 0.0,
    default_band: tuple[float, float] | None = None,
    must_show_better: bool = True,
) -> Fit:
    """Fit eta on labelled lite scores; keep the default (and ``default_band``) unless the
    fit is shown better under cross-validation and beats it by more than ``min_gain`` (a
    judge's noisy labels need a margin; its running refits, which draw no intervals, turn
    ``must_show_better`` off). The band holds ``band_share`` of ``all_scores`` (every scored
    span; the labelled ones by default) around eta. ``kept``: labels of spans never scored
    (subjective, abstentions, nothing to check against), counted as kept, as a monitor does."""
    s, y = np.asarray(scores, float), np.asarray(labels, bool)
    kept_labels = np.asarray(kept, bool)
    warnings = _one_sided(y)
    checked = _cross_validate(s, y, kept_labels, default, seed, bootstrap_rounds)
    if checked is None:
        warnings.append("too few labels of each class to cross-validate: the default is kept")
        checked = _uncheckable(s, kept_labels, np.concatenate([y, kept_labels]), default)
    better = checked.fitted > checked.default + min_gain
    if must_show_better:
        better = better and shown_better(checked.gain_interval)
    if checked.inverted:
        warnings.insert(0, _inverted(checked))
    kept_default = checked.inverted or not better
    threshold = default if kept_default else fit_threshold(s, y, default)
    if y.size < TOO_FEW:
        warnings.insert(0, _few_labels(y.size, default, threshold))
    spread = np.asarray(all_scores if all_scores is not None and len(all_scores) else s, float)
    if kept_default and default_band is not None:
        band = default_band
    else:
        band = band_for_share(spread, threshold, band_share) if spread.size else (threshold,) * 2
    return Fit(
        default=default,
        threshold=threshold,
        band=band,
        n_labels=int(y.size + kept_labels.size),
        n_supported=int(y.sum() + kept_labels.sum()),
        cv_default=round(checked.default, 4),
        cv_fitted=round(checked.fitted, 4),
        cv_default_interval=checked.default_interval,
        cv_fitted_interval=checked.fitted_interval,
        kept_default=kept_default,
        score_quantiles=quantiles(spread),
        warnings=warnings,
        gain_interval=checked.gain_interval,
        inverted=checked.inverted,
    )


@dataclass(frozen=True)
class _Checked:
    """Cross-validated balanced accuracy of the default and of the fit, with intervals."""

    default: float
    fitted: float
    default_interval: tuple[float, float]
    fitted_interval: tuple[float, float]
    gain_interval: tuple[float, float] = NO_INTERVAL

    @property
    def inverted(self) -> bool:
        """Either decision's bootstrap interval wholly below chance (``CHANCE``)."""
        bootstrapped = not np.isnan(self.gain_interval[0])
        highs = (self.default_interval[1], self.fitted_interval[1])
        return bootstrapped and any(high < CHANCE for high in highs)


def _cross_validate(
    s: np.ndarray, y: np.ndarray, kept: np.ndarray, default: float, seed: int, rounds: int
) -> _Checked | None:
    """The fit against the default under stratified k-fold cross-validation (the labels
    never scored, ``kept``, count as kept on both sides); None when a class has fewer than
    two labels."""
    k = min(FOLDS, int(y.sum()), int((~y).sum()))
    if k < 2:
        return None
    fold = _folds(y, k, seed)
    fitted_pred = np.empty(y.size, bool)
    for f in range(k):
        eta = fit_threshold(s[fold != f], y[fold != f], default)
        fitted_pred[fold == f] = s[fold == f] >= eta
    everything = np.concatenate([y, kept])
    default_pred = np.concatenate([s >= default, np.ones(kept.size, bool)])
    fitted_pred = np.concatenate([fitted_pred, np.ones(kept.size, bool)])
    resampled = _resampled([default_pred, fitted_pred], everything, seed, rounds)
    return _Checked(
        _balanced(default_pred, everything),
        _balanced(fitted_pred, everything),
        _interval(resampled[:, 0]),
        _interval(resampled[:, 1]),
        _interval(resampled[:, 1] - resampled[:, 0]),
    )


def _uncheckable(
    s: np.ndarray, kept: np.ndarray, everything: np.ndarray, default: float
) -> _Checked:
    """The default's balanced accuracy on both sides, where nothing can be cross-validated."""
    value = _balanced(np.concatenate([s >= default, np.ones(kept.size, bool)]), everything)
    return _Checked(value, value, (value, value), (value, value))


def _one_sided(y: np.ndarray) -> list[str]:
    """The warning for labels with a minority class under ``ONE_SIDED`` of them."""
    minority = min(int(y.sum()), int((~y).sum()))
    if not y.size or minority / y.size >= ONE_SIDED:
        return []
    return [
        f"labels are one-sided ({int(y.sum())} supported, {int((~y).sum())} not): "
        "balanced accuracy rests on very few spans of one class"
    ]


def _inverted(checked: _Checked) -> str:
    """The warning for labels that run against the scores."""
    return (
        "the labels look inverted: balanced accuracy under cross-validation is "
        f"{checked.default:.3f} for the default and {checked.fitted:.3f} for the fit, below "
        f"the {CHANCE} of chance (95% intervals up to {checked.default_interval[1]:.3f} and "
        f"{checked.fitted_interval[1]:.3f}). Check that `true` means the span is supported "
        "(a file of hallucination flags reads this way); the default was kept"
    )


def _few_labels(n: int, default: float, threshold: float) -> str:
    """The few-labels warning, saying what the threshold did (the prior holds it near the
    default, but a lopsided sample can still move it)."""
    where = f"only {n} labelled spans (fewer than {TOO_FEW}): "
    if abs(threshold - default) < 0.01:
        return where + f"the threshold stays at {threshold:.3f}, near the default; label more"
    return (
        where + f"the threshold moved {default:.3f} -> {threshold:.3f} on few labels; "
        "label more before trusting it"
    )


def quantiles(scores: np.ndarray | Sequence[float]) -> list[float]:
    """Scores at 41 evenly spaced quantiles (empty for no scores)."""
    values = np.asarray(scores, float)
    if not values.size:
        return []
    return [round(float(q), 4) for q in np.quantile(values, np.linspace(0.0, 1.0, 41))]
