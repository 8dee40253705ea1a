"""``[serve]``: the OTLP receiver's section of the config (kept apart to keep ``config`` short)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, model_validator

from ragguard.config.base import Strict


class ServeConfig(Strict):
    """``ragguard serve``: the OTLP receiver that evaluates the traces of instrumented
    applications. Its command-line addresses override the three addresses here."""

    otlp_http: str = "127.0.0.1:4318"
    """HOST:PORT of the OTLP/HTTP receiver (``/v1/traces``)."""
    otlp_grpc: str | None = "127.0.0.1:4317"
    """HOST:PORT of the OTLP/gRPC receiver; None: no gRPC receiver."""
    metrics: str = "127.0.0.1:9464"
    """HOST:PORT serving ``/metrics``, ``/healthz`` and ``/readyz``."""
    grace_s: float = Field(default=2.0, ge=0.0)
    """A trace is evaluated this long after its root span arrived (children ending after
    the root still come in)."""
    idle_timeout_s: float = Field(default=30.0, gt=0.0)
    """... or when no span of it arrived for this long (its root never came)."""
    late_span_window_s: float = Field(default=300.0, ge=0.0)
    """An evaluated trace's spans are kept this long: a span arriving in that time has the
    trace evaluated again under the same trace id. 0: late spans start a new trace."""
    max_traces: int = Field(default=10_000, ge=1)
    """Traces held waiting: a request whose new traces would pass it is refused with 429
    (gRPC UNAVAILABLE), which OTLP exporters retry; a held trace is never evicted for a
    newer one. As many evaluated traces are kept for late spans."""
    max_spans_per_trace: int = Field(default=1_000, ge=1)
    """Spans held per trace; further spans are rejected (reported as partial success)."""
    max_held_bytes: int = Field(default=256_000_000, ge=4096)
    """Bytes of span content held: waiting traces, traces being evaluated (queued, until
    their verdict is delivered) and evaluated ones kept for late spans together (an
    estimate of their size in memory, at least their OTLP size). To take a request,
    evaluated traces are let go (oldest first); a request that waiting and evaluating
    traces leave no room for is refused with 429, and no waiting trace is evicted."""
    max_body_bytes: int = Field(default=16_000_000, ge=1024)
    """An OTLP request body larger than this, before or after decompression, is refused (413
    over HTTP, RESOURCE_EXHAUSTED over gRPC)."""
    max_inflight_bytes: int = Field(default=64_000_000, ge=1_000_000)
    """Bytes held by requests being read, inflated and decoded, across every connection and
    both receivers: a request reserves its body, its inflated body and what its spans may
    take decoded before it holds them, and waits for room (5 s at most, then 429 with
    ``Retry-After``). A request larger than this is taken alone."""
    max_values_per_request: int = Field(default=200_000, ge=1000)
    """Spans, events, links, attributes and values one request may hold, counted before it
    is decoded: past it the request is refused whole (413, gRPC RESOURCE_EXHAUSTED), so a
    small body cannot decode into gigabytes."""
    queue_size: int = Field(default=1000, ge=1)
    """Traces waiting for evaluation, those complete in the buffer included: a request that
    would take them past it is refused with 429 and ``Retry-After`` (gRPC: UNAVAILABLE),
    which OTLP exporters retry, so an acknowledged trace is never dropped for want of room."""
    retry_after_s: int = Field(default=5, ge=1)
    """The ``Retry-After`` a refused request is given."""
    sample_rate: float = Field(default=1.0, ge=0.0, le=1.0)
    """Share of traces evaluated, decided by a hash of the trace id (every span of a trace
    alike, on every instance; a lower rate keeps a subset of a higher one's traces)."""
    forward_otlp: str | None = None
    """An OTLP/HTTP traces URL (``http://phoenix:6006/v1/traces``) every received request is
    forwarded to unchanged (gRPC requests as protobuf), so ``serve`` can sit in front of
    Phoenix or a Collector. Forwarding failures are counted, never retried."""
    forward_queue_size: int = Field(default=1000, ge=1)
    """Requests waiting to be forwarded; beyond, they are dropped and counted."""
    export_queue_size: int = Field(default=1000, ge=1)
    """Verdicts and statuses waiting for Phoenix and Langfuse, sent from their own thread so
    a slow backend never holds up evaluation; beyond, they are dropped and counted. At
    shutdown, what is not sent within ``shutdown_timeout_s`` is dropped and counted."""
    max_connections: int = Field(default=256, ge=1)
    """Open OTLP/HTTP connections. At the cap, a new connection takes the place of the
    oldest one not inside an authorised request (idle, or still sending its request head),
    which is closed (counted as ``preempted``); only when every connection is inside an
    authorised request is the new one closed at once (``over_cap``)."""
    connection_timeout_s: float = Field(default=30.0, gt=0.0)
    """An OTLP/HTTP connection that sends nothing for this long is closed (a slow or idle
    client holds no thread for longer)."""
    header_timeout_s: float = Field(default=10.0, gt=0.0)
    """An OTLP/HTTP request line and headers must arrive within this long of their first
    byte (a client dripping its headers holds no thread for longer)."""
    request_timeout_s: float = Field(default=60.0, gt=0.0)
    """A whole OTLP/HTTP request, headers and body, must arrive within this long of its
    first byte; an OTLP/gRPC call must bring its message within this long of opening."""
    tls_handshake_timeout_s: float = Field(default=5.0, gt=0.0)
    """The TLS handshake of an OTLP/HTTP connection must end within this long; each runs on
    the connection's own thread, so a client that never completes one delays no other."""
    auth_token_env: str | None = None
    """The environment variable holding a bearer token every request must carry
    (``Authorization: Bearer ...``; gRPC metadata ``authorization``)."""
    tls_cert: Path | None = None
    """PEM certificate for both receivers (with ``tls_key``). A non-loopback address is
    refused without both a token and TLS."""
    tls_key: Path | None = None
    """PEM private key of ``tls_cert``."""
    log_interval_s: float = Field(default=60.0, gt=0.0)
    """One log line with the receiver's counters this often."""
    shutdown_timeout_s: float = Field(default=30.0, ge=0.0)
    """On SIGTERM, the held traces are evaluated and delivered within this long; what is
    left is counted as lost and logged."""

    @model_validator(mode="after")
    def _tls_pair(self) -> ServeConfig:
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("serve.tls_cert and serve.tls_key go together")
        return self
