"""Media items as evidence: their pixels decoded once per batch for an image scorer, or,
where no image scorer reads them, a check that their local files could be read."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ragguard.errors import MediaError
from ragguard.media.policy import check_file, local_path
from ragguard.media.visual import Visual, load_visual

if TYPE_CHECKING:
    from ragguard.config import ImageConfig, MediaConfig
    from ragguard.schema import Item

Decoded = dict[tuple[str, str], Visual | MediaError]
"""A batch's decoded media by (modality, uri): an image in many traces is read once."""


def decoded_visual(
    item: Item, decoded: Decoded, image: ImageConfig, media: MediaConfig
) -> Visual | MediaError:
    """``item``'s pixels, or the MediaError that says why they cannot be read, from
    ``decoded`` when this batch already read them."""
    source = (item.modality, item.uri or "")
    if source not in decoded:
        try:
            decoded[source] = load_visual(item, image, media)
        except MediaError as error:
            decoded[source] = error
    return decoded[source]


def unreadable_file(source: str, field: str, media: MediaConfig) -> str | None:
    """Why a local media file could not be read under the media policy (None when it
    could, or when the source is not a local path: URLs and inline data are not checked
    where no image model reads them)."""
    if local_path(source) is None:
        return None
    cap = media.max_video_bytes if field == "video" else media.max_image_bytes
    try:
        path = check_file(source, media, field, cap)
    except MediaError as error:
        return error.message
    return None if os.access(path, os.R_OK) else f"cannot read {source!r}: permission denied"
