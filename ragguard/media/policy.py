"""The media policy (``[media]`` in the config): what a trace's image or video source may make
ragguard read. A trace is input, so a path is read only inside the configured roots and only
as a regular file of bounded size, and a URL is fetched only when remote fetch is on, from
an allowed host, within a byte cap and a total timeout, never redirected to a private address.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import stat
import time
import urllib.request
from collections.abc import Callable
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING
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
    opener = urllib.request.build_opener(_PolicyRedirects(policy, field))
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


def _is_private(host: str) -> bool:
    """Whether ``host`` is, or resolves to, an address that is not public (loopback,
    private, link-local, reserved); a name that does not resolve counts as private."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return True
    return any(not ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_global for info in infos)


class _PolicyRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to an allowed host that resolves to public addresses."""

    def __init__(self, policy: MediaConfig, field: str) -> None:
        self.policy = policy
        self.field = field

    def redirect_request(  # type: ignore[no-untyped-def]
        self, req, fp, code, msg, headers, newurl
    ):
        _check_url(newurl, self.policy, self.field)
        if _is_private(urlparse(newurl).hostname or ""):
            raise MediaError(self.field, f"redirect to a private address refused: {newurl!r}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)
