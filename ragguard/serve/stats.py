"""The receiver's counters, as one snapshot (for ``/metrics``, the minute log line and
tests)."""

from __future__ import annotations

import bisect
import threading
from collections import Counter
from dataclasses import dataclass, field

LATENCY_BUCKETS = (0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)
"""Seconds from a root span's arrival to its verdict (the grace period is part of it)."""


@dataclass(frozen=True)
class ServeStats:
    spans: dict[str, int]
    """accepted, rejected, duplicate, sampled_out, malformed."""
    traces: dict[str, int]
    """Assembled traces by status (ready, content_not_captured, ...), and evaluated,
    failed, dropped, lost."""
    requests: dict[tuple[str, str], int]
    connections: dict[str, int]
    """OTLP/HTTP connections the receiver closed, by why (``over_cap``, ...)."""
    exports: dict[tuple[str, str], int]
    """(exporter, outcome): sent, failed, dropped."""
    refused_batches: int
    """Requests refused (429) because waiting traces left the buffer no room for them."""
    held_traces: int
    """Waiting traces and evaluated ones kept for late spans."""
    held_spans: int
    held_bytes: int
    queue_depth: int
    forward_errors: int
    latency_counts: list[int]
    latency_sum: float
    latency_total: int
    evaluating_bytes: int = 0
    """Bytes of the traces being evaluated (counted against ``serve.max_held_bytes``)."""
    inflight_bytes: int = 0
    """Bytes reserved by requests being read and decoded (``serve.max_inflight_bytes``)."""
    model_load_failures: int = 0
    """Failed attempts to load the models (a judge GGUF not there yet): retried with backoff."""

    def line(self) -> str:
        """The minute log line."""
        spans = " ".join(f"{k}={v}" for k, v in sorted(self.spans.items()))
        traces = " ".join(f"{k}={v}" for k, v in sorted(self.traces.items()))
        return (
            f"spans: {spans or 'none'}; traces: {traces or 'none'}; "
            f"refused_for_room={self.refused_batches} "
            f"held={self.held_traces} traces/{self.held_spans} spans/{self.held_bytes} bytes "
            f"queue={self.queue_depth}"
        )


@dataclass
class Counters:
    """Thread-safe counting behind ``ServeStats``."""

    spans: Counter[str] = field(default_factory=Counter)
    traces: Counter[str] = field(default_factory=Counter)
    requests: Counter[tuple[str, str]] = field(default_factory=Counter)
    connections: Counter[str] = field(default_factory=Counter)
    forward_errors: int = 0
    latencies: list[float] = field(default_factory=list)
    """The last ``MAX_LATENCIES`` root-to-verdict times (for the benchmark's percentiles)."""
    latency_counts: list[int] = field(default_factory=lambda: [0] * len(LATENCY_BUCKETS))
    latency_sum: float = 0.0
    latency_total: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    MAX_LATENCIES = 100_000

    def latency(self, seconds: float) -> None:
        with self.lock:
            index = bisect.bisect_left(LATENCY_BUCKETS, seconds)
            for bucket in range(index, len(LATENCY_BUCKETS)):
                self.latency_counts[bucket] += 1
            self.latency_sum += seconds
            self.latency_total += 1
            if len(self.latencies) < self.MAX_LATENCIES:
                self.latencies.append(seconds)
