"""The request's OpenTelemetry span, remembered as a W3C ``traceparent`` string: captured on
the request path (where the application's span is current), carried with the trace (it
survives the trip to the evaluation process and the trace log), and turned back into a
parent when the evaluation is exported, often after that span has closed.

opentelemetry is optional: without it nothing is captured.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

otel_trace: ModuleType | None
try:
    from opentelemetry import trace as otel_trace
except ImportError:  # ragguard works without OpenTelemetry
    otel_trace = None


def current_traceparent() -> str | None:
    """The current span as ``00-<trace id>-<span id>-<flags>``; None when there is none."""
    if otel_trace is None:
        return None
    context = otel_trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"


def parent_context(traceparent: str | None) -> Any:
    """An OpenTelemetry Context whose current span is the one ``traceparent`` names (a
    remote, non-recording stand-in); None when it names none or is malformed."""
    if otel_trace is None or not traceparent:
        return None
    parts = traceparent.split("-")
    try:
        trace_id, span_id, flags = int(parts[1], 16), int(parts[2], 16), int(parts[3], 16)
    except (IndexError, ValueError):
        return None
    context = otel_trace.SpanContext(
        trace_id, span_id, is_remote=True, trace_flags=otel_trace.TraceFlags(flags)
    )
    if not context.is_valid:
        return None
    return otel_trace.set_span_in_context(otel_trace.NonRecordingSpan(context))
