"""Decode one image from wherever a trace says it is, downscaled to a bounded size.

Sources: a local path or ``file://`` URI and an ``http(s)://`` URL, each read only as the
media policy allows (``media.policy``), a ``data:`` URI with base64 bytes (what raw bytes
become in a trace), or a PIL image handed over through the Python API (kept beside the item,
never serialized).
"""

from __future__ import annotations

import base64
import binascii
import io
import math
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from ragguard.errors import MediaError
from ragguard.media.policy import fetch, local_path, read_file
from ragguard.schema import INLINE_PREFIX

if TYPE_CHECKING:
    from PIL.Image import Image

    from ragguard.config import MediaConfig


def load_image(source: str, *, max_side: int, policy: MediaConfig) -> Image:
    """An RGB image, its longer side at most ``max_side`` (aspect kept); MediaError if not,
    or if ``policy`` does not allow reading ``source``."""
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    raw = read_image_bytes(source, policy)
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


def read_image_bytes(source: str, policy: MediaConfig) -> bytes:
    """An image's bytes from wherever ``source`` says, as ``policy`` allows (undecoded)."""
    cap = policy.max_image_bytes
    if source.startswith(INLINE_PREFIX):
        raise MediaError("image", "an in-memory image is not available after serialization")
    if source.startswith("data:"):
        _, _, payload = source.partition(",")
        if len(payload) * 3 // 4 > cap:
            raise MediaError("image", f"inline image larger than {cap} bytes")
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as error:
            raise MediaError("image", f"bad base64 in data URI: {error}") from None
    if local_path(source) is not None:
        return read_file(source, policy, "image", cap)
    if urlparse(source).scheme not in ("http", "https"):
        raise MediaError("image", f"unsupported URI scheme in {source!r}")
    return fetch(source, policy, "image", cap)


def _short(source: str) -> str:
    return repr(source if len(source) <= 80 else source[:60] + "...")
