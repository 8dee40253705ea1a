"""What the scorers read: a retrieved item as ``Evidence`` and a span as a ``Claim``, and the
one mapping from a trace's ``Item`` to its evidence, so a relevance score cached for an item
in one place (the reranker) is the one the evaluator finds in another."""

from __future__ import annotations

from dataclasses import dataclass

from ragguard.language import normalized
from ragguard.schema import Item

TEXT_SURROGATES = ("caption", "alt_text", "alt", "ocr", "description")
"""Metadata keys holding a text stand-in for an image or video item."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A retrieved item as a scorer sees it. Text-only backends read ``text``, normalised
    (``ragguard.language.normalize``: no zero-width characters to hide a word)."""

    id: str
    text: str | None
    image: str | None = None
    video: str | None = None
    language: str | None = None
    """The language its text is read as, when the evaluator has named it (None: the scorer
    that needs it detects it)."""

    def __post_init__(self) -> None:
        if self.text is not None:
            object.__setattr__(self, "text", normalized(self.text))


@dataclass(frozen=True, slots=True)
class Claim:
    """A span to verify, with the preceding sentence for decontextualization; both
    normalised as ``Evidence`` is (the span itself keeps the answer's text and offsets)."""

    text: str
    context: str | None = None
    language: str = "en"
    """The language the span is read as (``scoring.wiring.routing``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", normalized(self.text))
        if self.context is not None:
            object.__setattr__(self, "context", normalized(self.context))


def item_text(item: Item) -> str | None:
    """The text a text scorer reads: the item's own text, else a surrogate from metadata."""
    if item.text:
        return item.text
    for key in TEXT_SURROGATES:
        value = item.metadata.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def item_evidence(item: Item) -> Evidence | None:
    """An item as the text scorers see it (None: no text to score)."""
    text = item_text(item)
    return None if text is None else Evidence(item.id, text, item.image, item.video)
