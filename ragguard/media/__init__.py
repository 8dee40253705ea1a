"""Pixels for the image scorers: images from paths, URIs, inline bytes or PIL objects, and
frames sampled from videos, each with a content key the embedding caches use.

Modules: ``inline`` (recognising and referring to inline media; standard library only),
``images`` (decoding one image), ``video`` (sampling frames), ``visual`` (an item as frames).
This package imports its public names (``__all__``) on first use, so a module imports
alone."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.media.decoded import Decoded, decoded_visual, unreadable_file
    from ragguard.media.images import read_image_bytes
    from ragguard.media.policy import allowed_path, local_path
    from ragguard.media.visual import Frame, Visual, best_frames

__all__ = [
    "Decoded",
    "Frame",
    "Visual",
    "allowed_path",
    "best_frames",
    "decoded_visual",
    "local_path",
    "read_image_bytes",
    "unreadable_file",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
