"""Self-calibration from the judge: its verdicts on a uniform random sample of spans, kept
per pipeline, and the threshold and band refitted on them as they arrive.

The sample is drawn by a hash of (trace id, span index), not of the claim, so a claim that
recurs across answers is drawn independently each time, and every process (the live child,
``--workers``, Ray actors, ``replay``) draws the same spans. A verdict is *stored* under
that draw and a hash of what it judged (the claim, its context and passages), so a stored
verdict only ever answers the same text again: a trace id reused for another answer gets
a fresh call.

With a ``state_file`` the sample survives restarts and is shared: each update takes an
exclusive lock on a sidecar ``.lock`` file, merges its new verdicts into what is on disk,
refits, and replaces the file atomically (write beside it, then rename; the new file is
0600). The file is untrusted input (docs/hardening.md):

- it is read only when it and its folder pass the model cache's ownership and mode rules
  (``ragguard.scoring.encoders.trusted_files``), and written only into such a folder (created 0700
  when missing); its lock file is never opened in another;
- it must match the schema (``StateFile``); a file that does not is named in a warning and
  calibration starts afresh;
- its ``fitted`` block is for people to read and is never loaded: the fit is redone from
  the samples, and ``n_labels`` is their count;
- its samples are validated one by one; as each is keyed by the hash of the text it
  judged, a planted sample can only decide text it quotes exactly.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import logging
import os
import re
import tempfile
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, ValidationError

from ragguard.calibration.fit import calibrate
from ragguard.config import CalibrationConfig, FittedCalibration
from ragguard.runtime import hash_sample
from ragguard.scoring.encoders import private_folder, read_private

logger = logging.getLogger(__name__)

STATE_VERSION: Literal[2] = 2
"""2: samples keyed by the text they judged (1 keyed them by trace and span alone)."""
JUDGE_MIN_GAIN = 0.01
"""A fit on the judge's verdicts replaces the default only if it beats it by this much in
cross-validated balanced accuracy: the judge's mistakes, uneven across the classes, pull
a fit on them away from the right place (``benchmarks/calibration.py --choose``)."""
Sample = tuple[str, float, bool]
"""(``sample_key``, lite support score, the judge's verdict: supported)."""
KEY_PATTERN = r"^[\s\S]+#\d+#[0-9a-f]{64}$"
"""A stored sample's key: trace id, span index, the sha256 of the judged text."""


def _drawn_by(trace_id: str, index: int) -> str:
    return f"{trace_id}#{index}"


def sample_key(trace_id: str, index: int, judged: str) -> str:
    """Where a sampled span's verdict is stored: its draw and ``judged``, the sha256 (hex)
    of the text the judge read (``SupportQuestion.digest``)."""
    return f"{_drawn_by(trace_id, index)}#{judged}"


def in_calibration_sample(trace_id: str, index: int, rate: float) -> bool:
    """Whether span ``index`` of trace ``trace_id`` is in the uniform calibration sample."""
    return hash_sample(_drawn_by(trace_id, index), rate)


_KEY = re.compile(KEY_PATTERN)


def _storable(key: str, score: float) -> bool:
    """Whether a sample passes ``StoredSample``: a well-formed key, a score in [0, 1]."""
    return bool(_KEY.match(key)) and 0.0 <= score <= 1.0


StoredSample = tuple[
    Annotated[str, StringConstraints(pattern=KEY_PATTERN)],
    Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)],
    StrictBool,
]


class StoredPipeline(BaseModel):
    """One pipeline's entry in the state file."""

    model_config = ConfigDict(extra="ignore")
    fingerprint: str
    samples: list[StoredSample]
    fitted: dict[str, Any] | None = None
    """Written for people to read; never loaded (the fit is redone from ``samples``)."""


class StateFile(BaseModel):
    """The calibration state file's schema."""

    model_config = ConfigDict(extra="ignore")
    version: Literal[2]
    pipelines: dict[str, StoredPipeline]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _schema_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the file"
    return f"{where}: {first['msg']}"


def _read_state(path: Path) -> dict[str, StoredPipeline]:
    """The pipelines of the state file (in a folder the caller has checked); none when it
    is missing, or (with a warning naming it) not private to this user, or not a
    calibration state file."""
    if not path.exists():
        return {}
    data = read_private(path)  # warns when the file itself is not private
    if data is None:
        return {}
    try:
        return StateFile.model_validate_json(data).pipelines
    except ValidationError as error:
        logger.warning(
            "ragguard calibration: %s is not a calibration state file of version %d (%s); "
            "starting afresh",
            path,
            STATE_VERSION,
            _schema_error(error),
        )
        return {}


def _write(path: Path, pipelines: dict[str, StoredPipeline]) -> None:
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (renamed or removed below)
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            handle.write(StateFile(version=STATE_VERSION, pipelines=pipelines).model_dump_json())
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
        self._shared = config.state_file is not None
        if config.state_file is not None and self._folder_trusted(config.state_file):
            with _locked(config.state_file):
                self._merge(_read_state(config.state_file).get(pipeline))
            self._trim()
            if self.n_samples >= config.min_samples:
                self.refit()  # never the file's own fit: it may be forged

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

    def _folder_trusted(self, path: Path) -> bool:
        """Whether the state file's folder passes the model cache's rules; once it fails,
        the file is neither read nor written again (one warning), and the sample is kept in
        memory. Its lock file is never opened there either."""
        if self._shared and private_folder(path.parent) is None:  # made 0700 when missing
            self._shared = False
            logger.warning(
                "ragguard calibration: not reading or writing %s: its folder is not private "
                "to this user (owned by you or root, writable by no one else); the sample is "
                "kept in memory",
                path,
            )
        return self._shared

    def _merge(self, stored: StoredPipeline | None) -> None:
        """Add the file's samples for this pipeline's model (validated by ``StateFile``)."""
        if stored is None or stored.fingerprint != self.fingerprint:
            return  # another model's sample says nothing of this one's scores
        for key, score, verdict in stored.samples:
            self._samples.setdefault(key, (score, verdict))

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
            if not self._folder_trusted(path):
                self._add(samples, refit)
                return
            try:
                with _locked(path):
                    pipelines = _read_state(path)
                    self._merge(pipelines.get(self.pipeline))
                    self._add(samples, refit)
                    pipelines[self.pipeline] = self._stored()
                    _write(path, pipelines)
            except OSError as error:
                logger.warning("ragguard calibration: cannot update %s: %s", path, error)
                self._add(samples, refit)

    def _add(self, samples: Sequence[Sample], refit: bool = False) -> None:
        for key, score, verdict in samples:
            if not _storable(key, score):
                logger.warning("ragguard calibration: sample %.80r not stored (bad key)", key)
                continue  # what the file's schema refuses would make the file unreadable
            self._samples.pop(key, None)
            self._samples[key] = (float(score), bool(verdict))
        self._trim()
        n = len(self._samples)
        due = max(10, self._fitted_on // 10)
        stale = self.fitted is None or n - self._fitted_on >= due
        if n >= self.config.min_samples and (refit or stale):
            self.refit()

    def _trim(self) -> None:
        """Keep the newest ``max_samples`` (in one pass: this runs under the file lock)."""
        excess = len(self._samples) - self.config.max_samples
        if excess > 0:
            self._samples = dict(itertools.islice(self._samples.items(), excess, None))

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
            bootstrap_rounds=0,  # the intervals are the card's; a refit here needs none
            must_show_better=False,  # the margin stands in for the interval
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

    def _stored(self) -> StoredPipeline:
        return StoredPipeline.model_construct(
            fingerprint=self.fingerprint,
            samples=[(k, s, v) for k, (s, v) in self._samples.items()],
            fitted=None if self.fitted is None else self.fitted.model_dump(mode="json"),
        )
