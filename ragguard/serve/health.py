"""``serve``'s health: whether it is ready (the models loaded, not stopping), the one
snapshot of its counters (``ServeStats``: ``/metrics``, the minute log line, tests), and
the metrics and health endpoint that serves them."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from http.server import ThreadingHTTPServer

from ragguard.evaluation import Guard
from ragguard.runtime import reload_delay
from ragguard.serve.addresses import parse
from ragguard.serve.buffer import TraceBuffer
from ragguard.serve.evaluating import Evaluating
from ragguard.serve.outgoing import Outgoing
from ragguard.serve.receiving import Receiving
from ragguard.serve.startup import listening
from ragguard.serve.stats import ServeStats

logger = logging.getLogger("ragguard.serve")


class Health:
    def __init__(
        self,
        receiving: Receiving,
        buffer: TraceBuffer,
        evaluating: Evaluating,
        outgoing: Outgoing,
        stopping: threading.Event,
    ) -> None:
        self.receiving = receiving
        self.buffer = buffer
        self.evaluating = evaluating
        self.outgoing = outgoing
        self.stopping = stopping
        self._ready = threading.Event()
        self.load_failures = 0
        """Failed attempts to load the models (``warm`` retries them)."""

    def warm(self, guard: Guard) -> None:
        """Load the models (the warm-up thread), again after a failure (a judge GGUF still
        being copied, a port taken) after ``runtime.reload_delay``; ready once they load."""
        while not self.stopping.is_set():
            try:
                guard.warmup()
            except Exception:
                self.load_failures += 1
                delay = reload_delay(self.load_failures)
                logger.exception(
                    "ragguard serve: loading the models failed (%d times; again in %.0f s)",
                    self.load_failures,
                    delay,
                )
                if self.stopping.wait(delay):
                    return
                continue
            self._ready.set()
            return

    def ready(self) -> bool:
        return self._ready.is_set() and not self.stopping.is_set()

    def stats(self) -> ServeStats:
        counters = self.receiving.counters
        traces = self.evaluating.live_counts()
        exports = self.outgoing.counts()
        forwarder = self.receiving.forwarder
        with counters.lock:
            for name, value in counters.traces.items():
                traces[name] = traces.get(name, 0) + value
            return ServeStats(
                spans=dict(counters.spans),
                traces=traces,
                requests=dict(counters.requests),
                connections=dict(counters.connections),
                exports=exports,
                refused_batches=self.buffer.counts["batches_refused"],
                held_traces=self.buffer.held_traces,
                held_spans=self.buffer.held_spans,
                held_bytes=self.buffer.held_bytes,
                queue_depth=self.evaluating.queue_depth(),
                forward_errors=forwarder.errors if forwarder else 0,
                latency_counts=list(counters.latency_counts),
                latency_sum=counters.latency_sum,
                latency_total=counters.latency_total,
                evaluating_bytes=self.buffer.evaluating_bytes,
                inflight_bytes=self.receiving.inflight.used,
                model_load_failures=self.load_failures,
            )

    def log_every(self, interval: float) -> None:
        """The log thread's loop: one line of counters every ``interval``, until stopping."""
        while not self.stopping.wait(interval):
            logger.info("ragguard serve: %s", self.stats().line())

    def start_endpoint(
        self, address: str, closers: list[Callable[[], None]]
    ) -> ThreadingHTTPServer:
        """Register the receiver's metrics (``closers`` gets their removal) and serve
        ``/metrics``, ``/healthz`` and ``/readyz`` on ``address``."""
        from prometheus_client import REGISTRY

        from ragguard.serve.metrics_http import ServeCollector, health_server

        collector = ServeCollector(self.stats)
        REGISTRY.register(collector)
        closers.append(lambda: REGISTRY.unregister(collector))
        host, port = parse(address)
        return listening(
            "metrics",
            address,
            port,
            lambda: health_server(host, port, self.ready, lambda: not self.stopping.is_set()),
        )
