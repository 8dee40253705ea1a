"""Where live evaluations go besides ``on_evaluation``: OpenTelemetry, Prometheus, the trace
log, and under ``ragguard serve`` Phoenix and Langfuse. ``registry`` lists them, one module
each, imported only when configured."""

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.exporters.base import Exporter, ExportResult, Finished, StatusNote, StatusRecorder
from ragguard.exporters.registry import (
    EXPORTERS,
    OTHER_PIPELINE,
    build_exporters,
    destinations,
    serve_monitor_config,
)

if _typing.TYPE_CHECKING:
    from ragguard.exporters.delivery import (
        Delivery,
        DeliveryCounts,
        ExporterDelivery,
        FailurePolicy,
    )
    from ragguard.exporters.outbound import post
    from ragguard.exporters.tracelog import TraceLog
    from ragguard.exporters.traceparent import current_traceparent

__all__ = [
    "EXPORTERS",
    "OTHER_PIPELINE",
    "Delivery",
    "DeliveryCounts",
    "ExportResult",
    "Exporter",
    "ExporterDelivery",
    "FailurePolicy",
    "Finished",
    "StatusNote",
    "StatusRecorder",
    "TraceLog",
    "build_exporters",
    "current_traceparent",
    "destinations",
    "post",
    "serve_monitor_config",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
