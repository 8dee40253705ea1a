"""Frames sampled from a video with decord, bounded in number and size.

Uniform sampling takes ``frames`` frames spread over the whole video; fps sampling takes one
frame every ``1/fps`` seconds, thinned to at most ``max_frames``. Frames are decoded one at a
time and downscaled at once, so memory stays at ``max_frames`` small frames whatever the
video's length or resolution, and time at one seek per sampled frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ragguard.errors import MediaError
from ragguard.media.images import fit
from ragguard.media.policy import check_file, local_path

if TYPE_CHECKING:
    from PIL.Image import Image

    from ragguard.config import MediaConfig


def frame_indices(
    n_frames: int, avg_fps: float, *, frames: int, fps: float | None, max_frames: int
) -> list[int]:
    """Which frames to decode: uniform (centers of ``frames`` equal segments) or every
    ``1/fps`` seconds, at most ``max_frames`` either way."""
    if n_frames <= 0:
        return []
    if fps is not None and avg_fps > 0:
        step = max(avg_fps / fps, 1.0)
        wanted = np.arange(0.0, n_frames, step)
    else:
        wanted = (np.arange(frames) + 0.5) * n_frames / frames
    if len(wanted) > max_frames:
        wanted = wanted[np.linspace(0, len(wanted) - 1, max_frames).round().astype(int)]
    return sorted({min(int(i), n_frames - 1) for i in wanted})


def sample_frames(
    source: str,
    *,
    frames: int,
    fps: float | None,
    max_frames: int,
    max_side: int,
    policy: MediaConfig,
) -> list[tuple[Image, float]]:
    """(frame, timestamp in seconds) pairs of the video at ``source`` (a path or file URI
    that ``policy`` allows)."""
    from PIL import Image as PILImage

    if local_path(source) is None:
        raise MediaError("video", f"only local video files are read, not {source!r}")
    path = check_file(source, policy, "video", policy.max_video_bytes)
    try:
        import decord
    except ImportError:
        raise MediaError("video", "reading videos needs decord: pip install decord") from None
    try:
        reader = decord.VideoReader(str(path), ctx=decord.cpu(0))
        chosen = frame_indices(
            len(reader), reader.get_avg_fps(), frames=frames, fps=fps, max_frames=max_frames
        )
        out = []
        for index in chosen:
            pixels = reader[index].asnumpy()
            start_s = float(reader.get_frame_timestamp(index)[0])
            out.append((fit(PILImage.fromarray(pixels), max_side), start_s))
    except (RuntimeError, decord.DECORDError) as error:
        raise MediaError("video", f"{source!r} is not a readable video: {error}") from None
    if not out:
        raise MediaError("video", f"{source!r} has no frames")
    return out
