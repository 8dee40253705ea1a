"""Decode one image from wherever a trace says it is, downscaled to a bounded size.

Sources: a local path, a ``file://`` URI, an ``http(s)://`` URL (fetched with a timeout and
a size cap), a ``data:`` URI with base64 bytes (what raw bytes become in a trace), or a PIL
image handed over through the Python API (kept beside the item, never serialized).
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from ragguard.errors import MediaError
from ragguard.media.inline import INLINE_PREFIX

if TYPE_CHECKING:
    from PIL.Image import Image


def load_image(
    source: str, *, max_side: int, timeout_s: float = 10.0, max_bytes: int = 50_000_000
) -> Image:
    """An RGB image, its longer side at most ``max_side`` (aspect kept); MediaError if not."""
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    raw = _read_bytes(source, timeout_s=timeout_s, max_bytes=max_bytes)
    try:
        image = PILImage.open(io.BytesIO(raw))
        scale = min(1.0, max_side / max(image.size))
        # JPEG: decode at 1/2, 1/4 or 1/8 scale when the target allows it (much cheaper)
        image.draft("RGB", (math.ceil(image.width * scale), math.ceil(image.height * scale)))
        return fit(image.convert("RGB"), max_side)
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise MediaError("image", f"{_short(source)} is not a readable image: {error}") from None


def fit(image: Image, max_side: int) -> Image:
    """``image`` with its longer side at most ``max_side``."""
    if max(image.size) <= max_side:
        return image
    scale = max_side / max(image.size)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, resample=3)  # bicubic


def local_path(source: str) -> Path | None:
    """The file a path or ``file://`` URI names; None for other URIs."""
    if source.startswith("file://"):
        return Path(unquote(urlparse(source).path))
    return None if "://" in source or source.startswith("data:") else Path(source)


def _read_bytes(source: str, *, timeout_s: float, max_bytes: int) -> bytes:
    if source.startswith(INLINE_PREFIX):
        raise MediaError("image", "an in-memory image is not available after serialization")
    if source.startswith("data:"):
        _, _, payload = source.partition(",")
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as error:
            raise MediaError("image", f"bad base64 in data URI: {error}") from None
    path = local_path(source)
    if path is not None:
        try:
            return path.read_bytes()
        except OSError as error:
            raise MediaError("image", f"cannot read {source!r}: {error.strerror}") from None
    if urlparse(source).scheme not in ("http", "https"):
        raise MediaError("image", f"unsupported URI scheme in {source!r}")
    try:
        with urllib.request.urlopen(source, timeout=timeout_s) as response:
            raw = response.read(max_bytes + 1)
    except OSError as error:
        raise MediaError("image", f"cannot fetch {source!r}: {error}") from None
    if len(raw) > max_bytes:
        raise MediaError("image", f"{source!r} is larger than {max_bytes} bytes")
    return raw


def _short(source: str) -> str:
    return repr(source if len(source) <= 80 else source[:60] + "...")
