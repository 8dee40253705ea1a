"""Where live evaluations go besides ``on_evaluation``: OpenTelemetry, Prometheus, the trace
log. Each exporter's module (and its optional packages) is imported only when configured,
so ragguard needs none of them otherwise."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import weakref

from ragguard.config import ExportConfig
from ragguard.errors import RagguardError
from ragguard.exporters.base import Exporter
from ragguard.schema import verdict


def _sdk_tracer_provider_installed() -> bool:
    """Whether the application made an OpenTelemetry SDK tracer provider the global one (an
    application that never imported the SDK has not)."""
    if "opentelemetry.sdk.trace" not in sys.modules:
        return False
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    return isinstance(trace.get_tracer_provider(), TracerProvider)


def _prometheus_installed() -> bool:
    return importlib.util.find_spec("prometheus_client") is not None


def build_exporters(config: ExportConfig) -> list[Exporter]:
    """The exporters ``config`` turns on. Unset, OTel is on when the application installed
    an SDK tracer provider, and Prometheus when prometheus_client is installed (series in the
    default registry; ``prometheus_port`` also serves them)."""
    exporters: list[Exporter] = []
    otel = _sdk_tracer_provider_installed() if config.otel is None else config.otel
    prometheus = _prometheus_installed() if config.prometheus is None else config.prometheus
    try:
        if otel:
            from ragguard.exporters.otel import OtelExporter

            exporters.append(
                OtelExporter(
                    pipeline=config.pipeline,
                    include_content=config.otel_include_content,
                    metadata_keys=config.otel_metadata_keys,
                )
            )
        if prometheus or (config.prometheus is None and config.prometheus_port is not None):
            from ragguard.exporters.prometheus import PrometheusExporter, serve

            exporters.append(
                PrometheusExporter(pipeline=config.pipeline, max_pipelines=config.max_pipelines)
            )
            if config.prometheus_port is not None:
                serve(config.prometheus_port, config.prometheus_addr)
    except ImportError as missing:
        extra = "otel" if (missing.name or "").startswith("opentelemetry") else "prometheus"
        raise RagguardError(
            f"exporters.{extra} needs {missing.name}: pip install 'ragguard-eval[{extra}]'"
        ) from missing
    if config.trace_log is not None:
        exporters.append(shared_trace_log(config))
    return exporters


_TRACE_LOGS: weakref.WeakValueDictionary[tuple[str, int | None, int], Exporter] = (
    weakref.WeakValueDictionary()
)
_TRACE_LOGS_LOCK = threading.Lock()


def shared_trace_log(config: ExportConfig) -> Exporter:
    """One ``TraceLog`` per file and rotation settings in this process, however many
    Monitors (one per distinct configuration: each pipeline name is one) write to it: each
    would otherwise hold two descriptors of its own."""
    from ragguard.exporters.tracelog import TraceLog

    assert config.trace_log is not None
    path = os.path.abspath(config.trace_log)
    key = (path, config.trace_log_max_bytes, config.trace_log_backups)
    with _TRACE_LOGS_LOCK:
        log = _TRACE_LOGS.get(key)
        if log is None or getattr(log, "_shut", False):  # shut at an earlier exit: a new one
            log = TraceLog(path, max_bytes=key[1], backups=key[2])
            _TRACE_LOGS[key] = log
        return log


__all__ = ["Exporter", "build_exporters", "verdict"]
