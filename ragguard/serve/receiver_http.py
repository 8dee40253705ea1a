"""OTLP/HTTP on ``/v1/traces``: protobuf or JSON, identity, gzip or deflate bodies.

Answers as OTLP/HTTP specifies: 200 with an ``ExportTraceServiceResponse`` in the request's
encoding (``partial_success`` when spans were rejected); 400 for an undecodable body, 413
past the body cap (also after decompression), 415 for another content type or encoding,
401 without the bearer token, and 429 (queue full) or 503 (shutting down) with
``Retry-After``, which OTLP exporters retry. The request is acknowledged before any
evaluation.

Each connection has a thread of its own, at most ``serve.max_connections`` of them (at the
cap a new connection takes the place of the oldest idle one or one still sending its
head: see ``connections``); its TLS handshake runs there, never on the accepting thread,
within ``serve.tls_handshake_timeout_s``; a connection idle for
``serve.connection_timeout_s`` is closed, and so is one whose request head or whole request
takes longer than ``serve.header_timeout_s`` or ``serve.request_timeout_s``. A chunked
body is bounded by ``serve.max_body_bytes`` as a sized one is. Every outcome is counted."""

from __future__ import annotations

import io
import json
import logging
import re
import socket
import ssl
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ragguard.config import ServeConfig
from ragguard.serve.connections import DeadlineReader, Preemptible
from ragguard.serve.inflight import Busy, Reservation
from ragguard.serve.intake import Intake, Refusal, Reply
from ragguard.serve.numerals import ascii_int
from ragguard.serve.otlp import OtlpDecodeError
from ragguard.serve.request_size import TooManyValues

logger = logging.getLogger("ragguard.serve")

PATH = "/v1/traces"
PROTOBUF, JSON = "application/x-protobuf", "application/json"
LISTEN_BACKLOG = 1024
"""Connections the kernel queues before they are accepted (socketserver's default is 5,
which made a burst of connects wait a second each for a SYN retry); the system's
``somaxconn`` caps it."""
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,8}")
"""A chunk size as HTTP/1.1 writes it: hex digits only (no sign, no ``0x``, no ``_``);
eight of them are already past any body cap."""


INFLATE_BLOCK = 1 << 20
"""A compressed body is inflated this much at a time, each block reserved first."""


class TooLarge(Exception):
    pass


def decompress(
    body: bytes, encoding: str, limit: int, reserved: Reservation | None = None
) -> bytes:
    """``body`` decoded from ``encoding`` (gzip, deflate, identity), at most ``limit`` bytes
    out: a small compressed body may not expand past the cap (a decompression bomb). What
    it inflates to is reserved as it grows."""
    if encoding in ("", "identity"):
        return body
    wbits = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}[encoding]
    try:
        return _inflate(zlib.decompressobj(wbits), body, limit, reserved)
    except zlib.error:
        if encoding != "deflate":
            raise
        raw = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as some clients send
        return _inflate(raw, body, limit, reserved)


def _inflate(inflater: Any, body: bytes, limit: int, reserved: Reservation | None) -> bytes:
    parts: list[bytes] = []
    total = 0
    data = body
    while True:
        if reserved is not None:
            reserved.take(INFLATE_BLOCK)
        part = inflater.decompress(data, INFLATE_BLOCK)
        total += len(part)
        if total > limit:
            raise TooLarge
        parts.append(part)
        data = inflater.unconsumed_tail
        if not data and len(part) < INFLATE_BLOCK:
            break
    if reserved is not None:
        reserved.take(total)  # the joined copy
    return b"".join(parts)


def response_body(reply: Reply, content_type: str) -> bytes:
    if content_type == JSON:
        partial: dict[str, Any] = {}
        if reply.rejected:
            partial = {"rejectedSpans": str(reply.rejected), "errorMessage": reply.message}
        return json.dumps({"partialSuccess": partial} if partial else {}).encode()
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )

    response = ExportTraceServiceResponse()
    if reply.rejected:
        response.partial_success.rejected_spans = reply.rejected
        response.partial_success.error_message = reply.message
    return bytes(response.SerializeToString())


class OtlpHandler(BaseHTTPRequestHandler):
    """One OTLP/HTTP connection's requests; ``make_handler`` gives it its intake and
    settings."""

    protocol_version = "HTTP/1.1"
    intake: Intake
    settings: ServeConfig
    preemptible: Preemptible | None = None
    reader: DeadlineReader

    def setup(self) -> None:
        super().setup()
        settings = self.settings
        self.reader = DeadlineReader(
            self.connection, settings.connection_timeout_s, settings.header_timeout_s
        )
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        self.reader.next_request()
        if self.preemptible is not None:
            self.preemptible.waiting(self.connection)
        super().handle_one_request()

    def do_POST(self) -> None:
        try:
            code = self._handle()
        except (TimeoutError, ConnectionError):
            raise  # the connection went: counted by the server, nothing to answer
        except Exception as error:  # a bug must answer, not kill the connection
            logger.warning("ragguard serve: a request failed: %s", type(error).__name__)
            code = self._fail(500, "internal error")
        self.intake.count_request("http", str(code))

    def _handle(self) -> int:
        intake = self.intake
        if self.path.split("?")[0] != PATH:
            return self._fail(404, "not found")
        if not intake.authorized(self.headers.get("Authorization")):
            return self._fail(401, "missing or wrong bearer token")
        if self.preemptible is not None:
            self.preemptible.working()
        self.reader.extend(self.settings.request_timeout_s)
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if content_type not in (PROTOBUF, JSON):
            return self._fail(415, f"unsupported content type {content_type!r}")
        encoding = (self.headers.get("Content-Encoding") or "").strip().lower()
        if encoding not in ("", "identity", "gzip", "deflate"):
            return self._fail(415, f"unsupported content encoding {encoding!r}")
        with intake.reservation() as reserved:
            try:
                return self._take(content_type, encoding, reserved)
            except Busy:  # no room in serve.max_inflight_bytes: retried later
                return self._refuse("busy")

    def _take(self, content_type: str, encoding: str, reserved: Reservation) -> int:
        """Read, inflate, decode and buffer the request, each step within its
        reservation."""
        intake = self.intake
        try:
            raw = self._body(intake.max_body_bytes, reserved)
        except TooLarge:
            return self._fail(413, "body over serve.max_body_bytes")
        except ValueError as error:
            return self._fail(400, str(error))
        if raw is None:
            return self._fail(411, "Content-Length or chunked transfer encoding required")
        refusal = intake.refusal()
        if refusal is not None:
            return self._refuse(refusal)
        try:
            body = decompress(raw, encoding, intake.max_body_bytes, reserved)
            decoded = intake.decode(body, content_type == JSON, reserved)
        except TooLarge:
            return self._fail(413, "decompressed body over serve.max_body_bytes")
        except TooManyValues:
            return self._fail(413, "more items than serve.max_values_per_request")
        except (zlib.error, OtlpDecodeError) as error:
            return self._fail(400, str(error)[:200])
        reply = intake.receive(decoded)
        if reply.refused is not None:
            return self._refuse(reply.refused)
        intake.forward(raw, content_type, encoding or None)
        self._send(200, response_body(reply, content_type), content_type)
        return 200

    def _body(self, limit: int, reserved: Reservation) -> bytes | None:
        """The request body, by Content-Length or chunked (as Node's exporter sends it),
        reserved before it is read; past ``limit`` bytes reading stops (TooLarge)."""
        header = self.headers.get("Content-Length")
        if header is not None:
            length = ascii_int(header.strip())
            if length is None:
                raise ValueError("Content-Length is not a number")
            if length > limit:
                raise TooLarge
            reserved.take(length)
            return self.rfile.read(length)
        if "chunked" not in (self.headers.get("Transfer-Encoding") or "").lower():
            return None
        return self._chunked(limit, reserved)

    def _chunked(self, limit: int, reserved: Reservation) -> bytes:
        chunks: list[bytes] = []
        total = 0
        while True:
            size_line = self.rfile.readline(100).split(b";")[0].strip()
            if not _CHUNK_SIZE.fullmatch(size_line):
                raise ValueError("malformed chunked body (a chunk size that is not hex)")
            size = int(size_line, 16)
            if size == 0:
                for _ in range(100):  # trailers, a bounded number of lines
                    if not self.rfile.readline(1000).strip():
                        return b"".join(chunks)
                raise ValueError("malformed chunked body (too many trailer lines)")
            total += size
            if total > limit:
                raise TooLarge
            reserved.take(size)
            chunk = self.rfile.read(size)
            if len(chunk) != size or self.rfile.readline(10).strip():
                raise ValueError("malformed chunked body (a chunk that is not its size)")
            chunks.append(chunk)

    def _refuse(self, refusal: Refusal) -> int:
        """429 with ``Retry-After``, or 503 while stopping: each retried by exporters."""
        code = 503 if refusal == "stopping" else 429
        return self._fail(code, refusal.replace("_", " "), retry=True)

    def _fail(self, code: int, message: str, *, retry: bool = False) -> int:
        body = json.dumps({"code": code, "message": message}).encode()
        headers = {"Retry-After": str(self.intake.retry_after_s)} if retry else {}
        self._send(code, body, JSON, headers)
        return code

    def _send(
        self, code: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        # a full timeout for the answer, not a read's remainder
        self.connection.settimeout(self.settings.connection_timeout_s)
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if code >= 400:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are counted, not logged one by one."""

    def log_error(self, format: str, *args: Any) -> None:
        """Counted: ``http.server`` reports a read timeout only here."""
        if format.startswith("Request timed out"):
            self.intake.count_connection("timed_out")


def make_handler(
    intake: Intake, settings: ServeConfig, preemptible: Preemptible | None = None
) -> type[BaseHTTPRequestHandler]:
    """``OtlpHandler`` for one server; ``timeout`` is per read: a silent client is
    disconnected."""
    fields = {
        "intake": intake,
        "settings": settings,
        "preemptible": preemptible,
        "timeout": settings.connection_timeout_s,
    }
    return type("Handler", (OtlpHandler,), fields)


class _Server(ThreadingHTTPServer):
    """One daemon thread per connection, at most ``max_connections``; TLS is set up on that
    thread, so the accepting thread only accepts."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(
        self,
        intake: Intake,
        address: tuple[str, int],
        tls: ssl.SSLContext | None,
        settings: ServeConfig,
    ) -> None:
        self.preemptible = Preemptible()
        super().__init__(address, make_handler(intake, settings, self.preemptible))
        self.intake = intake
        self.tls = tls
        self.handshake_timeout_s = settings.tls_handshake_timeout_s
        self._slots = threading.BoundedSemaphore(settings.max_connections)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            # the oldest idle connection, or one still in its head, makes way (its thread
            # ends at once); one inside an authorised request is never cut off
            taken = False
            if self.preemptible.preempt_oldest():
                self.intake.count_connection("preempted")
                taken = self._slots.acquire(timeout=1.0)
            if not taken:
                self.intake.count_connection("over_cap")
                self.shutdown_request(request)
                return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            if self.tls is not None:
                twin = request.dup()  # the TLS socket replaces ``request``: shut down via a twin
                self.preemptible.waiting(twin)
                try:
                    request = self._handshake(request)
                finally:
                    self.preemptible.working()
                    twin.close()
                if request is None:
                    return
            super().process_request_thread(request, client_address)
        finally:
            self.preemptible.working()
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that broke (reset, timed out mid-body): counted, no traceback."""
        self.intake.count_connection("broken")

    def _handshake(self, raw: socket.socket) -> ssl.SSLSocket | None:
        """The TLS side of ``raw`` once its handshake is done within the deadline; None
        (counted, closed) otherwise."""
        assert self.tls is not None
        raw.settimeout(self.handshake_timeout_s)
        try:
            return self.tls.wrap_socket(raw, server_side=True)
        except (OSError, ValueError):  # ssl.SSLError and TimeoutError are OSErrors
            self.intake.count_connection("handshake_failed")
            self.shutdown_request(raw)
            return None


def start_http(
    intake: Intake,
    host: str,
    port: int,
    tls: ssl.SSLContext | None = None,
    settings: ServeConfig | None = None,
) -> ThreadingHTTPServer:
    """Serve OTLP/HTTP from a daemon thread; ``server.shutdown()`` stops it."""
    server = _Server(intake, (host, port), tls, settings or ServeConfig())
    threading.Thread(target=server.serve_forever, name="ragguard-serve-http", daemon=True).start()
    return server
