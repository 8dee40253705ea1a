"""``/metrics`` (prometheus_client's default registry: the evaluation metrics and the
receiver's), ``/healthz`` (the process answers) and ``/readyz`` (the receivers are bound
and the evaluator started; 503 while loading and once shutting down). A scrape's request
must come within ``HEAD_TIMEOUT_S`` of its first byte, as the receiver's must."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from prometheus_client import REGISTRY, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import Metric

from ragguard.serve.connections import DeadlineReader
from ragguard.serve.stats import LATENCY_BUCKETS, ServeStats

HEAD_TIMEOUT_S = 10.0
"""A request to the metrics and health endpoint: its head within this long, and no read
waits longer (a client dripping its request holds a thread no longer)."""


LABELLED: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("ragguard_serve_spans", "Spans received, by outcome.", ("outcome",), "spans"),
    ("ragguard_serve_traces", "Traces assembled, by status.", ("status",), "traces"),
    (
        "ragguard_serve_requests",
        "OTLP requests, by result.",
        ("protocol", "result"),
        "requests",
    ),
    (
        "ragguard_serve_connections_closed",
        "OTLP/HTTP connections closed by the receiver, by why.",
        ("reason",),
        "connections",
    ),
    (
        "ragguard_serve_exports",
        "Verdicts and statuses for Phoenix, Langfuse and other exporters, by outcome.",
        ("exporter", "outcome"),
        "exports",
    ),
)
"""The labelled counters: (metric, help, labels, the ``ServeStats`` field they count)."""

PLAIN: tuple[tuple[type[CounterMetricFamily | GaugeMetricFamily], str, str, str], ...] = (
    (
        CounterMetricFamily,
        "ragguard_serve_refused_for_room",
        "Requests refused (429) because waiting traces left the buffer no room for them.",
        "refused_batches",
    ),
    (
        CounterMetricFamily,
        "ragguard_serve_model_load_failures",
        "Failed attempts to load the models (the lite tier or the judge); each is retried "
        "with a doubling backoff, and /readyz answers 503 until one loads.",
        "model_load_failures",
    ),
    (
        CounterMetricFamily,
        "ragguard_serve_forward_errors",
        "Requests not forwarded.",
        "forward_errors",
    ),
    (
        GaugeMetricFamily,
        "ragguard_serve_held_traces",
        "Traces held: waiting, or evaluated and kept for late spans.",
        "held_traces",
    ),
    (GaugeMetricFamily, "ragguard_serve_held_spans", "Spans of the held traces.", "held_spans"),
    (
        GaugeMetricFamily,
        "ragguard_serve_held_bytes",
        "Bytes of the held spans (their size in memory), bounded by serve.max_held_bytes.",
        "held_bytes",
    ),
    (
        GaugeMetricFamily,
        "ragguard_serve_evaluating_bytes",
        "Bytes of the traces being evaluated, bounded with the waiting ones by "
        "serve.max_held_bytes.",
        "evaluating_bytes",
    ),
    (
        GaugeMetricFamily,
        "ragguard_serve_inflight_bytes",
        "Bytes reserved by requests being read and decoded, bounded by serve.max_inflight_bytes.",
        "inflight_bytes",
    ),
    (
        GaugeMetricFamily,
        "ragguard_serve_queue_depth",
        "Traces waiting for evaluation.",
        "queue_depth",
    ),
)
"""The unlabelled counters and gauges: (kind, metric, help, the ``ServeStats`` field)."""


class ServeCollector:
    """The receiver's counters, read from its stats at scrape time (registered while the
    app runs, so several apps in one process never clash over metric names)."""

    def __init__(self, stats: Callable[[], ServeStats]) -> None:
        self.stats = stats

    def describe(self) -> Iterable[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        stats = self.stats()
        for name, documentation, labels, field in LABELLED:
            family = CounterMetricFamily(name, documentation, labels=list(labels))
            values: dict[str | tuple[str, ...], int] = getattr(stats, field)
            for key, value in values.items():
                family.add_metric(list(key) if isinstance(key, tuple) else [key], value)
            yield family
        for kind, name, documentation, field in PLAIN:
            yield kind(name, documentation, value=getattr(stats, field))
        buckets = [(str(b), c) for b, c in zip(LATENCY_BUCKETS, stats.latency_counts, strict=True)]
        yield HistogramMetricFamily(
            "ragguard_serve_root_to_verdict_seconds",
            "From the root span's arrival to the verdict's delivery.",
            buckets=[*buckets, ("+Inf", stats.latency_total)],
            sum_value=stats.latency_sum,
        )


def health_server(
    host: str, port: int, ready: Callable[[], bool], alive: Callable[[], bool]
) -> ThreadingHTTPServer:
    """Start the metrics and health endpoints on a daemon thread."""

    class Handler(BaseHTTPRequestHandler):
        timeout = HEAD_TIMEOUT_S

        def setup(self) -> None:
            super().setup()
            self.reader = DeadlineReader(self.connection, HEAD_TIMEOUT_S, HEAD_TIMEOUT_S)
            self.rfile = io.BufferedReader(self.reader)

        def handle_one_request(self) -> None:
            self.reader.next_request()
            super().handle_one_request()

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == "/metrics":
                self._reply(200, generate_latest(REGISTRY), CONTENT_TYPE_LATEST)
            elif path == "/healthz":
                ok = alive()
                self._reply(200 if ok else 503, b"ok\n" if ok else b"stopping\n")
            elif path == "/readyz":
                ok = ready()
                self._reply(200 if ok else 503, b"ready\n" if ok else b"not ready\n")
            else:
                self._reply(404, b"not found\n")

        def _reply(self, code: int, body: bytes, kind: str = "text/plain") -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            """Scrapes are not logged."""

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(
        target=server.serve_forever, name="ragguard-serve-metrics", daemon=True
    ).start()
    return server
