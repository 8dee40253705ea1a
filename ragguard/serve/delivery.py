"""Everything ``serve`` sends out (verdicts to Phoenix, Langfuse or any other exporter;
requests to ``forward_otlp``) goes through an ``Outbox``: a bounded queue with a thread of
its own, whose calls run under the one delivery policy (``exporters.delivery``, the same as
``wrap``'s). The caller only queues: a backend that is slow, or accepts and never answers,
costs sends dropped (counted), never evaluation or receiving time, and ``close`` gives it
until the shutdown deadline, not a moment more."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

from ragguard.exporters import (
    Delivery,
    DeliveryCounts,
    Exporter,
    ExporterDelivery,
    ExportResult,
    FailurePolicy,
    Finished,
    StatusNote,
    StatusRecorder,
)
from ragguard.runtime import record_process_event

__all__ = ["DeliveryCounts", "ExportQueue", "Outbox"]


class Outbox:
    """Runs queued calls, one at a time, on a daemon thread, under ``delivery``'s policy;
    ``size`` wait at most."""

    def __init__(self, name: str, size: int, delivery: Delivery | None = None) -> None:
        self.name = name
        self.size = size
        self.delivery = delivery or Delivery(name)
        self._calls: deque[tuple[str, Callable[[], object]]] = deque()
        self._busy = False
        self._closed = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=f"ragguard-{name}", daemon=True)
        self._thread.start()

    @property
    def counts(self) -> DeliveryCounts:
        return self.delivery.counts

    def put(self, call: Callable[[], object], what: str = "send") -> None:
        """Queue ``call``, or count it dropped when the queue is full or closed."""
        with self._changed:
            if not self._closed and len(self._calls) < self.size:
                self._calls.append((what, call))
                self._changed.notify_all()
                return
        self.delivery.drop()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._calls and not self._closed:
                    self._changed.wait()
                if not self._calls:
                    return
                what, call = self._calls.popleft()
                self._busy = True
            self.delivery.attempt(what, call)
            with self._changed:
                self._busy = False
                self._changed.notify_all()

    def close(self, deadline: float) -> int:
        """Run what is queued until ``deadline`` (a ``time.monotonic`` value), then drop
        the rest (counted); how many were dropped. A call under way at the deadline is left
        to the daemon thread (bounded by its own timeout)."""
        with self._changed:
            while (self._calls or self._busy) and (left := deadline - time.monotonic()) > 0:
                self._changed.wait(left)
            dropped = len(self._calls)
            self._calls.clear()
            self._closed = True
            self._changed.notify_all()
        self.delivery.drop(dropped)
        return dropped


class ExportQueue:
    """An ``Exporter`` (and ``StatusRecorder``) handing ``sink`` its calls through an
    ``Outbox`` of ``size``; a failed call also counts in ``ragguard.stats().export_errors``."""

    def __init__(self, sink: Exporter, size: int) -> None:
        count = FailurePolicy(on_failure=lambda: record_process_event("export_errors"))
        self.sink = ExporterDelivery(sink, count)
        self.name = type(sink).__name__
        self.outbox = Outbox(f"serve-{self.name}", size, self.sink.delivery)

    def export(self, batch: Sequence[Finished]) -> ExportResult:
        """Queued, not sent: the outbox counts what becomes of it."""
        self.outbox.put(lambda: self.sink.exporter.export(batch), "export")
        return ExportResult.SUCCESS

    def record_status(self, note: StatusNote) -> None:
        """A trace with nothing to evaluate, for a sink that records statuses."""
        sink = self.sink.exporter
        if isinstance(sink, StatusRecorder):
            self.outbox.put(lambda: sink.record_status(note), "status")

    def force_flush(self, timeout_s: float = 30.0) -> bool:
        return True  # ``close`` bounds the wait by serve's shutdown deadline

    def shutdown(self) -> None:
        """Nothing here: ``close`` (at serve's stop) bounds the wait by the deadline."""

    def close(self, deadline: float) -> int:
        """Deliver until ``deadline``, then let the sink shut down; how many were dropped."""
        dropped = self.outbox.close(deadline)
        self.sink.shutdown()
        return dropped
