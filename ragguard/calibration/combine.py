"""Fitting how the lite score and a judge's score decide an in-band span together.

A real judge errs unevenly: it may say "yes" to almost every claim of one kind and be right
on another. So its score does not overwrite the lite verdict; in the band the decision is
``offset + lite_weight * x_lite + judge_weight * x_judge >= 0`` with ``x_lite =
logit(lite) - logit(eta)`` and ``x_judge = logit(judge score)``: a class-balanced logistic
model with a Gaussian prior centred on the lite verdict (offset 0, lite weight 1, judge
weight 0), both weights kept at 0 or above (a higher score never means less support). With
few labels the prior holds it near the lite verdict; with many it follows the data.

Three decisions are then compared under stratified cross-validation, as ``fit.calibrate``
checks a threshold: the lite verdict, the judge's own threshold (nothing fitted) and the
fitted combination. The better of the last two is kept only when it is shown better than the
lite verdict (the 95% interval of its paired bootstrap gain lies above 0, as for a
threshold) and beats it by more than ``min_gain``, and the combination only when, fitted on
every pair, it gives the judge some weight (with none it merely re-thresholds the lite score,
the threshold fit's job); otherwise the card keeps the lite verdict (judge weight 0). A
judge that says "yes" whatever the truth has a score that tells nothing, so it gets no
weight: it cannot make the cascade worse than the lite tier.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ragguard.calibration.fit import (
    FOLDS,
    _balanced,
    _folds,
    _interval,
    _logit,
    _resampled,
    shown_better,
)
from ragguard.config import JudgeCombination

PRIOR_MEAN = np.array([0.0, 1.0, 0.0])
"""Offset, lite weight, judge weight: the lite verdict."""
PRIOR_SD = np.array([1.0, 1.0, 1.0])


def features(lite: np.ndarray, judge: np.ndarray, eta: float) -> np.ndarray:
    """The design matrix: a constant, ``x_lite`` and ``x_judge`` (module docstring)."""
    lite, judge = np.asarray(lite, float), np.asarray(judge, float)
    x_lite = _logit(lite) - _logit(np.array([eta]))[0]
    return np.column_stack([np.ones_like(x_lite), x_lite, _logit(judge)])


def fit_weights(lite: np.ndarray, judge: np.ndarray, labels: np.ndarray, eta: float) -> np.ndarray:
    """The maximum a posteriori (offset, lite weight, judge weight)."""
    y = np.asarray(labels, bool)
    if y.size == 0 or y.all() or not y.any():
        return PRIOR_MEAN.copy()
    design = features(lite, judge, eta)
    weights = np.where(y, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    precision = np.diag(1 / PRIOR_SD**2)
    theta = PRIOR_MEAN.copy()
    for _ in range(100):  # Newton's method on a concave objective, weights kept >= 0
        p = 1 / (1 + np.exp(-(design @ theta)))
        gradient = design.T @ (weights * (y - p)) - precision @ (theta - PRIOR_MEAN)
        hessian = -(design.T * (weights * p * (1 - p))) @ design - precision
        step = np.linalg.solve(hessian, gradient)
        theta = theta - step
        theta[1:] = np.maximum(theta[1:], 0.0)
        if np.abs(step).max() < 1e-8:
            break
    return theta


CARDS = "combinations.json"
"""The cards ragguard ships, fitted on the training sets (``benchmarks/judge_local.py``)."""


def shipped_combination(model: str) -> JudgeCombination | None:
    """The shipped card for a judge model whose name holds the card's (case aside)."""
    name = model.lower()
    for card in _shipped():
        if card.model.lower() in name:
            return card
    return None


def _shipped() -> list[JudgeCombination]:
    data = resources.files("ragguard.calibration").joinpath("data", CARDS)
    if not data.is_file():
        return []
    return [JudgeCombination.model_validate(c) for c in json.loads(data.read_text("utf-8"))]


def own_threshold(model: str, threshold: float = 0.5) -> JudgeCombination:
    """The card on which the judge's own score decides: ``logit(score) - logit(threshold)``."""
    offset = -float(_logit(np.array([threshold]))[0]) + 0.0  # never -0.0
    return JudgeCombination(model=model, offset=offset, lite_weight=0.0, judge_weight=1.0)


def margin(card: JudgeCombination, lite: float, judge: float, eta: float) -> float:
    """The combination's log-odds of "supported" for one span under ``card``."""
    x = features(np.array([lite]), np.array([judge]), eta)[0]
    return float(card.offset + card.lite_weight * x[1] + card.judge_weight * x[2])


def decide(card: JudgeCombination, lite: float, judge: float, eta: float) -> bool:
    """A span's verdict under ``card``."""
    return margin(card, lite, judge, eta) >= 0.0


@dataclass
class CombinationFit:
    """The card and the evidence for it."""

    card: JudgeCombination
    chosen: str
    """Which decision the card makes: ``lite``, ``judge`` (its own threshold), ``combined``."""
    intervals: dict[str, tuple[float, float]]
    gain: tuple[float, float]
    """95% paired bootstrap interval of the better decision's gain over the lite verdict."""
    judge_unweighted: bool = False
    """The combination was shown better than the lite verdict but, fitted on every pair,
    gives the judge no weight: the lite verdict is kept."""

    @property
    def kept_lite(self) -> bool:
        return self.chosen == "lite"


def fit_combination(
    lite: Sequence[float],
    judge: Sequence[float],
    labels: Sequence[bool],
    eta: float,
    *,
    model: str,
    source: str,
    judge_threshold: float = 0.5,
    min_gain: float = 0.0,
    seed: int = 0,
    bootstrap_rounds: int = 1000,
) -> CombinationFit:
    """Fit on labelled in-band spans (their lite and judge scores); keep the lite verdict
    unless the combination is shown better under cross-validation (module docstring)."""
    s, j, y = np.asarray(lite, float), np.asarray(judge, float), np.asarray(labels, bool)
    lite_pred, judge_pred = s >= eta, j >= judge_threshold
    combined = lite_pred.copy()
    k = min(FOLDS, int(y.sum()), int((~y).sum()))
    if k >= 2:
        fold = _folds(y, k, seed)
        for f in range(k):
            theta = fit_weights(s[fold != f], j[fold != f], y[fold != f], eta)
            combined[fold == f] = features(s[fold == f], j[fold == f], eta) @ theta >= 0
    decisions = {"lite": lite_pred, "judge": judge_pred, "combined": combined}
    scores = {name: _balanced(decision, y) for name, decision in decisions.items()}
    resampled = dict(
        zip(
            decisions,
            _resampled(list(decisions.values()), y, seed, bootstrap_rounds).T,
            strict=True,
        )
    )
    best = "judge" if scores["judge"] > scores["combined"] else "combined"
    gain = _interval(resampled[best] - resampled["lite"])
    better = k >= 2 and scores[best] > scores["lite"] + min_gain and shown_better(gain)
    chosen = best if better else "lite"
    theta = fit_weights(s, j, y, eta) if chosen == "combined" else PRIOR_MEAN
    unweighted = chosen == "combined" and round(float(theta[2]), 4) == 0.0
    if unweighted:
        # a combination that gives the judge no weight only re-thresholds the lite score,
        # which is the threshold fit's job; its edge over the lite verdict is then a matter
        # of one or two in-band spans, which moves with the CPU's int8 kernels
        chosen, theta = "lite", PRIOR_MEAN
    if chosen == "judge":  # the judge's own threshold: logit(score) - logit(t) >= 0
        own = own_threshold(model, judge_threshold)
        theta = np.array([own.offset, own.lite_weight, own.judge_weight])
    card = JudgeCombination(
        model=model,
        offset=round(float(theta[0]), 4) + 0.0,  # never -0.0
        lite_weight=round(float(theta[1]), 4),
        judge_weight=round(float(theta[2]), 4),
        n_pairs=int(y.size),
        source=source,
        balanced_accuracy={name: round(value, 4) for name, value in scores.items()},
    )
    intervals = {name: _interval(values) for name, values in resampled.items()}
    return CombinationFit(card, chosen, intervals, gain, judge_unweighted=unweighted)


def outcome(fit: CombinationFit) -> str:
    """What the fit did, worded as the calibration card words a threshold's fit."""
    scores = fit.card.balanced_accuracy
    low, high = fit.gain
    gain = f"95% interval of the gain {low:+.3f} to {high:+.3f}"
    if fit.kept_lite:
        best = max(scores["judge"], scores["combined"])
        if fit.judge_unweighted:
            return (
                "kept the lite verdict: the combination fitted on every pair gives the "
                f"judge no weight (CV {scores['lite']:.3f} against {best:.3f})"
            )
        if best <= scores["lite"]:
            return (
                f"kept the lite verdict: neither the judge's threshold nor the combination beat "
                f"it under CV ({scores['lite']:.3f} against {best:.3f})"
            )
        return (
            f"kept the lite verdict: higher balanced accuracy under CV ({scores['lite']:.3f} "
            f"-> {best:.3f}), but not shown better ({gain}); label more to tell"
        )
    name = "the judge's own threshold" if fit.chosen == "judge" else "the combination"
    return (
        f"{name}: shown better than the lite verdict under CV ({scores['lite']:.3f} -> "
        f"{scores[fit.chosen]:.3f}, {gain})"
    )


def render(fit: CombinationFit) -> str:
    """The Markdown card."""
    card = fit.card
    rows = [
        f"| {name} | {card.balanced_accuracy[name]:.3f} | {low:.3f}-{high:.3f} |"
        for name, (low, high) in fit.intervals.items()
    ]
    return (
        "\n".join(
            [
                f"# judge combination card: {card.model}",
                "",
                f"- labels: {card.source}; {card.n_pairs} in-band pairs",
                f"- weights: offset {card.offset}, lite {card.lite_weight}, "
                f"judge {card.judge_weight}",
                f"- outcome: {outcome(fit)}",
                "",
                "| decided by | balanced accuracy in the band (CV) | 95% bootstrap |",
                "|---|---|---|",
                *rows,
            ]
        )
        + "\n"
    )
