"""Decades and centuries as each language writes them ("the late 1920s", "in den 1960er
Jahren", "dans les années 1890", "au XVIIIe siècle", "en el siglo XVIII", "18वीं सदी"): a
year inside one is stated by it, a year outside conflicts with it.

The words are each language's ``[periods]`` table (``data/<code>.toml``, read into
``language.PeriodWords``); English's decades in digits ("the 1990s") are ``numbers``' own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragguard.language import MARKS, PeriodWords, section

PART_YEARS = 4
"""Years a part of a decade spans from its first: "the early 1920s" 1920-1923, "the mid
1920s" 1923-1926, "the late 1920s" 1926-1929 (parts overlap by a year, as writers do)."""
_YEAR = r"(?P<year>(?:1\d|20)\d0)"
_RANK = r"(?P<rank>\d{1,2}|[IVXLC]{1,6})"
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


@dataclass(frozen=True, slots=True)
class Period:
    """A decade or century as written: its first year, the years it spans, its position."""

    text: str
    start: int
    end: int
    first: float
    years: float
    kind: str
    """"decade" or "century"."""


def _alternation(words: tuple[str, ...]) -> str:
    """Any of ``words``, in any case (a Roman rank beside them is upper case only)."""
    ordered = sorted(words, key=len, reverse=True)
    return "(?i:" + "|".join(r"\s+".join(map(re.escape, w.split())) for w in ordered) + ")"


@cache
def _patterns(language: str) -> tuple[re.Pattern[str], ...]:
    """The language's decade and century patterns (none without a ``[periods]`` table)."""
    words = section(language, "periods", PeriodWords)
    edge, end = rf"(?<![\w{MARKS}])", rf"(?![\w{MARKS}])"
    found = []
    if words.decade_before:
        found.append(rf"{edge}(?:{_alternation(words.decade_before)})\s+{_YEAR}{end}")
    glued = tuple(w for w in words.decade_after if w.isalpha() and w.isascii())
    spaced = tuple(w for w in words.decade_after if w not in glued)
    if glued:
        found.append(rf"{edge}{_YEAR}(?:{_alternation(glued)}){end}")
    if spaced:
        found.append(rf"{edge}{_YEAR}\s+(?:{_alternation(spaced)}){end}")
    endings = _alternation(words.rank_endings)
    ranked = rf"{_RANK}(?:{endings})?" if endings else _RANK
    if words.century_before:
        found.append(rf"{edge}(?:{_alternation(words.century_before)})\s+{_RANK}{end}")
    if words.century_after:
        found.append(rf"{edge}{ranked}\s*(?:{_alternation(words.century_after)}){end}")
    return tuple(re.compile(p) for p in found)


def _rank(written: str) -> int:
    """A century's rank in digits or Roman numerals ("18", "XVIII")."""
    if written.isdigit():
        return int(written)
    values = [_ROMAN[c] for c in written.upper()]
    return sum(-v if v < n else v for v, n in zip(values, [*values[1:], 0], strict=True))


PART_REACH = 24
"""Characters before a decade its part may take ("principios de la ")."""


@cache
def _part_pattern(parts: tuple[str, ...]) -> re.Pattern[str] | None:
    if not parts:
        return None
    return re.compile(rf"(?<![\w{MARKS}])(?P<part>{_alternation(parts)})[\s-]+$")


def _part_before(text: str, start: int, parts: tuple[str, ...]) -> str | None:
    """The one of ``parts`` written right before ``start`` ("the late " of "the late
    1920s"), in lower case with single spaces; None where none is."""
    pattern = _part_pattern(parts)
    found = pattern.search(text[max(start - PART_REACH, 0) : start]) if pattern else None
    return " ".join(found["part"].lower().split()) if found else None


def decade_part(text: str, start: int, language: str) -> tuple[float, float]:
    """The offset and span in years of the part of a decade written before ``start``
    ("the late 1920s": 6, ``PART_YEARS``; "the second half of the 1920s": 5, 5); (0, 10)
    for the whole decade. A half is the language's ``century_halves`` word, a tenth as long."""
    words = section(language, "periods", PeriodWords)
    parts, halves = words.decade_parts, words.century_halves
    part = _part_before(text, start, (*parts, *halves))
    if part is None:
        return 0.0, 10.0
    if part in halves:
        return halves[part] / 10, 5.0
    return parts[part], float(PART_YEARS)


CENTURY_PART_YEARS = 40
"""Years a part of a century spans from its first: "the early 19th century" 1800-1839,
"mid" 1830-1869, "late" 1860-1899 (parts overlap, as writers' do); a half spans 50."""


def century_part(text: str, start: int, language: str) -> tuple[float, float]:
    """The offset and span in years of the part of a century written before ``start``
    ("the late 19th century": 60, ``CENTURY_PART_YEARS``; "la segunda mitad del siglo XIX":
    50, 50); (0, 100) for the whole century."""
    words = section(language, "periods", PeriodWords)
    part = _part_before(text, start, (*words.century_parts, *words.century_halves))
    if part is None:
        return 0.0, 100.0
    if part in words.century_halves:
        return words.century_halves[part], 50.0
    return words.century_parts[part], float(CENTURY_PART_YEARS)


def periods(text: str, language: str) -> tuple[Period, ...]:
    """The decades and centuries the language's ``[periods]`` words write in ``text``."""
    found = []
    for pattern in _patterns(language):
        for m in pattern.finditer(text):
            if m.groupdict().get("year"):
                offset, years = decade_part(text, m.start(), language)
                first = float(m["year"]) + offset
                found.append(Period(m.group(0), m.start(), m.end(), first, years, "decade"))
            elif 1 <= (rank := _rank(m["rank"])) <= 21:
                first = (rank - 1) * 100.0
                found.append(Period(m.group(0), m.start(), m.end(), first, 100.0, "century"))
    return tuple(found)
