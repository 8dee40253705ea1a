"""Serving a review run: the socket bound first (so the printed URL has the real port),
a token per run or from a file, loopback unless a token file is given."""

from __future__ import annotations

import asyncio
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from ragguard.errors import RagguardError
from ragguard.review.app import build_app
from ragguard.review.session import ReviewSession
from ragguard.runtime import is_loopback

MIN_TOKEN_CHARS = 16


def read_token(path: str | None, host: str) -> str:
    """The run's token: a fresh random one, or the one in ``path`` (needed off loopback)."""
    if path is None:
        if not is_loopback(host):
            raise RagguardError(f"--host {host} is not loopback: it needs --token-file")
        return secrets.token_urlsafe(24)
    token = Path(path).read_text(encoding="utf-8").strip()
    if len(token) < MIN_TOKEN_CHARS or not all(c.isalnum() or c in "-_" for c in token):
        raise RagguardError(
            f"--token-file {path}: a token of at least {MIN_TOKEN_CHARS} letters, digits, - or _"
        )
    return token


@dataclass
class Bound:
    sock: socket.socket
    host: str
    port: int
    token: str

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/{self.token}/"

    def hosts(self) -> frozenset[str]:
        """The Host headers a browser sends for this server."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        names = {shown}
        if is_loopback(self.host):
            names |= {"localhost", "127.0.0.1", "[::1]"}
        return frozenset(f"{name}:{self.port}" for name in names)


def bind(host: str, port: int, token: str) -> Bound:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise RagguardError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    sock.listen(64)
    return Bound(sock, host, sock.getsockname()[1], token)


def serve(session: ReviewSession, bound: Bound) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM: uvicorn stops gracefully)."""
    import uvicorn

    app = build_app(session, bound.token, bound.hosts())
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    try:
        asyncio.run(server.serve(sockets=[bound.sock]))
    finally:
        session.close()
