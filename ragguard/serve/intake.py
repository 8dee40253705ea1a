"""What both receivers hand decoded requests to, and what they are told back."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Literal, Protocol

from ragguard.serve.inflight import Reservation
from ragguard.serve.otlp import DecodedRequest

Refusal = Literal["queue_full", "buffer_full", "busy", "stopping"]
"""429 (gRPC UNAVAILABLE) but for ``stopping`` (503): each is retried by OTLP exporters."""


@dataclass(frozen=True)
class Reply:
    refused: Refusal | None = None
    rejected: int = 0
    """Spans not taken (malformed ids, past a trace's span cap): OTLP's partial success."""
    message: str = ""


class Intake(Protocol):
    max_body_bytes: int
    retry_after_s: int

    def authorized(self, header: str | None) -> bool:
        """Whether an ``Authorization`` value carries the configured bearer token."""
        ...

    def refusal(self, incoming: int = 0) -> Refusal | None:
        """Why requests are refused right now (None: they are taken); ``incoming``: the
        root spans a decoded request brings."""
        ...

    def reservation(self) -> AbstractContextManager[Reservation]:
        """A request's share of ``serve.max_inflight_bytes``, given back at its end."""
        ...

    def decode(self, body: bytes, json: bool, reserved: Reservation) -> DecodedRequest:
        """The request's spans, once counted (``TooManyValues`` past
        ``serve.max_values_per_request``) and their decoding reserved (``Busy``)."""
        ...

    def receive(self, decoded: DecodedRequest) -> Reply: ...

    def forward(self, body: bytes, content_type: str, encoding: str | None) -> None:
        """Queue the request, unchanged, for ``forward_otlp`` (a no-op when unset)."""
        ...

    def count_request(self, protocol: str, result: str) -> None: ...

    def count_connection(self, outcome: str) -> None:
        """An OTLP/HTTP connection closed by the receiver: ``over_cap``, ``preempted`` (made
        way at the cap for a new one), ``handshake_failed`` (TLS, or its deadline),
        ``timed_out`` (idle past ``connection_timeout_s``, or a head or request past its
        deadline)."""
        ...
