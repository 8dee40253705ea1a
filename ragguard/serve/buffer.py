"""Spans held per trace id until the trace is complete enough to evaluate.

A trace is due when its root span arrived ``grace_s`` ago (children that end after the root
still come in), or when no span of it came for ``idle_timeout_s`` (a root that never
arrives). Spans are deduplicated on (trace id, span id). Held traces and spans per trace
are capped: the oldest trace is evicted (counted) when a new one would pass the cap, and a
span past its trace's cap is rejected (counted). An evaluated trace's spans are kept for
``late_span_window_s``: a span arriving in that time makes the trace due again, under the
same trace id, so downstream results are replaced, not duplicated.

Sampling is by a hash of the trace id, so every span of a trace gets the same decision,
on every instance, and the traces kept at a lower rate are a subset of those kept at a
higher one.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ragguard.runtime.sampling import hash_sample
from ragguard.serve.model import SpanRecord


@dataclass(frozen=True)
class BufferSettings:
    grace_s: float = 2.0
    idle_timeout_s: float = 30.0
    late_span_window_s: float = 300.0
    max_traces: int = 10_000
    max_spans_per_trace: int = 1_000
    sample_rate: float = 1.0


@dataclass
class _Held:
    spans: dict[str, SpanRecord]
    first_at: float
    last_at: float
    root_at: float | None = None
    revision: int = 0
    """0 for the first evaluation; each late span's re-evaluation adds one."""


@dataclass(frozen=True)
class Due:
    """A trace to assemble: its spans, why now (``root``, ``idle``, ``shutdown``) and its
    revision (a re-evaluation after late spans when above 0)."""

    trace_id: str
    spans: list[SpanRecord]
    reason: str
    revision: int
    arrived_at: float = 0.0
    """When the root span arrived (the last span, for a trace without one): where the
    root-to-verdict latency starts."""


@dataclass
class Added:
    accepted: int = 0
    rejected: int = 0
    """Past the per-trace span cap: reported back as partial success."""
    duplicates: int = 0
    sampled_out: int = 0
    evicted: list[str] = field(default_factory=list)


class TraceBuffer:
    """Thread-safe; ``clock`` is injectable so tests control time."""

    def __init__(
        self, settings: BufferSettings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._pending: OrderedDict[str, _Held] = OrderedDict()
        self._done: OrderedDict[str, tuple[float, _Held]] = OrderedDict()
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.held_spans = 0

    @property
    def held_traces(self) -> int:
        return len(self._pending)

    def add(self, spans: Iterable[SpanRecord]) -> Added:
        added = Added()
        rate = self.settings.sample_rate
        with self._lock:
            now = self.clock()
            for span in spans:
                if not hash_sample(span.trace_id, rate):
                    added.sampled_out += 1
                    continue
                held = self._held(span.trace_id, now, added)
                if span.span_id in held.spans:
                    added.duplicates += 1
                    continue
                if len(held.spans) >= self.settings.max_spans_per_trace:
                    added.rejected += 1
                    continue
                held.spans[span.span_id] = span
                self.held_spans += 1
                held.last_at = now
                if span.parent_id is None:
                    held.root_at = now
                added.accepted += 1
            self.counts.update(
                spans_accepted=added.accepted,
                spans_rejected=added.rejected,
                spans_duplicate=added.duplicates,
                spans_sampled_out=added.sampled_out,
                traces_evicted=len(added.evicted),
            )
        return added

    def _held(self, trace_id: str, now: float, added: Added) -> _Held:
        """The pending entry of ``trace_id``: existing, reopened from the evaluated ones
        (a late span), or new (evicting the oldest pending trace at the cap)."""
        held = self._pending.get(trace_id)
        if held is not None:
            return held
        done = self._done.pop(trace_id, None)
        if done is not None:
            held = done[1]
            held.revision += 1
            held.root_at = now if held.root_at is not None else None
            self.held_spans += len(held.spans)
        else:
            held = _Held(spans={}, first_at=now, last_at=now)
        if len(self._pending) >= self.settings.max_traces:
            evicted, old = self._pending.popitem(last=False)
            self.held_spans -= len(old.spans)
            added.evicted.append(evicted)
        self._pending[trace_id] = held
        return held

    def due(self) -> list[Due]:
        """The traces due now, removed from the pending ones (kept for late spans)."""
        settings = self.settings
        with self._lock:
            now = self.clock()
            ready = [
                (trace_id, "root" if held.root_at is not None else "idle")
                for trace_id, held in self._pending.items()
                if (held.root_at is not None and now - held.root_at >= settings.grace_s)
                or now - held.last_at >= settings.idle_timeout_s
            ]
            result = [self._finish(trace_id, reason, now) for trace_id, reason in ready]
            self._expire(now)
        return result

    def drain(self) -> list[Due]:
        """Every pending trace, due or not (shutting down)."""
        with self._lock:
            now = self.clock()
            return [self._finish(trace_id, "shutdown", now) for trace_id in list(self._pending)]

    def _finish(self, trace_id: str, reason: str, now: float) -> Due:
        held = self._pending.pop(trace_id)
        self.held_spans -= len(held.spans)
        self.counts[f"traces_due_{reason}"] += 1
        if self.settings.late_span_window_s > 0:
            self._done[trace_id] = (now, held)
            self._done.move_to_end(trace_id)
            while len(self._done) > self.settings.max_traces:
                self._done.popitem(last=False)
        arrived = held.root_at if held.root_at is not None else held.last_at
        return Due(trace_id, list(held.spans.values()), reason, held.revision, arrived)

    def _expire(self, now: float) -> None:
        window = self.settings.late_span_window_s
        while self._done:
            trace_id, (done_at, _) = next(iter(self._done.items()))
            if now - done_at < window:
                break
            del self._done[trace_id]
