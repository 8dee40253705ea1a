"""An image or video item as the image scorers see it: one or more frames, each with the
content key under which its embedding is cached."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ragguard.media.images import fit, load_image
from ragguard.media.video import sample_frames
from ragguard.schema import pixels_key

if TYPE_CHECKING:
    from PIL.Image import Image

    from ragguard.config import ImageConfig, MediaConfig
    from ragguard.schema import Item


_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Frame:
    """A still image, or one frame of a video with its timestamp."""

    key: str
    image: Image
    time_s: float | None = None


@dataclass(frozen=True, slots=True)
class Visual:
    """The pixels of one item: a single frame for an image, sampled frames for a video."""

    frames: tuple[Frame, ...]


def load_visual(item: Item, config: ImageConfig, policy: MediaConfig) -> Visual:
    """Decode ``item``'s video or image (MediaError naming the field if it cannot be read,
    or if ``policy`` does not allow reading it)."""
    if item.video is not None:
        sampled = sample_frames(
            item.video,
            frames=config.video_frames,
            fps=config.video_fps,
            max_frames=config.video_max_frames,
            max_side=config.max_side,
            policy=policy,
        )
        return Visual(tuple(Frame(pixels_key(image), image, t) for image, t in sampled))
    assert item.image is not None
    if item.pixels is not None:
        image = fit(item.pixels.convert("RGB"), config.max_side)
    else:
        image = load_image(item.image, max_side=config.max_side, policy=policy)
    return Visual((Frame(pixels_key(image), image),))


def best_frames(
    pairs: Sequence[tuple[_T, Visual]],
    score: Callable[[list[_T], list[Frame]], np.ndarray],
) -> list[tuple[float, float | None]]:
    """Score every frame of every pair in one call; per pair, the best frame's score and its
    timestamp (max aggregation: a video is relevant / supports a claim if one frame does)."""
    texts: list[_T] = []
    frames: list[Frame] = []
    owner: list[int] = []
    for n, (text, visual) in enumerate(pairs):
        for frame in visual.frames:
            texts.append(text)
            frames.append(frame)
            owner.append(n)
    best: list[tuple[float, float | None]] = [(-1.0, None)] * len(pairs)
    for n, value, frame in zip(owner, score(texts, frames).tolist(), frames, strict=True):
        if value > best[n][0]:
            best[n] = (value, frame.time_s)
    return best
