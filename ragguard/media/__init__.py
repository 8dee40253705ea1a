"""Pixels for the image scorers: images from paths, URIs, inline bytes or PIL objects, and
frames sampled from videos, each with a content key the embedding caches use."""

from ragguard.media.images import MediaError, inline_ref, is_pil, load_image
from ragguard.media.video import sample_frames
from ragguard.media.visual import Frame, Visual, load_visual

__all__ = [
    "Frame",
    "MediaError",
    "Visual",
    "inline_ref",
    "is_pil",
    "load_image",
    "load_visual",
    "sample_frames",
]
