"""Spans of values ("1977 -- 1983", "1977 to 1983", "between 10 and 20", "zwischen 200 und
250", "entre 2.000 y 2.500"): a value inside one is stated. The words that open a span and
join its two ends are each language's ``[ranges]`` table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragguard.language import section
from ragguard.scoring.checks.numbers import season_end

NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
"""A number written the English way ("2,150", "1.5")."""


@dataclass(frozen=True, slots=True)
class RangeWords:
    """A language's ``[ranges]`` table."""

    pairs: tuple[str, ...] = ()
    """Each the word that opens a span and the word between its ends ("between and")."""
    joiners: tuple[str, ...] = ()
    """Words that join two numbers into a span with no opening word ("to", "bis")."""


@cache
def _pattern(language: str) -> re.Pattern[str]:
    """Two numbers joined by a dash or one of the language's ``joiners``, or by its
    ``pairs``."""
    words = section(language, "ranges", RangeWords)
    joiners = "".join(rf"|(?<!\w){re.escape(w)}(?!\w)" for w in words.joiners)
    joined = rf"\s*(?:-{{1,2}}|–|—{joiners})\s*"
    dashed = rf"(?<![\w.,/-])(?P<c>{NUMBER}){joined}(?P<d>{NUMBER})(?![\w,/]|-\d)"
    worded = [
        rf"\b{re.escape(opens)}\s+(?P<a{i}>{NUMBER})\s+{re.escape(joins)}\s+(?P<b{i}>{NUMBER})\b"
        for i, (opens, joins) in enumerate(pair.split() for pair in words.pairs)
    ]
    return re.compile("|".join([*worded, dashed]), re.IGNORECASE)


def ranges(text: str, language: str = "en") -> tuple[tuple[float, float], ...]:
    """Spans of values in ``text`` (its numbers written the English way), low to high."""
    out = []
    for m in _pattern(language).finditer(text):
        ends = [v for v in m.groups() if v is not None]
        start, end = ends[0], ends[1]
        low, high = (float(v.replace(",", "")) for v in (start, end))
        if len(end) == 2 and len(start) == 4 and 1000 <= low < 2100:  # "2018-19"
            season = season_end(int(low), high)
            if season is None:
                continue
            high = season
        out.append((min(low, high), max(low, high)))
    return tuple(out)
