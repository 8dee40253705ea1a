"""``forward_otlp``: every received request, unchanged, to another OTLP/HTTP receiver
(Phoenix, a Collector), through an ``Outbox`` (a bounded queue and its own thread), so a
slow or absent downstream never holds up a client. Failures and overflow are counted."""

from __future__ import annotations

import time

from ragguard.exporters import post
from ragguard.serve.delivery import Outbox


class Forwarder:
    def __init__(self, url: str, queue_size: int, timeout_s: float = 10.0) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self.outbox = Outbox("serve-forward", queue_size)

    def submit(self, body: bytes, content_type: str, encoding: str | None) -> None:
        headers = {"Content-Type": content_type}
        if encoding:
            headers["Content-Encoding"] = encoding
        self.outbox.put(lambda: post(self.url, body, headers, self.timeout_s))

    @property
    def errors(self) -> int:
        """Requests not forwarded: failed, or dropped (queue full, or left at close)."""
        counts = self.outbox.counts
        return counts.failed + counts.dropped

    @property
    def sent(self) -> int:
        return self.outbox.counts.sent

    def close(self, timeout: float) -> None:
        """Send what is queued within ``timeout`` seconds; the rest is counted as errors."""
        self.outbox.close(time.monotonic() + timeout)
