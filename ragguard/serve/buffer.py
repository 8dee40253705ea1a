"""Spans held per trace id until the trace is complete enough to evaluate.

A trace is due when its root span arrived ``grace_s`` ago (children that end after the root
still come in), or when no span of it came for ``idle_timeout_s`` (a root that never
arrives). Spans are deduplicated on (trace id, span id). Held traces, span bytes and spans
per trace are capped. A waiting trace is never evicted: it was acknowledged, and may be a
complete one about to be evaluated, so a batch that waiting traces leave no room for is
refused whole (the receivers answer 429, which exporters retry); evaluated traces kept for
late spans are let go to make room. A span past its trace's cap is rejected (counted).
An evaluated trace's spans are kept for
``late_span_window_s``: a span arriving in that time makes the trace due again, under the
same trace id, so downstream results are replaced, not duplicated. A kept trace's spans are
held pickled and compressed (they are read again only if a late span comes): at 20 traces/s
a 300 s window keeps 6,000 traces, and as Python objects they took about 2.4 times their
wire size in RSS, half that held this way ([Hardening](../../docs/hardening.md)).

Sampling is by a hash of the trace id, so every span of a trace gets the same decision,
on every instance, and the traces kept at a lower rate are a subset of those kept at a
higher one.
"""

from __future__ import annotations

import pickle
import threading
import time
import zlib
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ragguard.config import ServeConfig
from ragguard.runtime import hash_sample
from ragguard.serve.model import SpanRecord, estimated_size


@dataclass(frozen=True)
class BufferSettings:
    grace_s: float = 2.0
    idle_timeout_s: float = 30.0
    late_span_window_s: float = 300.0
    max_traces: int = 10_000
    max_spans_per_trace: int = 1_000
    sample_rate: float = 1.0
    max_bytes: int = 256_000_000
    """Span bytes held, waiting and kept traces together (``serve.max_held_bytes``)."""

    @classmethod
    def of(cls, serve: ServeConfig) -> BufferSettings:
        """The buffer's part of ``[serve]``."""
        return cls(
            grace_s=serve.grace_s,
            idle_timeout_s=serve.idle_timeout_s,
            late_span_window_s=serve.late_span_window_s,
            max_traces=serve.max_traces,
            max_spans_per_trace=serve.max_spans_per_trace,
            sample_rate=serve.sample_rate,
            max_bytes=serve.max_held_bytes,
        )


@dataclass
class _Held:
    spans: dict[str, SpanRecord]
    first_at: float
    last_at: float
    root_at: float | None = None
    revision: int = 0
    """0 for the first evaluation; each late span's re-evaluation adds one."""
    late_services: set[str] = field(default_factory=set)
    """Services other than the root's whose late spans reopened it since its last due."""
    size: int = 0
    """Bytes of its spans (``SpanRecord.size``, else an estimate)."""
    packed: bytes = b""
    """Its spans, pickled and compressed, while it is kept for late spans (``spans`` is
    then empty). Only this process writes and reads it."""
    packed_spans: int = 0
    """How many spans ``packed`` holds."""

    @property
    def span_count(self) -> int:
        return self.packed_spans if self.packed else len(self.spans)

    def pack(self) -> None:
        """Hold the spans compactly; values too deep to pickle stay as they are."""
        try:
            self.packed = zlib.compress(pickle.dumps(list(self.spans.values()), protocol=5), 1)
        except RecursionError:
            return
        self.packed_spans, self.spans = len(self.spans), {}

    def unpack(self) -> None:
        if self.packed:
            spans: list[SpanRecord] = pickle.loads(zlib.decompress(self.packed))
            self.spans, self.packed = {span.span_id: span for span in spans}, b""


def _size(span: SpanRecord) -> int:
    """A span's held size when its decoder did not give one (hand-built spans)."""
    return estimated_size(span.attributes, span.events)


def _root_service(held: _Held) -> str | None:
    """The service of a held trace's root span (None: no root)."""
    return next((s.service for s in held.spans.values() if s.parent_id is None), None)


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
    size: int = 0
    """Bytes of its spans (``SpanRecord.size``): counted while it is evaluated."""
    late_from: tuple[str, ...] = ()
    """A re-evaluation: the services other than the root's whose late spans caused it."""


@dataclass
class Added:
    accepted: int = 0
    rejected: int = 0
    """Past the per-trace span cap: reported back as partial success."""
    duplicates: int = 0
    sampled_out: int = 0
    refused: bool = False
    """Waiting traces leave no room for the batch: nothing of it was taken."""
    over_capacity: int = 0
    """Spans of a batch larger than the whole buffer, past what it holds: rejected."""


@dataclass
class _Tally:
    """Traces, spans and bytes of one part of the buffer (waiting, or kept)."""

    traces: int = 0
    spans: int = 0
    bytes: int = 0

    def change(self, held: _Held, sign: int) -> None:
        self.traces += sign
        self.spans += sign * held.span_count
        self.bytes += sign * held.size


class TraceBuffer:
    """Thread-safe; ``clock`` is injectable so tests control time. Holds at most
    ``max_traces`` waiting traces, as many kept ones, and ``max_bytes`` of spans in all."""

    def __init__(
        self, settings: BufferSettings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._pending: OrderedDict[str, _Held] = OrderedDict()
        self._done: OrderedDict[str, tuple[float, _Held]] = OrderedDict()
        self._lock = threading.RLock()  # reentrant: a finalizer may end an evaluation anywhere
        self.counts: Counter[str] = Counter()
        self.waiting = _Tally()
        """Traces not evaluated yet."""
        self.kept = _Tally()
        """Evaluated traces kept for late spans."""
        self.rooted = 0
        """Waiting traces whose root span came: each will be due within ``grace_s``."""
        self.evaluating_bytes = 0
        """Bytes of the traces handed to evaluation and still held there (queued, evaluated,
        or waiting for their verdict's delivery): they count against ``max_bytes`` with
        the waiting ones, so the evaluation queue is bounded in bytes too."""

    @property
    def held_traces(self) -> int:
        return self.waiting.traces + self.kept.traces

    @property
    def held_spans(self) -> int:
        return self.waiting.spans + self.kept.spans

    @property
    def held_bytes(self) -> int:
        return self.waiting.bytes + self.kept.bytes

    def evaluation_started(self, size: int) -> None:
        """A trace of ``size`` bytes went to evaluation."""
        with self._lock:
            self.evaluating_bytes += size
            self._shed()

    def evaluation_ended(self, size: int) -> None:
        """A trace handed to evaluation is no longer held there."""
        with self._lock:
            self.evaluating_bytes -= size

    @property
    def unreleasable_bytes(self) -> int:
        """Bytes that cannot be let go to make room: waiting and evaluating traces."""
        return self.waiting.bytes + self.evaluating_bytes

    def add(self, spans: Sequence[SpanRecord]) -> Added:
        """Take a batch whole, or none of it (``refused``) when waiting traces leave no room
        for it; a batch larger than the whole empty buffer is taken up to what it holds."""
        added = Added()
        rate = self.settings.sample_rate
        kept = spans if rate >= 1.0 else [s for s in spans if hash_sample(s.trace_id, rate)]
        added.sampled_out = len(spans) - len(kept)
        sampled = [(span, span.size or _size(span)) for span in kept]
        with self._lock:
            self.counts["spans_sampled_out"] += added.sampled_out
            whole = self._room_for(sampled)
            if not whole and (self._pending or self.evaluating_bytes):
                added.refused = True
                self.counts["batches_refused"] += 1
                self.counts["spans_refused"] += len(sampled)
                return added
            self._take(sampled, added, whole)
            self._shed()
            self.counts.update(
                spans_accepted=added.accepted,
                spans_rejected=added.rejected + added.over_capacity,
                spans_duplicate=added.duplicates,
            )
        return added

    def _take(self, sampled: list[tuple[SpanRecord, int]], added: Added, whole: bool) -> None:
        """Hold each span of a batch; unless the ``whole`` batch fits, each span is checked
        to fit first."""
        now = self.clock()
        pending, most_spans = self._pending, self.settings.max_spans_per_trace
        for span, size in sampled:
            if not whole and not self._fits(span.trace_id, size):
                added.over_capacity += 1
                continue
            held = pending.get(span.trace_id)
            if held is None:
                held = self._held(span.trace_id, now)
            if span.span_id in held.spans:
                added.duplicates += 1
                continue
            if len(held.spans) >= most_spans:
                added.rejected += 1
                continue
            if held.revision and span.service != _root_service(held):
                held.late_services.add(span.service)
            held.spans[span.span_id] = span
            held.size += size
            self.waiting.spans += 1
            self.waiting.bytes += size
            held.last_at = now
            if span.parent_id is None:
                if held.root_at is None:
                    self.rooted += 1
                held.root_at = now
            added.accepted += 1

    def _room_for(self, sampled: list[tuple[SpanRecord, int]]) -> bool:
        """Whether the whole batch fits beside the waiting and evaluating traces (kept ones
        can be let go): then no span of it needs checking."""
        pending = self._pending  # not ``set - keys()``: that walks every pending trace
        new = {span.trace_id for span, _ in sampled if span.trace_id not in pending}
        reopened = sum(self._done[t][1].size for t in new if t in self._done)
        incoming = sum(size for _, size in sampled) + reopened
        return (
            len(pending) + len(new) <= self.settings.max_traces
            and self.unreleasable_bytes + incoming <= self.settings.max_bytes
        )

    def _fits(self, trace_id: str, size: int) -> bool:
        """Whether one more span fits beside the waiting traces (with its trace's kept
        spans, when it reopens one)."""
        if trace_id in self._pending:
            return self.unreleasable_bytes + size <= self.settings.max_bytes
        done = self._done.get(trace_id)
        size += done[1].size if done is not None else 0
        return (
            self.unreleasable_bytes + size <= self.settings.max_bytes
            and len(self._pending) < self.settings.max_traces
        )

    def _held(self, trace_id: str, now: float) -> _Held:
        """The pending entry of ``trace_id``: existing, reopened from the evaluated ones
        (a late span), or new."""
        held = self._pending.get(trace_id)
        if held is not None:
            return held
        done = self._done.pop(trace_id, None)
        if done is not None:
            held = done[1]
            self.kept.change(held, -1)
            held.unpack()
            held.revision += 1
            held.root_at = now if held.root_at is not None else None
        else:
            held = _Held(spans={}, first_at=now, last_at=now)
        self._pending[trace_id] = held
        self.waiting.change(held, 1)
        self.rooted += held.root_at is not None
        return held

    def _left(self, held: _Held) -> None:
        self.waiting.change(held, -1)
        self.rooted -= held.root_at is not None

    def _shed(self) -> None:
        """Back under ``max_bytes`` by letting kept traces go, oldest first (they were
        evaluated; counted). Waiting ones are never let go: ``_room_for`` keeps them
        within the bound."""
        while self.held_bytes + self.evaluating_bytes > self.settings.max_bytes and self._done:
            self._let_go(next(iter(self._done)))

    def due(self, limit: int | None = None) -> list[Due]:
        """The traces due now (at most ``limit``, the oldest first), removed from the
        pending ones (kept for late spans); those past ``limit`` stay until a next call."""
        settings = self.settings
        with self._lock:
            now = self.clock()
            ready = [
                (trace_id, "root" if held.root_at is not None else "idle")
                for trace_id, held in self._pending.items()
                if (held.root_at is not None and now - held.root_at >= settings.grace_s)
                or now - held.last_at >= settings.idle_timeout_s
            ]
            if limit is not None:
                ready = ready[: max(limit, 0)]
            result = [self._finish(trace_id, reason, now) for trace_id, reason in ready]
            self._expire(now)
        return result

    def drain(self) -> list[Due]:
        """Every pending trace, due or not (shutting down)."""
        with self._lock:
            now = self.clock()
            return [self._finish(trace_id, "shutdown", now) for trace_id in list(self._pending)]

    def release(self, trace_id: str) -> None:
        """Keep nothing of an evaluated trace (one that has nothing to evaluate): a late
        span starts it afresh."""
        with self._lock:
            done = self._done.pop(trace_id, None)
            if done is not None:
                self.kept.change(done[1], -1)

    def _finish(self, trace_id: str, reason: str, now: float) -> Due:
        held = self._pending.pop(trace_id)
        self._left(held)
        self.counts[f"traces_due_{reason}"] += 1
        spans = list(held.spans.values())
        if self.settings.late_span_window_s > 0:
            held.pack()
            self._done[trace_id] = (now, held)
            self._done.move_to_end(trace_id)
            self.kept.change(held, 1)
            while len(self._done) > self.settings.max_traces:
                self._let_go(next(iter(self._done)))
        arrived = held.root_at if held.root_at is not None else held.last_at
        late_from, held.late_services = tuple(sorted(held.late_services)), set()
        return Due(trace_id, spans, reason, held.revision, arrived, held.size, late_from)

    def _let_go(self, trace_id: str) -> None:
        """A kept trace goes before its window ends, to make room (counted)."""
        _, held = self._done.pop(trace_id)
        self.kept.change(held, -1)
        self.counts["kept_released"] += 1

    def _expire(self, now: float) -> None:
        window = self.settings.late_span_window_s
        while self._done:
            trace_id, (done_at, held) = next(iter(self._done.items()))
            if now - done_at < window:
                break
            del self._done[trace_id]
            self.kept.change(held, -1)
