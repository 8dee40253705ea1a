"""Where live evaluations go besides ``on_evaluation``: OpenTelemetry, Prometheus, the trace
log, and under ``ragguard serve`` Phoenix and Langfuse. ``registry`` lists them, one module
each, imported only when configured."""

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.exporters.base import Exporter, ExportResult, Finished
from ragguard.exporters.registry import EXPORTERS, build_exporters

if _typing.TYPE_CHECKING:
    from ragguard.exporters.tracelog import TraceLog

__all__ = [
    "EXPORTERS",
    "ExportResult",
    "Exporter",
    "Finished",
    "TraceLog",
    "build_exporters",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
