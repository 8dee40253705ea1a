"""``[exporters]``: where live evaluations go besides ``on_evaluation``, and the tables of the
two exporters that only ``ragguard serve`` builds."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from ragguard.config.base import Strict as _Strict


class PhoenixConfig(_Strict):
    """Arize Phoenix, for ``ragguard serve``: each verdict as span annotations on the
    evaluated trace's root span and per-document relevance on its retriever spans, with a
    fixed ``identifier`` so a re-evaluation replaces them. Phoenix annotates only spans it
    has received: send the application's spans to Phoenix too (or ``serve.forward_otlp``)."""

    url: str = Field(min_length=1)
    """Phoenix's base URL, e.g. ``http://127.0.0.1:6006``."""
    api_key_env: str | None = None
    """The environment variable holding a Phoenix API key (sent as a bearer token)."""
    timeout_s: float = Field(default=10.0, gt=0.0)
    """Per request; a failed request is counted in ``export_errors`` and not retried."""


class LangfuseConfig(_Strict):
    """Langfuse, for ``ragguard serve``: each verdict through the scores API, on the trace
    and observation that Langfuse's OTLP ingestion made of the evaluated spans, with a
    score id derived from the trace, span and metric, so a re-evaluation replaces it."""

    url: str = Field(min_length=1)
    """Langfuse's base URL, e.g. ``https://cloud.langfuse.com``."""
    public_key_env: str = "LANGFUSE_PUBLIC_KEY"
    """The environment variable holding the project's public key (basic-auth user)."""
    secret_key_env: str = "LANGFUSE_SECRET_KEY"
    """The environment variable holding the project's secret key (basic-auth password)."""
    timeout_s: float = Field(default=10.0, gt=0.0)
    """Per request; a failed request is counted in ``export_errors`` and not retried."""


class ExportConfig(_Strict):
    """Where live evaluations go besides ``on_evaluation``: OpenTelemetry spans and events,
    Prometheus metrics, a trace log. OTel and Prometheus follow what the application set up
    (``None``: on when it did); ``False`` switches either off."""

    pipeline: str = Field(default="default", min_length=1)
    """The ``pipeline`` label of the Prometheus metrics and the OTel spans (keep it fixed:
    one value per deployed pipeline, never per request)."""
    otel: bool | None = None
    """Emit a span per evaluation with ``gen_ai.evaluation.result`` events and a retrieval
    span. None: on when the application installed an OpenTelemetry SDK tracer provider.
    True uses the application's provider too; without one, sets up OTLP export from the
    standard ``OTEL_EXPORTER_OTLP_*`` variables (nothing is sent when none is set)."""
    otel_include_content: bool = False
    """Also put the query, the document texts, unsupported span texts and every document's
    metadata on the spans (off: ids, scores and verdicts only, for privacy)."""
    otel_metadata_keys: list[str] = Field(default_factory=list)
    """Document metadata keys exported even without ``otel_include_content`` (e.g.
    ``["source"]``); other keys (captions, authors, paths) stay out."""
    prometheus: bool | None = None
    """Record ``ragguard_*`` metrics in prometheus_client's default registry. None: on when
    prometheus_client is installed (registering series serves nothing by itself)."""
    prometheus_port: int | None = Field(default=None, ge=0, le=65535)
    """Also serve them over HTTP on this port (``/metrics``); None: the application serves
    its registry itself."""
    prometheus_addr: str = "127.0.0.1"
    """The address that HTTP endpoint listens on (``0.0.0.0`` for every interface)."""
    trace_log: Path | None = None
    """Append every live trace and its evaluation to this JSONL file (for ``ragguard replay``)."""
    trace_log_max_bytes: int | None = Field(default=None, ge=1)
    """Rotate the trace log when it would grow past this size; None: never."""
    trace_log_backups: int = Field(default=5, ge=0)
    """Rotated trace logs kept."""
    max_pipelines: int = Field(default=100, ge=1)
    """Distinct ``pipeline`` label values in one Prometheus registry; beyond, a new name is
    recorded as ``other`` (with a warning), so pipeline names cannot grow the series."""
    phoenix: PhoenixConfig | None = None
    """``ragguard serve`` only: annotate the evaluated spans in Phoenix
    (``[exporters.phoenix]``)."""
    langfuse: LangfuseConfig | None = None
    """``ragguard serve`` only: send the verdicts to Langfuse's scores API
    (``[exporters.langfuse]``)."""
