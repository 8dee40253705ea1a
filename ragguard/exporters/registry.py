"""The exporters, one module each, and what turns each on. A module is imported only when
its exporter is turned on, so ragguard needs none of their packages otherwise; each module
has ``build(config)``, which makes its exporter."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ragguard.config import ExportConfig
from ragguard.errors import RagguardError
from ragguard.exporters.base import Exporter


def _sdk_tracer_provider_installed() -> bool:
    """Whether the application made an OpenTelemetry SDK tracer provider the global one (an
    application that never imported the SDK has not)."""
    if "opentelemetry.sdk.trace" not in sys.modules:
        return False
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    return isinstance(trace.get_tracer_provider(), TracerProvider)


def _otel_wanted(config: ExportConfig) -> bool:
    """Unset, OTel is on when the application installed an SDK tracer provider."""
    return _sdk_tracer_provider_installed() if config.otel is None else config.otel


def _prometheus_wanted(config: ExportConfig) -> bool:
    """Unset, Prometheus is on when prometheus_client is installed (series in the default
    registry), or when ``prometheus_port`` asks for ``/metrics``."""
    if config.prometheus is not None:
        return config.prometheus
    installed = importlib.util.find_spec("prometheus_client") is not None
    return installed or config.prometheus_port is not None


def _no_destination(config: ExportConfig) -> str | None:
    return None


@dataclass(frozen=True)
class ExporterEntry:
    name: str
    """The ``[exporters]`` key that turns it on."""
    module: str
    wanted: Callable[[ExportConfig], bool]
    keys: tuple[str, ...] = ()
    """Every ``[exporters]`` key it reads (``name`` first); serve's Monitors drop them all
    for a ``serve`` exporter, which serve sends itself."""
    extra: str | None = None
    """The install extra that brings its packages; named when one is missing."""
    scope: Literal["live", "serve"] = "live"
    """``live``: every Monitor sends it each evaluation. ``serve``: it annotates the spans of
    an OTLP trace, so only ``ragguard serve`` builds it."""
    listens: tuple[str, ...] = ()
    """Keys that make it listen on an address of its own; serve's Monitors drop them, since
    serve runs its own endpoint."""
    destination: Callable[[ExportConfig], str | None] = _no_destination
    """Where it sends verdicts, in words, for serve's start-up line; None: nowhere to name."""


EXPORTERS: tuple[ExporterEntry, ...] = (
    ExporterEntry(
        "otel",
        "ragguard.exporters.otel",
        _otel_wanted,
        keys=("otel", "otel_include_content", "otel_metadata_keys"),
        extra="otel",
        destination=lambda c: "OpenTelemetry spans" if c.otel else None,
    ),
    ExporterEntry(
        "prometheus",
        "ragguard.exporters.prometheus",
        _prometheus_wanted,
        keys=("prometheus", "prometheus_port", "prometheus_addr"),
        extra="prometheus",
        listens=("prometheus_port",),
    ),
    ExporterEntry(
        "trace_log",
        "ragguard.exporters.tracelog",
        lambda c: c.trace_log is not None,
        keys=("trace_log", "trace_log_max_bytes", "trace_log_backups"),
        destination=lambda c: None if c.trace_log is None else f"the trace log {c.trace_log}",
    ),
    ExporterEntry(
        "phoenix",
        "ragguard.exporters.phoenix",
        lambda c: c.phoenix is not None,
        keys=("phoenix",),
        scope="serve",
        destination=lambda c: None if c.phoenix is None else "Phoenix",
    ),
    ExporterEntry(
        "langfuse",
        "ragguard.exporters.langfuse",
        lambda c: c.langfuse is not None,
        keys=("langfuse",),
        scope="serve",
        destination=lambda c: None if c.langfuse is None else "Langfuse",
    ),
)
"""Every exporter; ``[exporters]`` keys owned by none (``pipeline``, ``max_pipelines``) are
shared by all."""

SHARED_KEYS = ("pipeline", "max_pipelines")
OTHER_PIPELINE = "other"
"""The pipeline label of every name beyond ``max_pipelines`` (Prometheus's series, serve's
Monitors)."""


def destinations(config: ExportConfig) -> list[str]:
    """Where the exporters ``config`` names send verdicts, in words, in registry order."""
    return [where for entry in EXPORTERS if (where := entry.destination(config)) is not None]


def serve_monitor_config(config: ExportConfig, pipeline: str) -> ExportConfig:
    """``config`` for one of serve's per-pipeline Monitors: no ``serve`` exporter (serve
    sends those itself) and no listener of its own."""
    off = {
        key: None
        for entry in EXPORTERS
        for key in (entry.keys if entry.scope == "serve" else entry.listens)
    }
    return config.model_copy(update={"pipeline": pipeline, **off})


def build_exporters(
    config: ExportConfig, scope: Literal["live", "serve"] = "live"
) -> list[Exporter]:
    """The exporters of ``scope`` that ``config`` turns on, in registry order."""
    exporters: list[Exporter] = []
    for entry in EXPORTERS:
        if entry.scope != scope or not entry.wanted(config):
            continue
        try:
            module = importlib.import_module(entry.module)
            exporters.append(module.build(config))
        except ImportError as missing:
            if entry.extra is None:
                raise
            hint = f"pip install 'ragguard-eval[{entry.extra}]'"
            raise RagguardError(f"exporters.{entry.name} needs {missing.name}: {hint}") from missing
    return exporters
