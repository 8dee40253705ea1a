"""``[calibration]``: the support decision fitted to one deployment, from labels or from the
judge's verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ragguard.config.base import Strict as _Strict


class FittedCalibration(_Strict):
    """What ``ragguard calibrate`` (or the judge's verdicts) fitted: the support decision
    for one deployment, and the model it was fitted on."""

    source: Literal["file", "judge"] = "file"
    """Where the labels came from: a labelled file, or the LLM judge's verdicts."""
    threshold: float = Field(ge=0.0, le=1.0)
    """The support eta that replaces the head's own: a span below it is unsupported."""
    band: tuple[float, float]
    """Lite support scores in [lo, hi] go to the judge (replaces ``judge.band``)."""
    n_labels: int = Field(ge=0)
    """Labelled objective spans the fit saw."""
    n_supported: int = Field(ge=0)
    """Of which labelled supported."""
    fingerprint: str
    """Hash of the support head and backbone the scores came from: a config whose model
    changed refuses this calibration instead of applying it to another model's scores."""
    fitted_at: str = ""
    """When it was fitted (ISO 8601, UTC)."""
    balanced_accuracy: tuple[float, float] | None = None
    """Cross-validated balanced accuracy on the labels: default eta, then fitted."""
    kept_default: bool = False
    """True when the fit did not beat the default under cross-validation (the threshold is
    then the default's)."""
    score_quantiles: list[float] = Field(default_factory=list)
    """The fitted spans' support scores at 41 evenly spaced quantiles: the reference the
    drift test compares live scores with."""
    answer_relevance_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """Fitted on lines labelled ``answer_relevant``: replaces ``answer.threshold`` (None: no
    such labels, the head's threshold stays)."""
    answer_relevance_band: tuple[float, float] | None = None
    """Answer relevance scores in [lo, hi] go to the judge (replaces ``judge.answer_band``)."""
    answer_relevance_labels: int = Field(default=0, ge=0)
    """Answers labelled ``answer_relevant`` that the answer threshold was fitted on."""

    @model_validator(mode="after")
    def _band_ordered(self) -> FittedCalibration:
        lo, hi = self.band
        if not 0.0 <= lo <= hi <= 1.0:
            raise ValueError(f"band must satisfy 0 <= lo <= hi <= 1, got {list(self.band)}")
        return self


class CalibrationConfig(_Strict):
    """Calibrating the support decision to a deployment: from labels (``ragguard calibrate``
    writes ``source = "file"`` and ``fitted``) or from the judge's own verdicts on a random
    sample of spans (``source = "judge"``, which needs a ``[judge]`` endpoint)."""

    source: Literal["off", "file", "judge"] = "off"
    """off: the head's eta and ``judge.band``; file: the ``fitted`` values; judge: refit
    from the judge's verdicts on a random sample of spans as they arrive."""
    sample_rate: float = Field(default=0.1, ge=0.0, le=1.0)
    """source = "judge": share of objective spans sent to the judge for calibration, on top
    of the band, drawn by a hash of (trace id, span index). With the default band share,
    about a quarter of the spans reach the judge (``benchmarks/calibration.py --choose``)."""
    min_samples: int = Field(default=100, ge=10)
    """source = "judge": judge verdicts needed before the threshold and band move."""
    band_share: float = Field(default=0.2, ge=0.0, le=1.0)
    """Share of spans the fitted band holds around the fitted threshold."""
    state_file: Path | None = None
    """source = "judge": where the judge-labelled sample is kept per pipeline, so that it
    survives restarts and is shared by worker processes, Ray actors and ``replay``; None:
    kept in memory only."""
    drift_threshold: float = Field(default=0.2, gt=0.0, le=1.0)
    """Kolmogorov-Smirnov distance between the live support scores and the calibration
    sample's above which the summary and report warn: recalibrate."""
    max_samples: int = Field(default=5000, ge=10)
    """Judge-labelled samples kept per pipeline (the newest)."""
    fitted: FittedCalibration | None = None
    """The fitted values (written by ``ragguard calibrate``)."""
