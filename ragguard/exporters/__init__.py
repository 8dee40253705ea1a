"""Where live evaluations go besides ``on_evaluation``: OpenTelemetry, Prometheus, the trace
log. Each exporter's module (and its optional packages) is imported only when configured,
so ragguard needs none of them otherwise."""

from __future__ import annotations

from ragguard.config import ExportConfig
from ragguard.errors import RagguardError
from ragguard.exporters.base import Exporter
from ragguard.schema import verdict


def build_exporters(config: ExportConfig) -> list[Exporter]:
    """The exporters ``config`` turns on (``prometheus_port`` alone turns Prometheus on)."""
    exporters: list[Exporter] = []
    try:
        if config.otel:
            from ragguard.exporters.otel import OtelExporter

            exporters.append(
                OtelExporter(
                    pipeline=config.pipeline,
                    include_content=config.otel_include_content,
                    metadata_keys=config.otel_metadata_keys,
                )
            )
        if config.prometheus or config.prometheus_port is not None:
            from ragguard.exporters.prometheus import PrometheusExporter, serve

            exporters.append(PrometheusExporter(pipeline=config.pipeline))
            if config.prometheus_port is not None:
                serve(config.prometheus_port, config.prometheus_addr)
    except ImportError as missing:
        extra = "otel" if (missing.name or "").startswith("opentelemetry") else "prometheus"
        raise RagguardError(
            f"exporters.{extra} needs {missing.name}: pip install 'ragguard[{extra}]'"
        ) from missing
    if config.trace_log is not None:
        from ragguard.exporters.tracelog import TraceLog

        exporters.append(
            TraceLog(
                config.trace_log,
                max_bytes=config.trace_log_max_bytes,
                backups=config.trace_log_backups,
            )
        )
    return exporters


__all__ = ["Exporter", "build_exporters", "verdict"]
