"""Months, weekdays and spans of dates as a text writes them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Literal

from ragguard.language import MARKS, MONTHS, WEEKDAYS, foreign_lexicon
from ragguard.runtime import memoized
from ragguard.scoring.checks.digit_ranks import rank_endings
from ragguard.scoring.checks.words import words_before
from ragguard.scoring.lexical.vocabulary import ENDING_WORDS, MONTH_ABBREVIATIONS, STARTING_WORDS

MONTH = re.compile(
    r"\b(?:" + "|".join(m.capitalize() for m in MONTHS) + r")\b"
    r"|\b(?:" + "|".join(a.capitalize() for a in MONTH_ABBREVIATIONS) + r")\b\.?"
)
"""A month as written, capitalized ("March", "Sept."): "may" in lower case is a verb."""
WEEKDAY = re.compile(r"\b(?:" + "|".join(WEEKDAYS) + r")s?\b", re.IGNORECASE)


def full_month(written: str) -> str:
    """A month's full lower-cased name ("Jan." -> "january")."""
    word = written.rstrip(".").lower()
    return MONTH_ABBREVIATIONS.get(word, word)


@cache
def _names_pattern(names: tuple[str, ...], title_case: bool) -> re.Pattern[str]:
    """Any of ``names`` as a whole word (marks count as letters: Devanagari), Title Case
    only when ``title_case`` (German months), an abbreviation's dot kept."""
    ordered = sorted(names, key=len, reverse=True)
    alternation = "|".join(re.escape(n.capitalize() if title_case else n) for n in ordered)
    flags = 0 if title_case else re.IGNORECASE
    return re.compile(rf"(?<![\w{MARKS}])(?:{alternation})(?![\w{MARKS}])\.?", flags)


@cache
def month_pattern(language: str) -> re.Pattern[str]:
    """The months of a language as written; English's ``MONTH`` for "en" and any language
    without a lexicon."""
    found = foreign_lexicon(language)
    if found is None or not found.months:
        return MONTH
    return _names_pattern(tuple(found.months), not found.months_lower_case)


def _english_names(
    table: Mapping[str, float], written: Iterable[str], names: Sequence[str]
) -> frozenset[str]:
    """Months or weekdays of another language as the English names the checks compare
    ("März" -> "march"), by their number in the lexicon's ``table``."""
    numbers = (table.get(w.rstrip(".").lower(), 0) for w in written)
    return frozenset(names[int(n) - 1] for n in numbers if n)


def months_in(text: str, language: str = "en") -> frozenset[str]:
    """The months a text names, by their full English names ("march")."""
    found = foreign_lexicon(language)
    if found is None or not found.months:
        return frozenset(full_month(m) for m in MONTH.findall(text))
    return _english_names(found.months, month_pattern(language).findall(text), MONTHS)


def weekdays_in(text: str, language: str = "en") -> frozenset[str]:
    """The weekdays a text names, by their English names ("tuesday")."""
    found = foreign_lexicon(language)
    if found is None or not found.weekdays:
        return frozenset(
            d.lower().removesuffix("s") for d in (WEEKDAY.findall(text) if "day" in text else ())
        )
    pattern = _names_pattern(tuple(found.weekdays), not found.months_lower_case)
    return _english_names(found.weekdays, pattern.findall(text), WEEKDAYS)


DATE_SPAN = re.compile(
    r"(?P<opening>(?:" + MONTH.pattern + r")\s*(?:\d{1,2}(?:st|nd|rd|th)?\b)?\s*,?\s*)?"
    r"(?<![\d.,])(?P<start>(?:1\d|20)\d\d)(?![\d,])(?:\s*-RRB-|\))?"
    r"(?P<closing>\s*(?:-{1,2}|–|—|\bto\b|\buntil\b|\btill\b|\bthrough\b)\s*"
    r"(?:(?!(?:1\d|20)\d\d)[^;()\d]|\d{1,2}(?!\d)){0,24}?)"
    r"(?<![\d.,])(?P<end>(?:1\d|20)\d\d)(?![\d,])"
)
"""Two dates that open and close something ("14 March 1879 – 18 April 1955", "from
September 1994 to August 1995", "1971 -- 1983"): each end's year, and the month written
with it."""
ROLE_REACH = 6
"""Words before a claim's date searched for the verb that says which end of a span it is."""


@memoized(entries=16_384)
def date_spans(sentence: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The spans of a sentence as (opening, closing) sets of year and month ("1879",
    "march"); a span that opens and closes in the same year is left out."""
    spans = []
    for m in DATE_SPAN.finditer(sentence):
        if m["start"] != m["end"]:
            opening = {full_month(w) for w in MONTH.findall(m["opening"] or "")} | {m["start"]}
            closing = {full_month(w) for w in MONTH.findall(m["closing"])} | {m["end"]}
            spans.append((frozenset(opening), frozenset(closing)))
    return tuple(spans)


def role_of_date(text: str, written: str) -> Literal["start", "end", ""]:
    """Whether the words just before a date make it a beginning ("born in", "from") or an
    end ("died in", "until"); no role past a year."""
    before = words_before(text, text.find(written), ROLE_REACH)
    for word in reversed(before):
        word = word.lower()
        if word.isdigit() and len(word) == 4:
            break
        if word in STARTING_WORDS:
            return "start"
        if word in ENDING_WORDS:
            return "end"
    return ""


DAY_REACH = 32
"""Characters before a year read for the day and month that date it."""


@cache
def _dated_patterns(language: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A day and a month closing a text, in either order, as a year's date writes them:
    "March 3rd, " and "3 March ", "the 3rd of March, ", "3 de marzo de ", "3. März "."""
    month = rf"(?P<month>{month_pattern(language).pattern})"
    flags = month_pattern(language).flags
    endings = "|".join(re.escape(e) for e in sorted(rank_endings(language), key=len, reverse=True))
    day = rf"(?P<day>\d{{1,2}})(?:{endings})?" if endings else r"(?P<day>\d{1,2})"  # "3rd", "1er"
    linked = r"(?:\w{1,3}\s+)?"  # "of", "de"
    month_first = re.compile(rf"{month}\s+{day}\s*,?\s*$", flags)
    day_first = re.compile(rf"{day}\s+{linked}{month}\s*(?:,|\w{{1,2}})?\s*$", flags)
    return month_first, day_first


def days_and_months_before(text: str, year: str, language: str = "en") -> list[tuple[int, str]]:
    """``day_and_month_before`` at each place ``text`` writes ``year`` ("premiered on October
    2, 2016, concluded on December 4, 2016": (2, "october") and (4, "december"))."""
    found, at = [], text.find(year)
    while at >= 0:
        dated = _dated_before(text[max(at - DAY_REACH, 0) : at], language)
        if dated is not None:
            found.append(dated)
        at = text.find(year, at + len(year))
    return found


def day_and_month_before(text: str, year: str, language: str = "en") -> tuple[int, str] | None:
    """The day and month written right before ``year`` in ``text`` (its first occurrence),
    in any order: (3, "march") for "March 3rd, 1971", "3 March 1971" and "the 3rd of March
    1971"; None where the year stands without them."""
    at = text.find(year)
    return None if at < 0 else _dated_before(text[max(at - DAY_REACH, 0) : at], language)


def _dated_before(before: str, language: str) -> tuple[int, str] | None:
    """The day and month that ``before`` ends with, in either order."""
    for pattern in _dated_patterns(language):
        found = pattern.search(before)
        if found is not None:
            return int(found["day"]), full_month(found["month"])
    return None
