"""Citation markers and content references in a span, resolved to retrieved item ids.

What counts as a marker:

* A bracket ``[...]`` is a *citation* only if every comma- or semicolon-separated token in it
  (after an optional ``source:``/``ref:`` label) is an integer (``[2]``, and ``[0]`` or
  ``[-1]``, which name no item), an integer range (``[1-3]``, fewer than 100 wide), an
  existing item id, id-like: letters then digits (``d7``, ``doc7``, ``doc_7``, ``S3``), or a
  template placeholder left in (``[dX]``, ``[doc_N]``, ``[source?]``), which names no item.
  So ``[citation needed]``, ``[sic]`` and ``[a, b]`` are ordinary text and stay in the span.
* A token resolves to the item with exactly that id, else (integers only) to the item at that
  1-based position. Ranges are expanded and each number is resolved on its own.
* ``<imageN>`` / ``<videoN>`` tags are *references* to the N-th item of that modality (to the
  N-th item when there is none of that modality); ``<docN>`` / ``<documentN>`` to the N-th item.
* Content phrases ("document 2", "passage 3", "source 1", "image 2") are references too; they are
  prose, so one that names no item is simply not a reference.

A citation or tag naming no item raises :class:`TraceValidationError` (``unknown="error"``) or is
reported in ``CitationParse.unknown`` (``unknown="flag"``). Citation brackets are removed from the
text with the whitespace before them ("Paris is big [1]." -> "Paris is big."); tags are rewritten
as words so the sentence stays readable ("<image1> shows a cat" -> "image 1 shows a cat").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, NamedTuple

from ragguard.errors import TraceValidationError
from ragguard.spans.types import ItemRef

UnknownPolicy = Literal["error", "flag"]


class CitationParse(NamedTuple):
    """A span's text without citation markers, and what its markers and phrases point at."""

    text: str
    citations: tuple[str, ...]
    references: tuple[str, ...]
    unknown: tuple[str, ...]


_BRACKET = re.compile(r"[ \t]*\[([^\[\]\n]{1,60})\]")
_LABEL = re.compile(r"^\s*(?:sources?|refs?|references?)\s*:\s*", re.IGNORECASE)
_INTEGER = re.compile(r"[-−]?\d+")
_RANGE = re.compile(r"(\d+)\s*[-–]\s*(\d+)")
_ID_LIKE = re.compile(r"[A-Za-z]+[_-]?\d+")
_PLACEHOLDER = re.compile(
    r"(?:d|doc|document|p|passage|s|src|source|ref)[_-]?(?:[A-Z]{1,2}|[?#*]+)"
)
_MAX_RANGE = 100
_TAG = re.compile(r"<(image|video|document|doc)\s*(\d+)>", re.IGNORECASE)
_PHRASE = re.compile(
    r"\b(document|doc|passage|source|excerpt|image|video)\s+(\d+)\b", re.IGNORECASE
)
_LISTED_IDS = 10


def parse_citations(
    text: str, items: Sequence[ItemRef], unknown: UnknownPolicy = "error"
) -> CitationParse:
    """Strip the markers from ``text`` and resolve them against ``items`` (rules above)."""
    resolver = _Resolver(items, unknown)
    kept: list[str] = []
    cursor = 0
    for match in _BRACKET.finditer(text):
        tokens = _citation_tokens(match.group(1), resolver.ids)
        if tokens is None:
            continue
        kept.append(text[cursor : match.start()])
        cursor = match.end()
        for token in tokens:
            resolver.cite(token, resolver.by_id_or_position(token), f"[{match.group(1)}]")
    kept.append(text[cursor:])
    readable = _TAG.sub(lambda tag: resolver.tag(tag.group(1), tag.group(2)), "".join(kept))
    for phrase in _PHRASE.finditer(readable):
        target = resolver.by_word(phrase.group(1), int(phrase.group(2)))
        if target is not None:
            resolver.references.append(target)
    return CitationParse(
        readable.strip(),
        _unique(resolver.citations),
        _unique(resolver.references),
        _unique(resolver.unknown),
    )


def _citation_tokens(content: str, ids: frozenset[str]) -> list[str] | None:
    """The tokens of a citation bracket (ranges expanded), or None if it is ordinary text."""
    tokens: list[str] = []
    for raw in re.split(r"[,;]", _LABEL.sub("", content, count=1)):
        token = raw.strip()
        span = _RANGE.fullmatch(token)
        if token in ids or any(
            pattern.fullmatch(token) for pattern in (_INTEGER, _ID_LIKE, _PLACEHOLDER)
        ):
            tokens.append(token)
        elif span and 0 <= int(span[2]) - int(span[1]) < _MAX_RANGE:
            tokens.extend(str(n) for n in range(int(span[1]), int(span[2]) + 1))
        else:
            return None
    return tokens


class _Resolver:
    """Resolves the markers of one span and collects what they resolved to."""

    def __init__(self, items: Sequence[ItemRef], unknown: UnknownPolicy) -> None:
        self.items = items
        self.ids = frozenset(item.id for item in items)
        self.policy = unknown
        self.citations: list[str] = []
        self.references: list[str] = []
        self.unknown: list[str] = []

    def by_id_or_position(self, token: str) -> str | None:
        """Exact item id first, then a 1-based position for a plain integer."""
        if token in self.ids:
            return token
        return self._at(int(token)) if token.isdigit() else None

    def by_word(self, word: str, number: int) -> str | None:
        """The item an "image 2" / "document 2" tag or phrase names."""
        modality = word.lower()
        if modality in ("image", "video"):
            return self._nth(modality, number)
        return self._at(number)

    def cite(self, token: str, target: str | None, marker: str) -> None:
        """Record a citation, or its failure to resolve under the unknown-marker policy."""
        if target is not None:
            self.citations.append(target)
        else:
            self._unresolved(token, marker)

    def tag(self, word: str, number: str) -> str:
        """Record an ``<image1>``-style reference; return the words that replace the tag."""
        target = self.by_word(word, int(number))
        if target is not None:
            self.references.append(target)
        else:
            self._unresolved(f"<{word}{number}>", f"<{word}{number}>")
        return f"{word} {number}"

    def _unresolved(self, token: str, marker: str) -> None:
        if self.policy == "flag":
            self.unknown.append(token)
            return
        listed = ", ".join(repr(item.id) for item in self.items[:_LISTED_IDS])
        more = ", ..." if len(self.items) > _LISTED_IDS else ""
        which = f"{token!r} is neither an item id nor a position" if token != marker else ""
        raise TraceValidationError(
            "response",
            f"marker {marker} names none of the {len(self.items)} retrieved items"
            f"{': ' + which if which else ''}; known ids: {listed or 'none'}{more}",
        )

    def _at(self, position: int) -> str | None:
        return self.items[position - 1].id if 1 <= position <= len(self.items) else None

    def _nth(self, modality: str, number: int) -> str | None:
        of_modality = [item.id for item in self.items if item.modality == modality]
        if not of_modality:
            return self._at(number)
        return of_modality[number - 1] if 1 <= number <= len(of_modality) else None


def _unique(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))
