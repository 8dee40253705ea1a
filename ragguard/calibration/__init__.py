"""Calibrating the support decision to a deployment: from a labelled file (``ragguard
calibrate``) or from the judge's own verdicts on a random sample of spans; the
hallucination rate corrected by that sample, and the drift of the live scores from it."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.calibration.fingerprint import applied, model_fingerprint
from ragguard.calibration.fit import Fit, calibrate
from ragguard.calibration.labels import LabelledTrace, as_labelled, content_hash, read_labelled
from ragguard.calibration.state import CalibrationStore, Sample, in_calibration_sample, sample_key

if _typing.TYPE_CHECKING:  # imported on first use: the file calibration loads tqdm
    from ragguard.calibration.card import describe
    from ragguard.calibration.combine import decide, margin, shipped_combination
    from ragguard.calibration.from_file import Calibrated, CalibrationRequest, calibrate_file

__all__ = [
    "Calibrated",
    "CalibrationRequest",
    "CalibrationStore",
    "Fit",
    "LabelledTrace",
    "Sample",
    "applied",
    "as_labelled",
    "calibrate",
    "calibrate_file",
    "content_hash",
    "decide",
    "describe",
    "in_calibration_sample",
    "margin",
    "model_fingerprint",
    "read_labelled",
    "sample_key",
    "shipped_combination",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
