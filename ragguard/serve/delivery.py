"""Everything ``serve`` sends out (verdicts to Phoenix, Langfuse or any other exporter;
requests to ``forward_otlp``) goes through an ``Outbox``: a bounded queue with a thread of
its own. The caller only queues: a backend that is slow, or accepts and never answers,
costs sends dropped (counted), never evaluation or receiving time, and ``close`` gives it
until the shutdown deadline, not a moment more."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ragguard.exporters import Exporter
from ragguard.schema import Evaluation, Trace

logger = logging.getLogger("ragguard.serve")


@dataclass(frozen=True)
class DeliveryCounts:
    sent: int
    failed: int
    """Raised (a refusal, a timeout): logged once per outbox, then only counted."""
    dropped: int
    """Past the queue's size, or still queued at the shutdown deadline."""


class Outbox:
    """Runs queued calls, one at a time, on a daemon thread; ``size`` wait at most."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._calls: deque[Callable[[], object]] = deque()
        self._busy = False
        self._closed = False
        self._changed = threading.Condition()
        self._sent = self._failed = self._dropped = 0
        self._thread = threading.Thread(target=self._run, name=f"ragguard-{name}", daemon=True)
        self._thread.start()

    @property
    def counts(self) -> DeliveryCounts:
        with self._changed:
            return DeliveryCounts(self._sent, self._failed, self._dropped)

    def put(self, call: Callable[[], object]) -> None:
        """Queue ``call``, or count it dropped when the queue is full or closed."""
        with self._changed:
            if self._closed or len(self._calls) >= self.size:
                self._dropped += 1
                return
            self._calls.append(call)
            self._changed.notify_all()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._calls and not self._closed:
                    self._changed.wait()
                if not self._calls:
                    return
                call = self._calls.popleft()
                self._busy = True
            failed = False
            try:
                call()
            except Exception as error:
                failed = True
                if not self._failed:
                    logger.warning(
                        "ragguard serve: %s failed (further failures are only counted): %s",
                        self.name,
                        error,
                    )
            with self._changed:
                self._busy = False
                self._failed += failed
                self._sent += not failed
                self._changed.notify_all()

    def close(self, deadline: float) -> int:
        """Run what is queued until ``deadline`` (a ``time.monotonic`` value), then drop
        the rest (counted); how many were dropped. A call under way at the deadline is left
        to the daemon thread (bounded by its own timeout)."""
        with self._changed:
            while (self._calls or self._busy) and (left := deadline - time.monotonic()) > 0:
                self._changed.wait(left)
            dropped = len(self._calls)
            self._dropped += dropped
            self._calls.clear()
            self._closed = True
            self._changed.notify_all()
        return dropped


class ExportQueue:
    """An ``Exporter`` (and ``status`` recorder) handing ``sink`` its calls through an
    ``Outbox`` of ``size``."""

    def __init__(self, sink: Exporter, size: int) -> None:
        self.sink = sink
        self.name = type(sink).__name__
        self.outbox = Outbox(f"serve-{self.name}", size)

    def export(self, trace: Trace, evaluation: Evaluation) -> None:
        self.outbox.put(lambda: self.sink.export(trace, evaluation))

    def status(self, trace_id: str, span_id: str, status: str, detail: str) -> None:
        """A trace with nothing to evaluate (a no-op for sinks that record no statuses)."""
        self.outbox.put(lambda: self.sink.status(trace_id, span_id, status, detail))

    def shutdown(self) -> None:
        """Nothing here: ``close`` (at serve's stop) bounds the wait by the deadline."""

    def close(self, deadline: float) -> int:
        """Deliver until ``deadline``, then let the sink shut down; how many were dropped."""
        dropped = self.outbox.close(deadline)
        try:
            self.sink.shutdown()
        except Exception as error:
            logger.warning("ragguard serve: shutting %s down failed: %s", self.name, error)
        return dropped
