"""What both receivers hand decoded requests to, and what they are told back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from ragguard.serve.otlp import Decoded

Refusal = Literal["queue_full", "stopping"]


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

    def refusal(self) -> Refusal | None:
        """Why requests are refused right now (None: they are taken)."""
        ...

    def receive(self, decoded: Decoded, protocol: str) -> Reply: ...

    def forward(self, body: bytes, content_type: str, encoding: str | None) -> None:
        """Queue the request, unchanged, for ``forward_otlp`` (a no-op when unset)."""
        ...

    def count_request(self, protocol: str, result: str) -> None: ...
