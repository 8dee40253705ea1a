"""A calibration from a labelled file (``ragguard calibrate``): evaluate the labelled traces
with the lite tier, fit the threshold (and the answer threshold, and with ``judge`` the
judge's combination card), and give the config to write, with its card."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from ragguard.calibration.card import label_notes, render_card
from ragguard.calibration.collect import LabelledScores, collect_labelled
from ragguard.calibration.combine import fit_combination, render
from ragguard.calibration.fingerprint import model_fingerprint
from ragguard.calibration.fit import Fit, calibrate
from ragguard.config import Config, FittedCalibration
from ragguard.errors import RagguardError

if TYPE_CHECKING:
    from ragguard.evaluation import Guard


@dataclass(frozen=True)
class CalibrationRequest:
    """What ``ragguard calibrate`` was asked: the labelled file, the base config, the band's
    share and whether the judge's combination card is refitted too."""

    labelled: Path
    base: Config
    band_share: float
    judge: bool = False

    def lite_config(self) -> Config:
        """The config the labelled traces are evaluated with: calibration off (the fit is of
        the head's own scores), the judge off unless its card is refitted."""
        base = self.base
        if self.judge and base.judge.backend == "none":
            raise RagguardError("calibrate --judge needs a [judge] backend in --config")
        off = {"source": "off", "fitted": None}
        judge = base.judge.model_copy(update={} if self.judge else {"backend": "none"})
        return base.model_copy(
            update={"calibration": base.calibration.model_copy(update=off), "judge": judge}
        )


@dataclass(frozen=True)
class Calibrated:
    """A calibration ready to write: the config's TOML text and its Markdown card."""

    config_text: str
    card: str
    skipped: int
    """Lines of the labelled file that were skipped (reported as they were met)."""


def calibrate_file(
    request: CalibrationRequest, guard: Guard, report: Callable[[str], object]
) -> Calibrated:
    """Evaluate ``request.labelled`` on ``guard`` (built from ``request.lite_config()``) and
    fit on its labels; ``report`` gets each skipped line and note. A file with no label to
    fit on is an error: no calibration is written."""
    base, path = request.base, request.labelled
    collected, skipped = collect_labelled(guard, path, base.limits.max_line_bytes, report)
    if not collected.labels and not collected.kept:
        raise RagguardError(
            f"calibrate: no labelled span in {path} ({skipped} lines skipped, every "
            "other label null): nothing to fit, so no calibration was written"
        )
    share = request.band_share
    support, answer = guard.models.support_scorer, collected.answer_labels
    fit = calibrate(collected.scores, collected.labels, support.threshold, band_share=share,
                    all_scores=collected.all_scores, kept=collected.kept,
                    default_band=base.judge.band)  # fmt: skip
    answer_fit = None
    if answer:  # the answer head is built only when some line labels an answer
        answer_fit = calibrate(collected.answer_scores, answer, band_share=share,
                               default=guard.models.answer_scorer.threshold,
                               all_scores=collected.all_answer_scores)  # fmt: skip
    fingerprint = model_fingerprint(request.lite_config())
    combined = refit_judge(guard, collected, fit.threshold, report) if request.judge else None
    data = calibrated_config(request, fitted_calibration(fit, answer_fit, fingerprint))
    if combined is not None:
        data["judge"] = {**data.get("judge", {}), "combination": combined[0]}
    Config.model_validate(data)  # what is written must load
    notes = label_notes(collected)
    card = render_card(
        fit, source=str(path), fingerprint=fingerprint, answer=answer_fit, notes=notes
    )
    if combined is not None:
        card += "\n" + combined[1]
    header = f"# written by ragguard calibrate from {path.name}\n"
    return Calibrated(header + tomli_w.dumps(data), card, skipped)


def fitted_calibration(fit: Fit, answer_fit: Fit | None, fingerprint: str) -> FittedCalibration:
    """The ``[calibration] fitted`` block of a file calibration."""
    return FittedCalibration(
        source="file",
        threshold=fit.threshold,
        band=fit.band,
        n_labels=fit.n_labels,
        n_supported=fit.n_supported,
        fingerprint=fingerprint,
        fitted_at=datetime.now(UTC).isoformat(timespec="seconds"),
        balanced_accuracy=(fit.cv_default, fit.cv_fitted),
        kept_default=fit.kept_default,
        score_quantiles=fit.score_quantiles,
        answer_relevance_threshold=None if answer_fit is None else answer_fit.threshold,
        answer_relevance_band=None if answer_fit is None else answer_fit.band,
        answer_relevance_labels=0 if answer_fit is None else answer_fit.n_labels,
    )


def calibrated_config(request: CalibrationRequest, fitted: FittedCalibration) -> dict[str, Any]:
    """The base config as TOML-ready data (every value set, paths resolved) with the
    ``[calibration]`` section that puts ``fitted`` in force."""
    data = request.base.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    data["calibration"] = {
        **data.get("calibration", {}),
        "source": "file",
        "band_share": request.band_share,
        "fitted": fitted.model_dump(mode="json", exclude_none=True),
    }
    return data


def refit_judge(
    guard: Guard, collected: LabelledScores, eta: float, report: Callable[[str], object]
) -> tuple[dict[str, Any], str] | None:
    """The judge's combination card refitted on the labelled spans it scored (the same
    cross-validation, intervals and "not shown better" wording as the threshold's card),
    as config data and Markdown; None when it scored none."""
    if not collected.judged:
        report("calibrate --judge: the judge scored no labelled span; no card")
        return None
    lite, scores, labels = zip(*collected.judged, strict=True)
    cascade = guard.models.judge
    model = cascade.client.model_name if cascade is not None else guard.config.judge.model
    fitted = fit_combination(
        lite,
        scores,
        labels,
        eta,
        model=model,
        source=f"calibrate --judge: {len(labels)} labelled spans the judge scored",
        judge_threshold=guard.config.judge.score_threshold,
    )
    return fitted.card.model_dump(mode="json"), render(fitted)
