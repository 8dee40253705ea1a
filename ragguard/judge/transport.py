"""The judge's HTTP transport: a total deadline per call and a cap on the reply's size.

httpx's timeouts bound each socket operation, not the call: a server that sends one byte
every 2 s never trips a 3 s read timeout and can hold a question for minutes. This
transport arms a timer for the whole call; when it fires, the call's sockets are shut down,
the blocked read returns at once and the call ends with ``expired`` set. Each call opens its
own connection (no keep-alive), so its socket is always known: the httpx ``trace``
extension reports it when the connection is made.

The reply body is read through a counter; past ``max_bytes`` the read stops (``too_large``)
before the body is held in memory.

The classes are built on whichever httpx the installed ``openai`` client uses (``httpx`` in
openai 1.x, ``httpx2`` in later releases), found from ``openai.DefaultHttpxClient``.
"""

from __future__ import annotations

import contextlib
import importlib
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

_local = threading.local()


@dataclass
class CallGuard:
    """One call's deadline state: its sockets, and what ended it early."""

    sockets: list[socket.socket] = field(default_factory=list)
    expired: bool = False
    too_large: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpx trace hook: remember the socket of each new connection."""
        if event != "connection.connect_tcp.complete":
            return
        stream = info.get("return_value")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            with self.lock:
                self.sockets.append(sock)
                if self.expired:
                    _shut(sock)

    def expire(self) -> None:
        with self.lock:
            self.expired = True
            for sock in self.sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[CallGuard]:
    """Bound every HTTP call this thread makes through ``GuardedTransport`` in the block to
    ``seconds`` in total."""
    guard = CallGuard()
    timer = threading.Timer(max(seconds, 0.0), guard.expire)
    timer.daemon = True
    previous = getattr(_local, "guard", None)
    _local.guard = guard
    timer.start()
    try:
        yield guard
    finally:
        timer.cancel()
        _local.guard = previous


_LOADED: dict[str, Any] = {}
"""The httpx module and the transport class built on it, loaded on first use, once."""


def httpx_module() -> Any:
    """The httpx module the installed openai client is built on."""
    if "httpx" not in _LOADED:
        import openai

        found = "httpx"
        for base in openai.DefaultHttpxClient.__mro__:
            if base.__name__ == "Client" and base.__module__.split(".")[0].startswith("httpx"):
                found = base.__module__.split(".")[0]
                break
        _LOADED["httpx"] = importlib.import_module(found)
    return _LOADED["httpx"]


def client(max_bytes: int, timeout_s: float) -> Any:
    """An httpx client for the openai client: total deadline per call, capped replies."""
    httpx = httpx_module()
    return httpx.Client(transport=_transport_class()(max_bytes), timeout=timeout_s)


def _transport_class() -> Any:
    if "transport" not in _LOADED:
        _LOADED["transport"] = _build_transport_class()
    return _LOADED["transport"]


def _build_transport_class() -> Any:
    httpx = httpx_module()

    class ReplyTooLarge(httpx.ReadError):  # type: ignore[misc,name-defined]
        """The reply body passed the configured cap."""

    class CappedStream(httpx.SyncByteStream):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any, guard: CallGuard, max_bytes: int) -> None:
            self.inner, self.guard, self.max_bytes = inner, guard, max_bytes

        def __iter__(self) -> Iterator[bytes]:
            seen = 0
            for chunk in self.inner:
                seen += len(chunk)
                if seen > self.max_bytes:
                    self.guard.too_large = True
                    raise ReplyTooLarge(f"reply larger than {self.max_bytes} bytes")
                yield chunk

        def close(self) -> None:
            self.inner.close()

    class GuardedTransport(httpx.BaseTransport):  # type: ignore[misc,name-defined]
        """Applies the calling thread's ``deadline`` and the body cap; no keep-alive."""

        def __init__(self, max_bytes: int) -> None:
            self.max_bytes = max_bytes
            limits = httpx.Limits(max_keepalive_connections=0)
            self._inner = httpx.HTTPTransport(limits=limits)

        def handle_request(self, request: Any) -> Any:
            guard = getattr(_local, "guard", None) or CallGuard()
            request.extensions = {**request.extensions, "trace": guard.trace}
            response = self._inner.handle_request(request)
            return httpx.Response(
                status_code=response.status_code,
                headers=response.headers,
                stream=CappedStream(response.stream, guard, self.max_bytes),
                extensions=response.extensions,
            )

        def close(self) -> None:
            self._inner.close()

    return GuardedTransport
