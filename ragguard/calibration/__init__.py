"""Calibrating the support decision to a deployment: from a labelled file (``ragguard
calibrate``) or from the judge's own verdicts on a random sample of spans; the
hallucination rate corrected by that sample, and the drift of the live scores from it."""

from ragguard.calibration.fingerprint import applied, model_fingerprint
from ragguard.calibration.fit import Fit, calibrate
from ragguard.calibration.labels import LabelledTrace, as_labelled, read_labelled
from ragguard.calibration.state import CalibrationStore, in_calibration_sample

__all__ = [
    "CalibrationStore",
    "Fit",
    "LabelledTrace",
    "applied",
    "as_labelled",
    "calibrate",
    "in_calibration_sample",
    "model_fingerprint",
    "read_labelled",
]
