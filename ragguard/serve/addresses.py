"""HOST:PORT parsing and the rule for binding beyond loopback."""

from __future__ import annotations

from ragguard.errors import RagguardError
from ragguard.runtime import is_loopback
from ragguard.serve.numerals import ascii_int

__all__ = ["check_exposure", "is_loopback", "parse"]


def parse(address: str) -> tuple[str, int]:
    """``127.0.0.1:4318``, ``[::1]:4318``, ``localhost:4318`` -> (host, port)."""
    host, sep, digits = address.rpartition(":")
    port = ascii_int(digits, 5) if sep else None
    if port is None or port > 65535:
        raise RagguardError(f"not a HOST:PORT address: {address!r}")
    return host.strip("[]") or "127.0.0.1", port


def check_exposure(host: str, what: str, *, token: bool, tls: bool) -> None:
    """Refuse a receiver on a non-loopback address without both a token and TLS: span
    content (queries, documents, answers) would otherwise be open to the network."""
    if not is_loopback(host) and not (token and tls):
        raise RagguardError(
            f"{what} on {host}: beyond loopback, ragguard serve needs serve.auth_token_env "
            "and serve.tls_cert / serve.tls_key"
        )
