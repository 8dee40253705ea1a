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


@dataclass(frozen=True)
class ExporterEntry:
    name: str
    """The ``[exporters]`` key that turns it on."""
    module: str
    wanted: Callable[[ExportConfig], bool]
    extra: str | None = None
    """The install extra that brings its packages; named when one is missing."""
    scope: Literal["live", "serve"] = "live"
    """``live``: every Monitor sends it each evaluation. ``serve``: it annotates the spans of
    an OTLP trace, so only ``ragguard serve`` builds it."""


EXPORTERS: tuple[ExporterEntry, ...] = (
    ExporterEntry("otel", "ragguard.exporters.otel", _otel_wanted, extra="otel"),
    ExporterEntry(
        "prometheus", "ragguard.exporters.prometheus", _prometheus_wanted, extra="prometheus"
    ),
    ExporterEntry("trace_log", "ragguard.exporters.tracelog", lambda c: c.trace_log is not None),
    ExporterEntry(
        "phoenix", "ragguard.exporters.phoenix", lambda c: c.phoenix is not None, scope="serve"
    ),
    ExporterEntry(
        "langfuse", "ragguard.exporters.langfuse", lambda c: c.langfuse is not None, scope="serve"
    ),
)


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
            hint = f"pip install 'ragguard[{entry.extra}]'"
            raise RagguardError(f"exporters.{entry.name} needs {missing.name}: {hint}") from missing
    return exporters
