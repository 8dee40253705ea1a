"""Where live evaluations go besides ``on_evaluation``: OpenTelemetry, Prometheus, the trace
log, and under ``ragguard serve`` Phoenix and Langfuse. ``registry`` lists them, one module
each, imported only when configured."""

from ragguard.exporters.base import Exporter
from ragguard.exporters.registry import EXPORTERS, build_exporters

__all__ = ["EXPORTERS", "Exporter", "build_exporters"]
