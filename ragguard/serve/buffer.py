"""Spans held per trace id until the trace is complete enough to evaluate.

A trace is due when its root span arrived ``grace_s`` ago (children that end after the root
still come in), or when no span of it came for ``idle_timeout_s`` (a root that never
arrives). Spans are deduplicated on (trace id, span id). Held traces and spans per trace
are capped: the oldest trace is evicted (counted) when a new one would pass the cap, and a
span past its trace's cap is rejected (counted). An evaluated trace's spans are kept for
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ragguard.runtime.sampling import hash_sample
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


@dataclass
class _Held:
    spans: dict[str, SpanRecord]
    first_at: float
    last_at: float
    root_at: float | None = None
    revision: int = 0
    """0 for the first evaluation; each late span's re-evaluation adds one."""
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
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.waiting = _Tally()
        """Traces not evaluated yet."""
        self.kept = _Tally()
        """Evaluated traces kept for late spans."""
        self.rooted = 0
        """Waiting traces whose root span came: each will be due within ``grace_s``."""

    @property
    def held_traces(self) -> int:
        return self.waiting.traces + self.kept.traces

    @property
    def held_spans(self) -> int:
        return self.waiting.spans + self.kept.spans

    @property
    def held_bytes(self) -> int:
        return self.waiting.bytes + self.kept.bytes

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
                size = span.size or estimated_size(span.attributes, span.events)
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
            self._shed(added)
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
            self.kept.change(held, -1)
            held.unpack()
            held.revision += 1
            held.root_at = now if held.root_at is not None else None
        else:
            held = _Held(spans={}, first_at=now, last_at=now)
        if len(self._pending) >= self.settings.max_traces:
            self._evict(added)
        self._pending[trace_id] = held
        self.waiting.change(held, 1)
        self.rooted += held.root_at is not None
        return held

    def _evict(self, added: Added) -> None:
        """The oldest waiting trace goes, unevaluated (counted)."""
        evicted, old = self._pending.popitem(last=False)
        self._left(old)
        added.evicted.append(evicted)

    def _left(self, held: _Held) -> None:
        self.waiting.change(held, -1)
        self.rooted -= held.root_at is not None

    def _shed(self, added: Added) -> None:
        """Back under ``max_bytes``: kept traces go first (oldest first: they were
        evaluated), then waiting ones (evicted, counted)."""
        limit = self.settings.max_bytes
        while self.held_bytes > limit and self._done:
            _, (_, held) = self._done.popitem(last=False)
            self.kept.change(held, -1)
            self.counts["kept_released"] += 1
        while self.held_bytes > limit and self._pending:
            self._evict(added)

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
                _, (_, old) = self._done.popitem(last=False)
                self.kept.change(old, -1)
        arrived = held.root_at if held.root_at is not None else held.last_at
        return Due(trace_id, spans, reason, held.revision, arrived)

    def _expire(self, now: float) -> None:
        window = self.settings.late_span_window_s
        while self._done:
            trace_id, (done_at, held) = next(iter(self._done.items()))
            if now - done_at < window:
                break
            del self._done[trace_id]
            self.kept.change(held, -1)
