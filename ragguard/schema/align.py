"""Given answer spans located in their response, across the ways two copies of one text
may differ in code points (composed accents, no-break spaces, curly quotes, zero-width
characters). Part of the contract: a trace's ``response_spans`` is validated with it."""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Sequence


def span_offsets(response: str, spans: Sequence[str]) -> list[tuple[str, int, int]]:
    """(text, start, end) of each given span in ``response``, each searched from where the
    previous one ended; one entry per given span, so span i is always entry i. A
    whitespace-only entry sits, empty, where the previous one ended. A span not found as
    written is looked for as the same text in other code points (``_folded``: composed or
    decomposed accents, no-break or narrow spaces, runs of whitespace, curly quotes,
    zero-width characters), and its entry is then the response's own text there. A span
    that is not there is a ValueError naming its index: a split that does not match its
    response is bad input."""
    located: list[tuple[str, int, int]] = []
    cursor = 0
    folded: tuple[str, list[int]] | None = None
    for index, span in enumerate(spans):
        text = span.strip()
        if not text:
            located.append(("", cursor, cursor))
            continue
        start = response.find(text, cursor)
        end = start + len(text)
        if start < 0 or (end < len(response) and _is_mark(response[end])):
            folded = folded or _folded(response)
            start, end = _find_folded(folded, _folded(text)[0].strip(), cursor)
            if start < 0:
                after = " after the previous span" if cursor else ""
                raise ValueError(f"entry {index} ({text[:60]!r}) is not in the response{after}")
            text = response[start:end]
        cursor = end
        located.append((text, start, cursor))
    return located


_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
"""Soft hyphen and zero-width characters: one copy of a text may have them, another not."""
_SAME_MARK = str.maketrans("‘’‚“”„", "'''\"\"\"")


def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` with each character decomposed (NFD), curly quotes straight, every run of
    whitespace one space and invisible characters gone; and for each character of that,
    the offset in ``text`` of the character it came from."""
    chars: list[str] = []
    origin: list[int] = []
    for at, char in enumerate(text):
        if char in _INVISIBLE:
            continue
        if char.isspace():
            if chars and chars[-1] == " ":
                continue
            char = " "
        for part in unicodedata.normalize("NFD", char).translate(_SAME_MARK):
            chars.append(part)
            origin.append(at)
    return "".join(chars), origin


def _is_mark(char: str) -> bool:
    """A combining mark: an accent, or a Devanagari vowel sign that belongs to the letter
    before it."""
    return unicodedata.category(char).startswith("M")


def _find_folded(folded: tuple[str, list[int]], span: str, cursor: int) -> tuple[int, int]:
    """Offsets in the original text of ``span`` (folded) found in ``folded`` at or after the
    original offset ``cursor``, not ending inside a letter's accents; (-1, -1) if absent."""
    text, origin = folded
    at = text.find(span, bisect.bisect_left(origin, cursor)) if span else -1
    while at >= 0:
        after = at + len(span)
        if after >= len(text) or not _is_mark(text[after]):
            return origin[at], origin[after - 1] + 1
        at = text.find(span, at + 1)
    return -1, -1
