"""The media policy (``[media]`` in the config): what a trace's image or video source may make
ragguard read. A trace is input, so a path is read only inside the configured roots and only
as a regular file of bounded size, and a URL is fetched only when remote fetch is on, from
an allowed host, within a byte cap and a total timeout.

Addresses: an allowed host *name* is resolved once per connection, every address it
resolves to must be public (not loopback, private, link-local or reserved), and the
connection goes to the address that was checked (DNS rebinding, a second answer between
check and connect, cannot steer it). This holds for the first request and for every
redirect. The one exception is a URL whose host is an IP address that
``media.allowed_hosts`` names exactly: the operator chose it, so it may be private (a
redirect never may). Proxies from the environment are not used: the connection must go to
the checked address.
"""

from __future__ import annotations

import http.client
import ipaddress
import os
import socket
import stat
import time
import urllib.request
from collections.abc import Callable
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from ragguard.errors import MediaError

if TYPE_CHECKING:
    from ragguard.config import MediaConfig

_CHUNK = 1 << 16


def local_path(source: str) -> Path | None:
    """The file a path or ``file://`` URI names; None for other URIs."""
    if source.startswith("file://"):
        return Path(unquote(urlparse(source).path))
    return None if "://" in source or source.startswith("data:") else Path(source)


def allowed_path(source: str, policy: MediaConfig, field: str) -> Path:
    """The resolved file ``source`` names, if it lies inside one of ``policy.local_roots``
    (symlinks and ``..`` resolved first); MediaError otherwise. Nothing is opened."""
    path = local_path(source)
    if path is None:
        raise MediaError(field, f"{source!r} is not a local path")
    resolved = path.resolve()
    if not any(resolved.is_relative_to(root.resolve()) for root in policy.local_roots):
        roots = ", ".join(str(root) for root in policy.local_roots) or "none configured"
        raise MediaError(field, f"{source!r} is outside media.local_roots ({roots})")
    return resolved


def check_file(source: str, policy: MediaConfig, field: str, max_bytes: int) -> Path:
    """``allowed_path``, and the file is a regular file of at most ``max_bytes``."""
    path = allowed_path(source, policy, field)
    try:
        info = path.stat()
    except OSError as error:
        raise MediaError(field, f"cannot read {source!r}: {error.strerror}") from None
    _check_regular(info, source, field, max_bytes)
    return path


def read_file(source: str, policy: MediaConfig, field: str, max_bytes: int) -> bytes:
    """The bytes of an allowed regular file, read from the descriptor that was checked (no
    FIFO or device is ever opened for reading, and a file that grows stops at the cap)."""
    path = allowed_path(source, policy, field)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise MediaError(field, f"cannot read {source!r}: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as handle:
        _check_regular(os.fstat(descriptor), source, field, max_bytes)
        return _read_capped(handle.read, source, field, max_bytes)


def fetch(url: str, policy: MediaConfig, field: str, max_bytes: int) -> bytes:
    """Download an image under the policy (see the module docstring)."""
    if not policy.remote_fetch:
        raise MediaError(field, f"{url!r}: remote fetch is off (media.remote_fetch)")
    _check_url(url, policy, field)
    deadline = time.monotonic() + policy.fetch_timeout_s
    pinned = _Pinned(policy, field)
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}),
        _PinnedHTTP(pinned),
        _PinnedHTTPS(pinned),
        _PolicyRedirects(policy, field, pinned),
    )
    try:
        with opener.open(url, timeout=policy.fetch_timeout_s) as response:
            length = response.headers.get("Content-Length")
            if length is not None and length.isdigit() and int(length) > max_bytes:
                raise MediaError(field, f"{url!r} is larger than {max_bytes} bytes")
            return _read_capped(response.read1, url, field, max_bytes, deadline)
    except MediaError:
        raise
    except (OSError, ValueError) as error:  # HTTP errors, refused connections, timeouts
        raise MediaError(field, f"cannot fetch {url!r}: {error}") from None


def _check_regular(info: os.stat_result, source: str, field: str, max_bytes: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise MediaError(field, f"{source!r} is not a regular file")
    if info.st_size > max_bytes:
        raise MediaError(field, f"{source!r} is larger than {max_bytes} bytes")


def _read_capped(
    read: Callable[[int], bytes],
    source: str,
    field: str,
    max_bytes: int,
    deadline: float | None = None,
) -> bytes:
    """Read at most ``max_bytes`` (MediaError beyond), by chunks as they arrive, within
    ``deadline`` (a server dripping bytes cannot hold a download open past it)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := read(_CHUNK):
        size += len(chunk)
        if size > max_bytes:
            raise MediaError(field, f"{source!r} is larger than {max_bytes} bytes")
        if deadline is not None and time.monotonic() > deadline:
            raise MediaError(field, f"{source!r}: download took longer than the timeout")
        chunks.append(chunk)
    return b"".join(chunks)


def _check_url(url: str, policy: MediaConfig, field: str) -> None:
    parsed = urlparse(url)
    host = (parsed.hostname or "").lower()
    if parsed.scheme not in ("http", "https") or not host:
        raise MediaError(field, f"unsupported URI in {url!r}")
    if not any(fnmatchcase(host, pattern.lower()) for pattern in policy.allowed_hosts):
        raise MediaError(field, f"{url!r}: host {host!r} is not in media.allowed_hosts")


class _Pinned:
    """One download's connections: each host resolved once, checked, and connected to by
    the address that was checked."""

    def __init__(self, policy: MediaConfig, field: str) -> None:
        self.policy, self.field = policy, field
        self.redirected = False
        self.exact = {h.lower() for h in policy.allowed_hosts if not any(c in h for c in "*?[")}

    def address(self, host: str) -> str:
        """The address to connect to for ``host``; MediaError when it is not public."""
        host = host.strip("[]").lower()
        if not self.redirected and host in self.exact and _literal(host):
            return host  # an IP address the operator allowed by name
        try:
            infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        except OSError as error:
            raise MediaError(self.field, f"cannot resolve {host!r}: {error}") from None
        addresses = [str(info[4][0]).split("%")[0] for info in infos]
        if not addresses or not all(ipaddress.ip_address(a).is_global for a in addresses):
            hop = "a redirect to" if self.redirected else "the host"
            raise MediaError(self.field, f"{hop} {host!r} has a private address; refused")
        return addresses[0]

    def connect(
        self, address: tuple[str, int], timeout: float | None = None, source: Any = None
    ) -> socket.socket:
        host, port = address
        if timeout is None:
            return socket.create_connection((self.address(host), port), source_address=source)
        return socket.create_connection((self.address(host), port), timeout, source)

    def connection(self, kind: type[http.client.HTTPConnection]) -> Callable[..., Any]:
        def make(host: str, **options: Any) -> http.client.HTTPConnection:
            connection = kind(host, **options)
            setattr(connection, "_create_connection", self.connect)  # noqa: B010
            return connection

        return make


def _literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class _PinnedHTTP(urllib.request.HTTPHandler):
    def __init__(self, pinned: _Pinned) -> None:
        super().__init__()
        self.pinned = pinned

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self.pinned.connection(http.client.HTTPConnection), req)


class _PinnedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, pinned: _Pinned) -> None:
        super().__init__()
        self.pinned = pinned

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        make = self.pinned.connection(http.client.HTTPSConnection)
        return self.do_open(make, req, context=self._context)  # type: ignore[attr-defined]


class _PolicyRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to an allowed host; its address is checked at connection."""

    def __init__(self, policy: MediaConfig, field: str, pinned: _Pinned) -> None:
        self.policy = policy
        self.field = field
        self.pinned = pinned

    def redirect_request(  # type: ignore[no-untyped-def]
        self, req, fp, code, msg, headers, newurl
    ):
        _check_url(newurl, self.policy, self.field)
        self.pinned.redirected = True
        return super().redirect_request(req, fp, code, msg, headers, newurl)
