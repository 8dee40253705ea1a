"""The calibration card: what was fitted, on how many labels, and whether to trust it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ragguard.calibration.fit import Fit
from ragguard.config import FittedCalibration

if TYPE_CHECKING:
    from ragguard.calibration.collect import LabelledScores


def render_card(
    fit: Fit,
    *,
    source: str,
    fingerprint: str,
    answer: Fit | None = None,
    notes: Sequence[str] = (),
) -> str:
    """A short Markdown card for ``ragguard calibrate``'s output; ``answer``: the answer
    relevance fit, when some lines were labelled ``answer_relevant``; ``notes``: list items
    on the labels (``label_notes``)."""
    outcome = outcome_line(fit)
    lines = [
        "# ragguard calibration card",
        "",
        f"- labels: {source}",
        f"- labelled spans: {fit.n_labels} ({fit.n_supported} supported, "
        f"{fit.n_labels - fit.n_supported} not)",
        *notes,
        f"- model fingerprint: {fingerprint}",
        f"- outcome: {outcome}",
        "",
        "| | support threshold | judge band | balanced accuracy (5-fold CV) | 95% bootstrap |",
        "|---|---|---|---|---|",
        *_fit_rows(fit),
    ]
    if answer is not None:
        lines += _answer_rows(answer)
    if fit.warnings:
        lines += ["", "Warnings:", *(f"- {warning}" for warning in fit.warnings)]
    if answer is not None and answer.warnings:
        lines += ["", "Answer relevance warnings:", *(f"- {w}" for w in answer.warnings)]
    return "\n".join(lines) + "\n"


LISTED = 10
"""Disagreeing pairs the card names; the rest are counted."""


def label_notes(collected: LabelledScores) -> list[str]:
    """The card's list items on the labels: repeats counted once, disagreeing pairs (left
    out of the fit), and how many labels each review design drew."""
    notes = []
    repeats = collected.read - len(collected.pairs)
    if repeats:
        notes.append(
            f"- repeated labels: {repeats} of the {collected.read} labels read repeat a "
            "(span, items) pair already read, and count once"
        )
    disagreeing = collected.disagreeing()
    if disagreeing:
        notes.append(f"- disagreeing labels: {len(disagreeing)} pairs, left out of the fit:")
        for pair in disagreeing[:LISTED]:
            given = ", ".join(
                f"{str(label).lower()} on line {line}" for label, line in pair.labels.values()
            )
            notes.append(f"  - {pair.text!r}: {given}")
        if len(disagreeing) > LISTED:
            notes.append(f"  - and {len(disagreeing) - LISTED} more")
    designs = collected.designs()
    if designs:
        counted = ", ".join(f"{count} {design}" for design, count in sorted(designs.items()))
        notes.append(f"- label designs: {counted}")
    return notes


def outcome_line(fit: Fit) -> str:
    """What the fit did, worded by what the cross-validation shows: a fit that scored higher
    without being shown better (the 95% interval of its gain reaches 0) is not written."""
    scores = f"{fit.cv_default:.3f} -> {fit.cv_fitted:.3f}"
    low, high = fit.gain_interval
    gain = f"95% interval of the gain {low:+.3f} to {high:+.3f}"
    if fit.inverted:
        return f"kept the default: the labels look inverted ({scores}; see the warnings)"
    if fit.kept_default and fit.cv_fitted > fit.cv_default and not math.isnan(low):
        return (
            f"kept the default: the fit scored higher under cross-validation ({scores}) but "
            f"is not shown better ({gain}); label more to tell"
        )
    if fit.kept_default:
        return "kept the default: the fit did not beat it under cross-validation"
    if math.isnan(low):
        return f"fitted: it beat the default under cross-validation ({scores})"
    return f"fitted: shown better than the default under cross-validation ({scores}, {gain})"


def _answer_rows(fit: Fit) -> list[str]:
    kept = "kept the default" if fit.kept_default else "fitted"
    return [
        "",
        f"Answer relevance: {fit.n_labels} labelled answers ({fit.n_supported} relevant, "
        f"{fit.n_labels - fit.n_supported} not); {kept}.",
        "",
        "| | answer threshold | judge answer band | balanced accuracy (5-fold CV) "
        "| 95% bootstrap |",
        "|---|---|---|---|---|",
        *_fit_rows(fit),
    ]


def _fit_rows(fit: Fit) -> list[str]:
    """The default and the fit, each with its cross-validated balanced accuracy. A fit the
    file does not hold (the default kept) shows no threshold or band: the default's are
    written, and its row says so."""
    default_ci = f"{fit.cv_default_interval[0]:.3f}-{fit.cv_default_interval[1]:.3f}"
    fitted_ci = f"{fit.cv_fitted_interval[0]:.3f}-{fit.cv_fitted_interval[1]:.3f}"
    band = f"{fit.band[0]:.3f}-{fit.band[1]:.3f}"
    if fit.kept_default:
        return [
            f"| default (written) | {fit.default:.3f} | {band} | {fit.cv_default:.3f} "
            f"| {default_ci} |",
            f"| fit (not written) | | | {fit.cv_fitted:.3f} | {fitted_ci} |",
        ]
    return [
        f"| default | {fit.default:.3f} | | {fit.cv_default:.3f} | {default_ci} |",
        f"| calibrated | {fit.threshold:.3f} | {band} | {fit.cv_fitted:.3f} | {fitted_ci} |",
    ]


def describe(fitted: FittedCalibration | None, source: str) -> str:
    """One line for ``calibrate --show`` and the run summary."""
    if source == "off":
        return "off (the head's threshold and the configured band)"
    if fitted is None:
        return f"{source}: not fitted yet (the head's threshold and the configured band)"
    kept = ", default kept" if fitted.kept_default else ""
    accuracy = ""
    if fitted.balanced_accuracy is not None:
        before, after = fitted.balanced_accuracy
        accuracy = f", CV balanced accuracy {before:.3f} -> {after:.3f}"
    return (
        f"{fitted.source}: threshold {fitted.threshold:.3f}, band "
        f"{fitted.band[0]:.3f}-{fitted.band[1]:.3f}, on {fitted.n_labels} labels "
        f"({fitted.n_supported} supported){kept}{accuracy}; fitted {fitted.fitted_at or '?'}"
    )
