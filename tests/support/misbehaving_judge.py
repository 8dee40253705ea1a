"""A loopback stand-in for a misbehaving OpenAI-compatible judge: it answers each chat call
with whatever the test sets (a reply text, a raw body, a status, a drip of bytes, a flood),
and records the requests it got. For the faults a real server will not produce on demand."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def completion(content: str, usage: Any = _USAGE) -> bytes:
    """A chat completion body holding ``content`` (``usage`` None: no usage reported)."""
    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "stand-in",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return json.dumps(body).encode()


@dataclass
class Behaviour:
    status: int = 200
    body: bytes = completion('{"reasoning": "r", "verdict": "supported"}')
    content_type: str = "application/json"
    drip_s: float = 0.0
    """Send the body one byte at a time, this long apart."""
    drip_headers: bool = False
    """Drip the status line and headers too."""
    flood_bytes: int = 0
    """Send this many bytes of body (a JSON string that never ends) instead of ``body``."""
    echo_authorization: bool = False
    """Answer with an error body that quotes the request's Authorization header."""
    echo_in_rationale: bool = False
    """Answer a verdict whose reasoning quotes the request's Authorization header."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        plan = self.server.plan
        length = int(self.headers.get("Content-Length", 0))
        plan.requests.append(json.loads(self.rfile.read(length) or b"{}"))
        body = plan.body
        if plan.echo_authorization:
            body = json.dumps(
                {"error": {"message": f"bad key, you sent {self.headers.get('Authorization')}"}}
            ).encode()
        if plan.echo_in_rationale:
            echoed = f"I was sent {self.headers.get('Authorization')}"
            body = completion(json.dumps({"reasoning": echoed, "verdict": "not_supported"}))
        size = plan.flood_bytes or len(body)
        head = (
            f"HTTP/1.1 {plan.status} X\r\nContent-Type: {plan.content_type}\r\n"
            f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
        ).encode()
        try:
            self._send(head, plan.drip_s if plan.drip_headers else 0.0)
            if plan.flood_bytes:
                chunk = b'{"x": "' + b"a" * 65529
                while plan.sent < plan.flood_bytes:
                    self.wfile.write(chunk)
                    plan.sent += len(chunk)
            else:
                self._send(body, plan.drip_s)
        except OSError:
            pass  # the client hung up: that is what several tests want

    def _send(self, data: bytes, drip_s: float) -> None:
        if not drip_s:
            self.wfile.write(data)
            self.server.plan.sent += len(data)
            return
        for byte in data:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            self.server.plan.sent += 1
            time.sleep(drip_s)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    plan: Behaviour


@dataclass
class StandIn:
    server: _Server

    @property
    def plan(self) -> Behaviour:
        return self.server.plan

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@contextlib.contextmanager
def stand_in(plan: Behaviour | None = None) -> Iterator[StandIn]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.plan = plan or Behaviour()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield StandIn(server)
    finally:
        server.shutdown()
        server.server_close()
