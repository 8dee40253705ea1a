"""Ranks written in digits ("the 2nd-largest", "der 2. größte", "la 6e gare", "la 6.ª
estación", "6ठा स्टेशन"): the number checks read one as a rank, not a count, and the
superlative check reads it as the language's rank word, so that "the 2nd-largest" states
what "the second-largest" states.

The endings are the language's ``[periods] rank_endings``; the words its ``[superlatives]
ordinals``. An ending of marks alone (German ".") makes a rank only before a word in lower
case: "der 2. größte See", not "am 2. Mai" or a sentence that ends in a number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from ragguard.language import MARKS, PeriodWords, lexicon, section
from ragguard.scoring.checks.rankings import is_cue

LOWER_CASE_AFTER = r"(?=[-\s]+(?-i:[a-zß-ÿ]))"
"""What follows a rank whose ending is marks alone: a space or hyphen, then a word in
lower case (a German noun is capitalized, its ordinal adjective before a superlative not)."""


def rank_endings(language: str) -> tuple[str, ...]:
    """The endings of a rank written in digits in a language (``[periods] rank_endings``)."""
    return section(language, "periods", PeriodWords).rank_endings


def ending_pattern(endings: tuple[str, ...], end: str) -> str:
    """A regular expression for one of ``endings`` right after a rank's digits: an ending
    with a letter closes the word (``end``), one of marks alone is followed by
    ``LOWER_CASE_AFTER``."""
    lettered = sorted((e for e in endings if any(map(str.isalpha, e))), key=len, reverse=True)
    marks = sorted((e for e in endings if e not in lettered), key=len, reverse=True)
    branches = []
    if lettered:
        branches.append("(?:" + "|".join(map(re.escape, lettered)) + f"){end}")
    if marks:
        branches.append("(?:" + "|".join(map(re.escape, marks)) + f"){LOWER_CASE_AFTER}")
    return "(?:" + "|".join(branches) + ")" if branches else "(?!)"


@dataclass(frozen=True, slots=True)
class _RankReading:
    pattern: re.Pattern[str]
    words: Mapping[int, str]
    """Each rank the language has a word for, by value: its first word in ``ordinals``."""
    glued: bool
    """Whether the rank word joins the word after it ("zweit" + "größte")."""
    apart: re.Pattern[str] | None
    """Where ``glued``: a rank word written apart, inflected, before a word in lower case
    ("der vierte größte See"), to be joined as the compound is ("viertgrößte")."""


@cache
def _reading(language: str) -> _RankReading | None:
    found = lexicon(language)
    endings = rank_endings(language)
    if found is None or not endings or not found.superlatives.ordinals:
        return None
    words: dict[int, str] = {}
    for word, value in found.superlatives.ordinals.items():
        words.setdefault(int(value), word)
    edge = rf"(?<![\w.,{MARKS}])"
    ending = ending_pattern(endings, rf"(?![\w{MARKS}])")
    pattern = re.compile(rf"{edge}(?P<rank>\d{{1,2}}){ending}(?P<gap>[-\s]*)", re.IGNORECASE)
    stems = "|".join(sorted(map(re.escape, found.superlatives.ordinals), key=len, reverse=True))
    apart = re.compile(rf"\b(?P<stem>{stems})(?:e|en|er|es)\s+(?=(?-i:[a-zß-ÿ]))", re.I)
    glued = found.superlatives.compounds
    return _RankReading(pattern, words, glued, apart if glued else None)


READ_ANYWHERE = 10
"""Ranks up to this one are read as words wherever they stand, as the shipped heads were
trained; a higher one only before a superlative cue ("the 14th largest"), so that a century
("the 20th century") or a count reads as it did in training."""


def _before_a_cue(text: str, at: int, language: str) -> bool:
    """Whether one of the two words from ``at`` in ``text`` ranks ("largest", "plus", "más"
    of "el 14.º lago más grande", "सबसे")."""
    found = lexicon(language)
    if found is None:
        return False
    following = text[at:].split(maxsplit=2)[:2]
    return any(is_cue(w.strip(".,;:!?").lower(), found.superlatives) for w in following)


def ranks_as_words(text: str, language: str) -> str:
    """``text`` with each rank in digits that the language has a word for written as that
    word ("the 2nd-largest": "the second-largest"; "der 2. größte": "der zweitgrößte"), and
    a rank word written apart joined where the language joins it ("der vierte größte": "der
    viertgrößte"), for reading its words; anything else as it is."""
    reading = _reading(language)
    if reading is None:
        return text
    if reading.apart is not None:
        text = reading.apart.sub(lambda m: m["stem"], text)  # "der vierte größte"
    if not any(map(str.isdigit, text)):
        return text

    def word(match: re.Match[str]) -> str:
        rank = int(match["rank"])
        found = reading.words.get(rank)
        if found is None or (
            rank > READ_ANYWHERE and not _before_a_cue(text, match.end(), language)
        ):
            return match.group(0)
        return found if reading.glued else found + match["gap"]

    return reading.pattern.sub(word, text)
