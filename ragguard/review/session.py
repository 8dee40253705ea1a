"""One review run: the queue of spans, the labels file, and what the page asks of them.

The queue is fixed when the server starts; labels are shared by every tab and reviewer,
read back from the file at start (so a reopened run resumes) and kept current in memory
under one lock as they are appended.
"""

from __future__ import annotations

import binascii
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ragguard.config import MediaConfig
from ragguard.errors import MediaError, RagguardError
from ragguard.media import allowed_path, local_path, read_image_bytes
from ragguard.review.cards import ReviewSpan, card_view
from ragguard.review.store import CHOICES, Choice, Label, LabelsFile, current_labels, label_line
from ragguard.review.summary import summarize
from ragguard.schema import INLINE_PREFIX

IMAGE_TYPES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}
"""The image formats the page shows, by their first bytes (WebP is checked apart); any
other bytes (SVG, HTML) are never served, whatever a trace calls them."""
MAX_REVIEWER_CHARS = 80


@dataclass
class Queue:
    """The spans to label, in order, and how they were drawn (written on every label)."""

    spans: list[ReviewSpan]
    sample: dict[str, Any]


@dataclass
class ReviewSession:
    queue: Queue
    labels_path: str
    reviewer: str
    media: MediaConfig = field(default_factory=MediaConfig)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.file = LabelsFile(self.labels_path)
        self.labels: dict[tuple[str, str], Label] = current_labels(self.labels_path)
        self.by_hash = {span.hash: number for number, span in enumerate(self.queue.spans)}

    def close(self) -> None:
        self.file.close()

    def reviewer_name(self, value: Any) -> str:
        if value is None or value == "":
            return self.reviewer
        if not isinstance(value, str) or len(value) > MAX_REVIEWER_CHARS:
            raise RagguardError(f"reviewer: a name of at most {MAX_REVIEWER_CHARS} characters")
        return value

    def state(self, reviewer: str) -> dict[str, Any]:
        """Progress for ``reviewer``: labelled of N per class, and the first card left."""
        with self.lock:
            mine = [self.labels.get((span.hash, reviewer)) for span in self.queue.spans]
        counts = Counter(label.choice for label in mine if label and label.choice != "undone")
        left = [n for n, label in enumerate(mine) if label is None or label.choice == "undone"]
        return {
            "total": len(self.queue.spans),
            "counts": {choice: counts.get(choice, 0) for choice in CHOICES if choice != "undone"},
            "next": left[0] if left else None,
            "left": len(left),
            "open": left,
            "reviewer": reviewer,
            "design": self.queue.sample.get("design"),
            "seed": self.queue.sample.get("seed"),
        }

    def card(self, number: int, reviewer: str) -> dict[str, Any]:
        span = self._span(number)
        notes = [self._media_note(span, i) for i in range(len(span.trace.items or []))]
        view = card_view(span, number, notes)
        with self.lock:
            others = [label for (key, _), label in self.labels.items() if key == span.hash]
        view["labels"] = [
            {"reviewer": label.reviewer, "choice": label.choice, "mine": label.reviewer == reviewer}
            for label in others
            if label.choice != "undone"
        ]
        choices = {label.choice for label in others if label.choice in ("supported", "unsupported")}
        view["disagreement"] = len(choices) > 1
        return view

    def label(self, number: int, choice: str, reviewer: str, note: str, key: str) -> None:
        """Append ``choice`` for card ``number`` (``key`` must be its hash: a stale page
        cannot label another span)."""
        span = self._span(number)
        if key != span.hash:
            raise RagguardError("hash: the card changed; reload the page")
        if choice not in CHOICES:
            raise RagguardError(f"choice: one of {', '.join(CHOICES)}")
        typed: Choice = choice  # type: ignore[assignment]
        line = label_line(span, typed, reviewer=reviewer, note=note, sample=self.queue.sample)
        with self.lock:
            self.file.append(line)
            self.labels[(span.hash, reviewer)] = Label(
                span.hash, reviewer, choice, span.design, line["review"], line
            )

    def summary(self) -> dict[str, Any]:
        with self.lock:
            labels = list(self.labels.values())
        return summarize(labels, labels_path=self.labels_path)

    def _span(self, number: int) -> ReviewSpan:
        if not 0 <= number < len(self.queue.spans):
            raise RagguardError(f"card {number}: no such card")
        return self.queue.spans[number]

    def _media_note(self, span: ReviewSpan, position: int) -> dict[str, str] | None:
        """How the page shows item ``position``'s image: a URL of this server, or why not."""
        item = (span.trace.items or [])[position]
        if item.video:
            return {"note": "video: not shown"}
        source = item.image
        if not source:
            return None
        if source.startswith(INLINE_PREFIX):
            return {"note": "image: the log keeps only its hash"}
        try:
            self._allowed(source)
        except MediaError as error:
            return {"note": f"image not shown: {error}"}
        return {"url": f"media/{self.by_hash[span.hash]}/{position}"}

    def _allowed(self, source: str) -> None:
        if source.startswith("data:"):
            return
        if local_path(source) is not None:
            allowed_path(source, self.media, "image")
        elif not self.media.remote_fetch:
            raise MediaError("image", "remote fetch is off (media.remote_fetch)")

    def image(self, number: int, position: int) -> tuple[bytes, str]:
        """An item's image bytes and type, read under the media policy; only PNG, JPEG,
        GIF and WebP are served."""
        span = self._span(number)
        items = span.trace.items or []
        if not 0 <= position < len(items) or not items[position].image:
            raise MediaError("image", "no such image")
        source = str(items[position].image)
        self._allowed(source)
        try:
            raw = read_image_bytes(source, self.media)
        except (binascii.Error, ValueError) as error:
            raise MediaError("image", str(error)) from None
        return raw, image_type(raw)


def image_type(raw: bytes) -> str:
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    for magic, kind in IMAGE_TYPES.items():
        if raw.startswith(magic):
            return kind
    raise MediaError("image", "not a PNG, JPEG, GIF or WebP image: not shown")
