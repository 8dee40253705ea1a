"""Prometheus: ``ragguard_*`` metrics of the live evaluations, for dashboards and alerts.

Labels stay low-cardinality: ``pipeline`` (one per deployed pipeline, at most
``max_pipelines`` values per registry: later names are recorded as ``other``), ``modality``
(text, image, video), ``verdict`` and ``language`` (a code from the detector's fixed list);
never anything per request. The queue depth and the
dropped, failed and flagged counts come from the monitors' ``LiveStats``.

Multi-process servers (gunicorn, uvicorn workers): set ``PROMETHEUS_MULTIPROC_DIR`` to an
empty directory before the workers start; every process writes its values there and
``serve()`` (or prometheus_client's ``MultiProcessCollector``) reads them all.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Sequence
from wsgiref.simple_server import WSGIServer

from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client import start_http_server as _start_http_server
from prometheus_client.multiprocess import MultiProcessCollector

from ragguard.config import ExportConfig
from ragguard.exporters.base import Exporter, ExportResult, Finished
from ragguard.exporters.prometheus_metrics import (
    MODALITIES,
    STATS_COUNTERS,
    VERDICTS,
    MetricSet,
)
from ragguard.runtime import LiveStats, stats

__all__ = [
    "MODALITIES",
    "STATS_COUNTERS",
    "VERDICTS",
    "PrometheusExporter",
    "build",
    "metric_names",
    "serve",
]

_LOCK = threading.Lock()
_BY_REGISTRY: weakref.WeakKeyDictionary[CollectorRegistry, MetricSet] = weakref.WeakKeyDictionary()
_SERVERS: dict[tuple[str, int], WSGIServer] = {}


class PrometheusExporter(Exporter):
    """Records each evaluation in ``registry`` (default: prometheus_client's global one),
    labelled ``pipeline`` (``other`` beyond the registry's first ``max_pipelines`` names).
    ``live_stats`` feeds the queue and drop counters (default: every monitor of this
    process, ``ragguard.stats``)."""

    def __init__(
        self,
        registry: CollectorRegistry | None = None,
        pipeline: str = "default",
        *,
        live_stats: Callable[[], LiveStats] = stats,
        max_pipelines: int = 100,
    ) -> None:
        registry = REGISTRY if registry is None else registry
        with _LOCK:
            if registry not in _BY_REGISTRY:
                _BY_REGISTRY[registry] = MetricSet(registry, live_stats)
            self._metrics = _BY_REGISTRY[registry]
        self.pipeline = self._metrics.pipeline_label(pipeline, max_pipelines)
        self._metrics.zero(self.pipeline)

    def export(self, batch: Sequence[Finished]) -> ExportResult:
        for finished in batch:
            self._metrics.record(self.pipeline, finished.evaluation)
        self._metrics.sync()  # in multi-process mode nothing else syncs this process
        return ExportResult.SUCCESS

    def shutdown(self) -> None:
        """Nothing to send: Prometheus pulls."""


def metric_names(registry: CollectorRegistry) -> set[str]:
    """The series names a registry exposes (counters with ``_total``, histograms with their
    ``_bucket``, ``_sum`` and ``_count``), for checking dashboards against."""
    names: set[str] = set()
    for family in registry.collect():
        suffixes = {
            "counter": ("_total",),
            "histogram": ("_bucket", "_sum", "_count"),
        }.get(family.type, ("",))
        names.update(family.name + suffix for suffix in suffixes)
    return names


def serve(
    port: int, addr: str = "127.0.0.1", registry: CollectorRegistry | None = None
) -> WSGIServer:
    """Serve ``/metrics`` on ``addr:port`` from a daemon thread (once per address and port in
    a process). With ``PROMETHEUS_MULTIPROC_DIR`` set it serves the sum over every process
    writing there; otherwise ``registry`` (default: the global one)."""
    with _LOCK:
        if (addr, port) in _SERVERS:
            return _SERVERS[(addr, port)]
        if registry is None and os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            MultiProcessCollector(registry)
        server, _ = _start_http_server(port, addr, REGISTRY if registry is None else registry)
        _SERVERS[(addr, server.server_port)] = server
        return server


def build(config: ExportConfig) -> PrometheusExporter:
    """The exporter ``[exporters] prometheus`` turns on, and its ``/metrics`` endpoint when
    ``prometheus_port`` is set (the registry's entry point)."""
    exporter = PrometheusExporter(pipeline=config.pipeline, max_pipelines=config.max_pipelines)
    if config.prometheus_port is not None:
        serve(config.prometheus_port, config.prometheus_addr)
    return exporter
