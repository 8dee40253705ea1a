"""The receivers' side of ``serve`` (the ``Intake`` both receivers hand requests to): the
bearer token, the refusal checks before a request is read on, buffering its spans, the
counts of requests and connections, and forwarding.

A request is refused (429, gRPC UNAVAILABLE, with ``Retry-After``) while the queued traces
and the buffered ones due soon would pass ``queue_size``, or while waiting spans fill
``max_held_bytes``; during shutdown it gets 503. ``close`` waits for requests already past
the check, so no acknowledged span comes in after the buffer is drained."""

from __future__ import annotations

import hmac
import os
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager

from ragguard.config import ServeConfig
from ragguard.errors import RagguardError
from ragguard.serve.buffer import TraceBuffer
from ragguard.serve.forward import Forwarder
from ragguard.serve.inflight import ByteBudget, Reservation
from ragguard.serve.intake import Refusal, Reply
from ragguard.serve.otlp import DecodedRequest, decode_json, decode_protobuf
from ragguard.serve.request_size import decoded_bytes, json_items, protobuf_items
from ragguard.serve.stats import Counters


def read_token(settings: ServeConfig) -> str | None:
    """The bearer token named by ``auth_token_env`` (None: no token asked for)."""
    name = settings.auth_token_env
    if name is None:
        return None
    token = os.environ.get(name)
    if not token:
        raise RagguardError(f"serve.auth_token_env names {name}, which is not set")
    return token


class Receiving:
    """What both receivers call (``Intake``); ``queue_depth`` is the evaluation queue's."""

    def __init__(
        self,
        settings: ServeConfig,
        buffer: TraceBuffer,
        counters: Counters,
        queue_depth: Callable[[], int],
        stopping: threading.Event,
    ) -> None:
        self.settings = settings
        self.max_body_bytes = settings.max_body_bytes
        self.retry_after_s = settings.retry_after_s
        self.token = read_token(settings)
        self.buffer = buffer
        self.counters = counters
        self.queue_depth = queue_depth
        self.stopping = stopping
        self.forwarder: Forwarder | None = None
        self.inflight = ByteBudget(settings.max_inflight_bytes)
        self._intake = threading.Condition()
        self._receiving = 0
        """Requests between their refusal check and their spans' buffering."""

    def authorized(self, header: str | None) -> bool:
        """``Bearer <token>``, the scheme in any case (RFC 7235), the token compared in
        constant time."""
        if self.token is None:
            return True
        scheme, _, credentials = (header or "").strip().partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            credentials.strip().encode(), self.token.encode()
        )

    def refusal(self, incoming: int = 0) -> Refusal | None:
        """Why a request bringing ``incoming`` new root spans is refused now, if it is:
        the queued traces and the buffered ones due soon (their root came) may not pass
        ``queue_size`` (unless none wait), nor the bytes of waiting and evaluating traces
        ``max_held_bytes``."""
        if self.stopping.is_set():
            return "stopping"
        waiting = self.queue_depth() + self.buffer.rooted
        if waiting and waiting + max(incoming, 1) > self.settings.queue_size:
            return "queue_full"
        if self.buffer.unreleasable_bytes >= self.settings.max_held_bytes:
            return "buffer_full"
        return None

    def reservation(self) -> AbstractContextManager[Reservation]:
        return self.inflight.reservation()

    def decode(self, body: bytes, json: bool, reserved: Reservation) -> DecodedRequest:
        """Count the body's items (past ``max_values_per_request``: ``TooManyValues``),
        reserve what decoding it may take, then decode it."""
        limit = self.settings.max_values_per_request
        items = json_items(body, limit) if json else protobuf_items(body, limit)
        reserved.take(decoded_bytes(len(body), items))
        return decode_json(body) if json else decode_protobuf(body)

    def receive(self, decoded: DecodedRequest) -> Reply:
        with self._intake:
            if self.stopping.is_set():
                return Reply(refused="stopping")
            self._receiving += 1
        try:
            return self._receive(decoded)
        finally:
            with self._intake:
                self._receiving -= 1
                self._intake.notify_all()

    def _receive(self, decoded: DecodedRequest) -> Reply:
        roots = len({span.trace_id for span in decoded.spans if span.parent_id is None})
        refusal = self.refusal(roots)
        if refusal is not None:
            return Reply(refused=refusal)
        added = self.buffer.add(decoded.spans)
        if added.refused:  # waiting traces leave no room: retried, nothing acknowledged is lost
            return Reply(refused="buffer_full")
        with self.counters.lock:
            spans = self.counters.spans
            spans.update(
                accepted=added.accepted,
                rejected=added.rejected + added.over_capacity,
                duplicate=added.duplicates,
                sampled_out=added.sampled_out,
                malformed=decoded.rejected,
            )
        errors = list(decoded.errors)
        if added.rejected:
            errors.append(f"{added.rejected} spans over serve.max_spans_per_trace")
        if added.over_capacity:
            errors.append(
                f"{added.over_capacity} spans past what the buffer holds "
                "(serve.max_traces, serve.max_held_bytes)"
            )
        rejected = decoded.rejected + added.rejected + added.over_capacity
        return Reply(rejected=rejected, message="; ".join(errors))

    def forward(self, body: bytes, content_type: str, encoding: str | None) -> None:
        if self.forwarder is not None:
            self.forwarder.submit(body, content_type, encoding)

    def count_request(self, protocol: str, result: str) -> None:
        with self.counters.lock:
            self.counters.requests[(protocol, result)] += 1

    def count_connection(self, outcome: str) -> None:
        with self.counters.lock:
            self.counters.connections[outcome] += 1

    def close(self, timeout: float) -> None:
        """Refuse every request from now on, and wait (at most ``timeout``, at least 0.1 s)
        for those already past the check to be buffered."""
        with self._intake:
            self.stopping.set()
            self._intake.wait_for(lambda: self._receiving == 0, max(timeout, 0.1))
