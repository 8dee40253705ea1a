"""Self-calibration from the judge: its verdicts on a uniform random sample of spans, kept
per pipeline, and the threshold and band refitted on them as they arrive.

The sample is drawn by a hash of (trace id, span index), not of the claim, so a claim that
recurs across answers is drawn independently each time, and every process (the live child,
``--workers``, Ray actors, ``replay``) draws the same spans. With a ``state_file`` the
sample survives restarts and is shared: each update takes an exclusive lock on a sidecar
``.lock`` file, merges its new verdicts into what is on disk, refits, and replaces the file
atomically (write beside it, then rename).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import tempfile
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ragguard.calibration.fit import calibrate
from ragguard.config import CalibrationConfig, FittedCalibration
from ragguard.runtime.sampling import hash_sample

logger = logging.getLogger(__name__)

STATE_VERSION = 1
JUDGE_MIN_GAIN = 0.01
"""A fit on the judge's verdicts replaces the default only if it beats it by this much in
cross-validated balanced accuracy: the judge's mistakes, uneven across the classes, pull
a fit on them away from the right place (``benchmarks/calibration.py --choose``)."""
Sample = tuple[str, float, bool]
"""(trace id and span index, lite support score, the judge's verdict: supported)."""


def sample_key(trace_id: str, index: int) -> str:
    return f"{trace_id}#{index}"


def in_calibration_sample(trace_id: str, index: int, rate: float) -> bool:
    """Whether span ``index`` of trace ``trace_id`` is in the uniform calibration sample."""
    return hash_sample(sample_key(trace_id, index), rate)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"version": STATE_VERSION, "pipelines": {}}
    except (OSError, ValueError) as error:
        logger.warning("ragguard calibration: cannot read %s (%s); starting afresh", path, error)
        return {"version": STATE_VERSION, "pipelines": {}}
    if not isinstance(data, dict) or not isinstance(data.get("pipelines"), dict):
        return {"version": STATE_VERSION, "pipelines": {}}
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (renamed or removed below)
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            json.dump(data, handle)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


class CalibrationStore:
    """One pipeline's judge-labelled sample and the fit made on it (thread-safe)."""

    def __init__(
        self,
        config: CalibrationConfig,
        *,
        pipeline: str,
        fingerprint: str,
        default_threshold: float,
        default_band: tuple[float, float],
    ) -> None:
        self.config = config
        self.pipeline = pipeline
        self.fingerprint = fingerprint
        self.default_threshold = default_threshold
        self.default_band = default_band
        self._lock = threading.Lock()
        self._samples: dict[str, tuple[float, bool]] = {}
        self._fitted_on = 0
        self.fitted: FittedCalibration | None = config.fitted
        if config.state_file is not None:
            with _locked(config.state_file):
                self._merge(_read(config.state_file)["pipelines"].get(pipeline))

    @property
    def threshold(self) -> float:
        return self.fitted.threshold if self.fitted else self.default_threshold

    @property
    def band(self) -> tuple[float, float]:
        return self.fitted.band if self.fitted else self.default_band

    @property
    def n_samples(self) -> int:
        return len(self._samples)

    def verdict(self, key: str) -> bool | None:
        """The judge's stored verdict for a sampled span, if it was asked before."""
        found = self._samples.get(key)
        return None if found is None else found[1]

    def agreement(self) -> float | None:
        """Share of sampled spans where the lite verdict at the current eta matches the
        judge's."""
        if not self._samples:
            return None
        eta = self.threshold
        return float(np.mean([(s >= eta) == v for s, v in self._samples.values()]))

    def _merge(self, stored: Any) -> None:
        if not isinstance(stored, dict) or stored.get("fingerprint") != self.fingerprint:
            return  # another model's sample says nothing of this one's scores
        for entry in stored.get("samples", []):
            if isinstance(entry, list) and len(entry) == 3:
                key, score, verdict = entry
                if isinstance(key, str) and isinstance(score, int | float):
                    self._samples.setdefault(key, (float(score), bool(verdict)))
        fitted = stored.get("fitted")
        if isinstance(fitted, dict):
            with contextlib.suppress(ValueError):
                self.fitted = FittedCalibration.model_validate(fitted)
                self._fitted_on = self.fitted.n_labels

    def add(self, samples: Sequence[Sample]) -> None:
        """Record judge verdicts; refit when enough new ones have come; persist."""
        if samples:
            self._sync(samples)

    def save(self) -> None:
        """Refit on everything held now and persist it (the end of a first pass)."""
        self._sync((), refit=True)

    def _sync(self, samples: Sequence[Sample], refit: bool = False) -> None:
        with self._lock:
            path = self.config.state_file
            if path is None:
                self._add(samples, refit)
                return
            try:
                with _locked(path):
                    data = _read(path)
                    self._merge(data["pipelines"].get(self.pipeline))
                    self._add(samples, refit)
                    data["pipelines"][self.pipeline] = self._stored()
                    _write(path, data)
            except OSError as error:
                logger.warning("ragguard calibration: cannot update %s: %s", path, error)
                self._add(samples, refit)

    def _add(self, samples: Sequence[Sample], refit: bool = False) -> None:
        for key, score, verdict in samples:
            self._samples.pop(key, None)
            self._samples[key] = (float(score), bool(verdict))
        while len(self._samples) > self.config.max_samples:
            self._samples.pop(next(iter(self._samples)))
        n = len(self._samples)
        due = max(10, self._fitted_on // 10)
        stale = self.fitted is None or n - self._fitted_on >= due
        if n >= self.config.min_samples and (refit or stale):
            self.refit()

    def refit(self) -> FittedCalibration | None:
        """Fit the threshold and band on the sample now (None below ``min_samples``)."""
        if len(self._samples) < self.config.min_samples:
            return self.fitted
        scores = [s for s, _ in self._samples.values()]
        labels = [v for _, v in self._samples.values()]
        fit = calibrate(
            scores,
            labels,
            self.default_threshold,
            band_share=self.config.band_share,
            min_gain=JUDGE_MIN_GAIN,
            default_band=self.default_band,
        )
        self.fitted = FittedCalibration(
            source="judge",
            threshold=fit.threshold,
            band=fit.band,
            n_labels=fit.n_labels,
            n_supported=fit.n_supported,
            fingerprint=self.fingerprint,
            fitted_at=datetime.now(UTC).isoformat(timespec="seconds"),
            balanced_accuracy=(fit.cv_default, fit.cv_fitted),
            kept_default=fit.kept_default,
            score_quantiles=fit.score_quantiles,
        )
        self._fitted_on = len(self._samples)
        return self.fitted

    def _stored(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "samples": [[k, s, v] for k, (s, v) in self._samples.items()],
            "fitted": None if self.fitted is None else self.fitted.model_dump(mode="json"),
        }
