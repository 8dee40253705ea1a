"""OTLP/HTTP on ``/v1/traces``: protobuf or JSON, identity, gzip or deflate bodies.

Answers as OTLP/HTTP specifies: 200 with an ``ExportTraceServiceResponse`` in the request's
encoding (``partial_success`` when spans were rejected); 400 for an undecodable body, 413
past the body cap (also after decompression), 415 for another content type or encoding,
401 without the bearer token, and 429 (queue full) or 503 (shutting down) with
``Retry-After``, which OTLP exporters retry. The request is acknowledged before any
evaluation."""

from __future__ import annotations

import json
import ssl
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ragguard.serve.intake import Intake, Reply
from ragguard.serve.otlp import Decoded, OtlpDecodeError, decode_json, decode_protobuf

PATH = "/v1/traces"
PROTOBUF, JSON = "application/x-protobuf", "application/json"


class TooLarge(Exception):
    pass


def decompress(body: bytes, encoding: str, limit: int) -> bytes:
    """``body`` decoded from ``encoding`` (gzip, deflate, identity), at most ``limit`` bytes
    out: a small compressed body may not expand past the cap (a decompression bomb)."""
    if encoding in ("", "identity"):
        return body
    wbits = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}[encoding]
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error:
        if encoding != "deflate":
            raise
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as some clients send
        out = inflater.decompress(body, limit + 1)
    if len(out) > limit:
        raise TooLarge
    return out


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


def make_handler(intake: Intake) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            code = self._handle()
            intake.count_request("http", str(code))

        def _handle(self) -> int:
            if self.path.split("?")[0] != PATH:
                return self._fail(404, "not found")
            if not intake.authorized(self.headers.get("Authorization")):
                return self._fail(401, "missing or wrong bearer token")
            content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
            if content_type not in (PROTOBUF, JSON):
                return self._fail(415, f"unsupported content type {content_type!r}")
            encoding = (self.headers.get("Content-Encoding") or "").strip().lower()
            if encoding not in ("", "identity", "gzip", "deflate"):
                return self._fail(415, f"unsupported content encoding {encoding!r}")
            try:
                raw = self._body(intake.max_body_bytes)
            except TooLarge:
                return self._fail(413, "body over serve.max_body_bytes")
            except ValueError as error:
                return self._fail(400, str(error))
            if raw is None:
                return self._fail(411, "Content-Length or chunked transfer encoding required")
            refusal = intake.refusal()
            if refusal is not None:
                code = 503 if refusal == "stopping" else 429
                return self._fail(code, refusal.replace("_", " "), retry=True)
            try:
                body = decompress(raw, encoding, intake.max_body_bytes)
                decoded: Decoded = (decode_json if content_type == JSON else decode_protobuf)(body)
            except TooLarge:
                return self._fail(413, "decompressed body over serve.max_body_bytes")
            except (zlib.error, OtlpDecodeError) as error:
                return self._fail(400, str(error)[:200])
            reply = intake.receive(decoded, "http")
            if reply.refused is not None:
                code = 503 if reply.refused == "stopping" else 429
                return self._fail(code, reply.refused.replace("_", " "), retry=True)
            intake.forward(raw, content_type, encoding or None)
            self._send(200, response_body(reply, content_type), content_type)
            return 200

        def _body(self, limit: int) -> bytes | None:
            """The request body, by Content-Length or chunked (as Node's exporter sends it);
            past ``limit`` bytes reading stops (TooLarge)."""
            length = self.headers.get("Content-Length")
            if length is not None and length.isdigit():
                if int(length) > limit:
                    raise TooLarge
                return self.rfile.read(int(length))
            if "chunked" not in (self.headers.get("Transfer-Encoding") or "").lower():
                return None
            chunks: list[bytes] = []
            total = 0
            while True:
                size_line = self.rfile.readline(100).split(b";")[0].strip()
                try:
                    size = int(size_line, 16)
                except ValueError:
                    raise ValueError("malformed chunked body") from None
                if size == 0:
                    while self.rfile.readline(1000).strip():  # trailers
                        pass
                    return b"".join(chunks)
                total += size
                if total > limit:
                    raise TooLarge
                chunks.append(self.rfile.read(size))
                self.rfile.readline(10)

        def _fail(self, code: int, message: str, *, retry: bool = False) -> int:
            body = json.dumps({"code": code, "message": message}).encode()
            headers = {"Retry-After": str(intake.retry_after_s)} if retry else {}
            self._send(code, body, JSON, headers)
            return code

        def _send(
            self, code: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
        ) -> None:
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

    return Handler


def start_http(
    intake: Intake, host: str, port: int, tls: ssl.SSLContext | None = None
) -> ThreadingHTTPServer:
    """Serve OTLP/HTTP from a daemon thread; ``server.shutdown()`` stops it."""
    server = ThreadingHTTPServer((host, port), make_handler(intake))
    server.daemon_threads = True
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, name="ragguard-serve-http", daemon=True).start()
    return server
