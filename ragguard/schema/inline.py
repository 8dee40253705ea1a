"""Inline media values: how an image given as bytes or in memory is recognised, recorded and
referred to. Standard library only, so the data model (``schema``) can use it as a leaf."""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL.Image import Image

INLINE_PREFIX = "sha256:"
"""An item's ``image`` for a PIL image given in memory: the hash of its pixels, not the pixels."""

INLINE_MEDIA_CHARS = 2048
"""An image/video value longer than this is inline data, not a path or URL."""


def is_inline(value: str) -> bool:
    """Inline pixel data (a ``data:`` URI or an overlong value) rather than a location."""
    return value.startswith("data:") or len(value) > INLINE_MEDIA_CHARS


def media_reference(value: str) -> str:
    """The ``sha256:`` content reference that stands in for inline media wherever it would
    be logged or exported."""
    return INLINE_PREFIX + hashlib.sha256(value.encode("utf-8")).hexdigest()


def is_pil(value: Any) -> bool:
    """True for a PIL image, without importing PIL where none is used."""
    return type(value).__module__.startswith("PIL.") and hasattr(value, "tobytes")


def pixels_key(image: Image) -> str:
    """Content hash of decoded pixels (mode, size and bytes): the embedding caches' key."""
    digest = hashlib.sha256(f"{image.mode}:{image.size}".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def inline_ref(image: Image) -> str:
    """What the trace records for an in-memory PIL image: its content hash."""
    return INLINE_PREFIX + pixels_key(image)


def data_uri(raw: bytes) -> str:
    """Raw image bytes as the ``data:`` URI a JSON trace can carry."""
    return "data:application/octet-stream;base64," + base64.b64encode(raw).decode("ascii")
