"""The delivery policy, one definition for ``wrap`` (the Monitor, on its worker's delivery
thread) and ``serve`` (behind an ``Outbox`` queue): every call to a destination ends counted,
as sent or failed; a failure (an exception, or an exporter's ``ExportResult.FAILURE``) never
reaches the caller; the first exception is logged with its traceback (a reported failure,
whose exporter logged its own cause, at info), the rest only counted, so a collector that is
down does not print one per request. What never got a call (a full queue,
a closed one) is counted as dropped by whoever held it, with ``Delivery.drop``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragguard.exporters.base import Exporter, ExportResult, Finished, StatusNote, StatusRecorder

logger = logging.getLogger("ragguard")


@dataclass(frozen=True)
class DeliveryCounts:
    sent: int
    failed: int
    """Raised or reported failure (a refusal, a timeout): logged once, then only counted."""
    dropped: int
    """Never tried: past a queue's size, or still queued at the shutdown deadline."""


def _nothing() -> None:
    return None


ONLY_COUNTED = "further failures are only counted"
"""The default ending of a destination's first failure line."""


@dataclass(frozen=True)
class FailurePolicy:
    """What a destination's failure does besides being counted: ``on_failure`` runs at each
    one (the Monitor's ``export_errors`` count); ``hint`` ends the first one's log line."""

    on_failure: Callable[[], object] = _nothing
    hint: str = ONLY_COUNTED


class Delivery:
    """One destination under the policy, with what its failures do (``policy``)."""

    def __init__(self, name: str, policy: FailurePolicy = FailurePolicy()) -> None:
        self.name = name
        self.policy = policy
        self._lock = threading.Lock()
        self._sent = self._failed = self._dropped = 0

    @property
    def counts(self) -> DeliveryCounts:
        with self._lock:
            return DeliveryCounts(self._sent, self._failed, self._dropped)

    def attempt(self, what: str, call: Callable[[], object], *, sending: bool = True) -> bool:
        """Run ``call``; True when it succeeded. Never raises. A failure is counted always,
        a success only when ``sending`` (a flush or a shutdown sends no record)."""
        try:
            outcome = call()
        except Exception:
            self._fail(what, traceback=True)
            return False
        if outcome is ExportResult.FAILURE or outcome is False:
            self._fail(what, traceback=False)
            return False
        if sending:
            with self._lock:
                self._sent += 1
        return True

    def drop(self, n: int = 1) -> None:
        with self._lock:
            self._dropped += n

    def _fail(self, what: str, *, traceback: bool) -> None:
        with self._lock:
            first = not self._failed
            self._failed += 1
        try:
            self.policy.on_failure()
        finally:
            hint = self.policy.hint
            if first and traceback:
                logger.exception("ragguard: %s of %s failed (%s)", what, self.name, hint)
            elif first:  # a reported failure: the exporter logged its own cause
                logger.info("ragguard: %s of %s reported a failure (%s)", what, self.name, hint)


class ExporterDelivery:
    """An exporter with its ``Delivery``: exports, notes, flushes and shutdowns all under
    the one policy."""

    def __init__(self, exporter: Exporter, policy: FailurePolicy = FailurePolicy()) -> None:
        self.exporter = exporter
        self.delivery = Delivery(type(exporter).__name__, policy)

    def export(self, batch: Sequence[Finished]) -> bool:
        return self.delivery.attempt("export", lambda: self.exporter.export(batch))

    def record_status(self, note: StatusNote) -> bool:
        """A status note, to an exporter that records them (True: nothing to do)."""
        exporter = self.exporter
        if not isinstance(exporter, StatusRecorder):
            return True
        return self.delivery.attempt("status", lambda: exporter.record_status(note))

    def force_flush(self, timeout_s: float = 30.0) -> bool:
        flush = self.exporter.force_flush
        return self.delivery.attempt("force_flush", lambda: flush(timeout_s), sending=False)

    def shutdown(self) -> bool:
        return self.delivery.attempt("shutdown", self.exporter.shutdown, sending=False)
