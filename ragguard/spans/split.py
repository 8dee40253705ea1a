"""Sentence spans of a response, with exact character offsets into it.

Rules (RAG-Check partitions a response into sentence-level spans before scoring them):

* A newline is a hard boundary; a list item ("- ", "* ", "• ", "1. ", "2) ", "(3) ") starts a new
  span and its bullet is left out of the span. A heading line ending in ":" is thus its own span.
* Inside a line a sentence ends at ".", "?", "!", an ellipsis or Hindi's danda ("।", "॥"),
  together with any closing quotes or parentheses and any bracketed markers right after it
  (``big. [1] It`` keeps ``[1]`` with ``big.``), provided whitespace or the end of the line
  follows.
* It does not end there when the next word starts in lower case, after a title (every
  language's ``[names] titles``: Dr., Mr., Mme., Dra.) or another abbreviation that precedes
  a word (e.g., vs., approx., Fig.) or a single capital initial (J. K. Rowling),
  nor after a sentence-capable abbreviation (etc., Inc., Jan., U.S., a.m., No.) that is followed
  by a number. Decimals and versions (3.14, v2.0) never match, since no space follows the dot.
* Nor after a rank in digits that a century word follows ("im 18. Jahrhundert": each
  language's ``[periods] century_after``), or a day in digits that a month follows ("am 21.
  Juni": every language's months).
* Offsets exclude surrounding whitespace; whitespace-only spans are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from ragguard.language import MONTHS, SUPPORTED, PeriodWords, lexicon_or_fallback, section
from ragguard.schema import span_offsets


class RawSpan(NamedTuple):
    """A span before marker stripping; ``response[start:end] == text`` when it was found."""

    text: str
    start: int
    end: int


_LIST_PREFIX = re.compile(r"[ \t]*(?:[-*•‣◦]|\d{1,3}[.)]|\(\d{1,3}\))[ \t]+")
_SENTENCE_END = re.compile(
    r"""(?P<stop>\.{2,}|…|[.?!]+|[।॥]+)["'”’»)]*(?:[ \t]*\[[^\[\]\n]{1,40}\])*(?=\s|$)"""
)
_LAST_TOKEN = re.compile(r"[\w.]+$")
_DOTTED_ACRONYM = re.compile(r"(?:[a-z]\.)+[a-z]")
_INITIAL = re.compile(r"[A-Z]")

PRECEDING_ABBREVIATIONS: frozenset[str] = frozenset(
    {"vs", "v", "e.g", "i.e", "cf", "approx", "fig", "figs", "eq"}
)
"""Abbreviations other than titles that precede a word ("e.g.", "vs."), so never end a
sentence."""

FINAL_ABBREVIATIONS: frozenset[str] = frozenset(
    {
        *("etc", "inc", "ltd", "co", "corp", "jr", "sr", "no", "al", "c", "ca"),
        *("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"),
    }
)
"""Abbreviations that may end a sentence; they do unless a number follows ("Jan. 5")."""


@cache
def never_final() -> frozenset[str]:
    """Abbreviations that never end a sentence: every language's titles (``[names] titles``:
    "Dr.", "Mme.", "Dra.") and ``PRECEDING_ABBREVIATIONS``, less those that may end one
    ("Sr." of "John Smith Sr.")."""
    titles = {t for code in SUPPORTED for t in lexicon_or_fallback(code).titles}
    return frozenset(titles | PRECEDING_ABBREVIATIONS) - FINAL_ABBREVIATIONS


@cache
def _century_words() -> tuple[str, ...]:
    """Every language's words for a century after its rank ("jahrhundert", "siècle")."""
    found = (section(code, "periods", PeriodWords).century_after for code in SUPPORTED)
    return tuple(sorted({w for words in found for w in words}))


@cache
def _month_words() -> frozenset[str]:
    """Every language's month names, in lower case ("juni", "march")."""
    found = [m for code in SUPPORTED for m in lexicon_or_fallback(code).months]
    return frozenset(m.lower() for m in (*MONTHS, *found))


def _rank_before(token: str, rest: str) -> bool:
    """Whether ``token`` and its dot are a rank a century word follows ("18. Jahrhundert")
    or a day its month follows ("21. Juni")."""
    if not (token.isdigit() and len(token) <= 2):
        return False
    word = rest.split(maxsplit=1)[0].lower().rstrip(".,;") if rest else ""
    return word in _century_words() or word in _month_words()


def split_sentences(response: str) -> list[RawSpan]:
    """Split a response into sentence spans by the rules in the module docstring."""
    spans: list[RawSpan] = []
    for line in re.finditer(r"[^\n]+", response):
        text, base = line.group(), line.start()
        prefix = _LIST_PREFIX.match(text)
        start = prefix.end() if prefix else 0
        for end in _sentence_ends(text, start):
            _append_stripped(spans, response, base + start, base + end)
            start = end
        _append_stripped(spans, response, base + start, base + len(text))
    return spans


def locate_spans(response: str, spans: Sequence[str]) -> list[RawSpan]:
    """Find given spans in the response in order (``schema.span_offsets``: ValueError for a
    span that is not there); one span per entry, whitespace-only ones empty."""
    return [RawSpan(*found) for found in span_offsets(response, spans)]


def _sentence_ends(line: str, start: int) -> list[int]:
    """Offsets in ``line`` just after each sentence end found from ``start``."""
    return [m.end() for m in _SENTENCE_END.finditer(line, start) if _ends_sentence(line, m)]


def _ends_sentence(line: str, match: re.Match[str]) -> bool:
    """Whether a candidate terminator really ends a sentence (abbreviations, initials)."""
    rest = line[match.end() :].lstrip()
    if not rest:
        return True
    if rest[0].islower():
        return False
    if match.group("stop") != ".":
        return True
    token_match = _LAST_TOKEN.search(line, 0, match.start())
    token = token_match.group().lstrip(".") if token_match else ""
    if token.lower() in never_final() or _INITIAL.fullmatch(token):
        return False
    if _rank_before(token, rest):
        return False
    if token.lower() in FINAL_ABBREVIATIONS or _DOTTED_ACRONYM.fullmatch(token.lower()):
        return not rest[0].isdigit()
    return True


def _append_stripped(spans: list[RawSpan], response: str, start: int, end: int) -> None:
    """Append ``response[start:end]`` without its surrounding whitespace, unless it is blank."""
    piece = response[start:end]
    text = piece.strip()
    if text:
        start += len(piece) - len(piece.lstrip())
        spans.append(RawSpan(text, start, start + len(text)))
