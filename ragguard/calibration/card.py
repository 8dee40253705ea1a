"""The calibration card: what was fitted, on how many labels, and whether to trust it."""

from __future__ import annotations

from ragguard.calibration.fit import Fit
from ragguard.config import FittedCalibration


def render_card(fit: Fit, *, source: str, fingerprint: str, answer: Fit | None = None) -> str:
    """A short Markdown card for ``ragguard calibrate``'s output; ``answer``: the answer
    relevance fit, when some lines were labelled ``answer_relevant``."""
    outcome = outcome_line(fit)
    lines = [
        "# ragguard calibration card",
        "",
        f"- labels: {source}",
        f"- labelled spans: {fit.n_labels} ({fit.n_supported} supported, "
        f"{fit.n_labels - fit.n_supported} not)",
        f"- model fingerprint: {fingerprint}",
        f"- outcome: {outcome}",
        "",
        "| | support threshold | judge band | balanced accuracy (5-fold CV) | 95% bootstrap |",
        "|---|---|---|---|---|",
        f"| default | {fit.default:.3f} | | {fit.cv_default:.3f} | "
        f"{fit.cv_default_interval[0]:.3f}-{fit.cv_default_interval[1]:.3f} |",
        f"| calibrated | {fit.threshold:.3f} | {fit.band[0]:.3f}-{fit.band[1]:.3f} | "
        f"{fit.cv_fitted:.3f} | {fit.cv_fitted_interval[0]:.3f}-{fit.cv_fitted_interval[1]:.3f} |",
    ]
    if answer is not None:
        lines += _answer_rows(answer)
    if fit.warnings:
        lines += ["", "Warnings:", *(f"- {warning}" for warning in fit.warnings)]
    if answer is not None and answer.warnings:
        lines += ["", "Answer relevance warnings:", *(f"- {w}" for w in answer.warnings)]
    return "\n".join(lines) + "\n"


def outcome_line(fit: Fit) -> str:
    """What the fit did, worded by what the cross-validation shows: a fit whose 95%
    interval overlaps the default's scored higher, but is not shown better."""
    if fit.kept_default:
        return "kept the default: the fit did not beat it under cross-validation"
    gain = f"{fit.cv_default:.3f} -> {fit.cv_fitted:.3f}"
    if fit.cv_fitted_interval[0] <= fit.cv_default_interval[1]:
        return (
            f"fitted: higher balanced accuracy under cross-validation ({gain}), but the 95% "
            "intervals overlap: not shown better than the default; label more to tell"
        )
    return f"fitted: it beat the default under cross-validation ({gain}, intervals apart)"


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
        f"| default | {fit.default:.3f} | | {fit.cv_default:.3f} | "
        f"{fit.cv_default_interval[0]:.3f}-{fit.cv_default_interval[1]:.3f} |",
        f"| calibrated | {fit.threshold:.3f} | {fit.band[0]:.3f}-{fit.band[1]:.3f} | "
        f"{fit.cv_fitted:.3f} | {fit.cv_fitted_interval[0]:.3f}-{fit.cv_fitted_interval[1]:.3f} |",
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
