"""Numbers as a text writes them, read into values of a kind ("1.5 million", "the 1990s",
"July 4", "2018–19"), and when a claim's number is the same as the evidence's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal, TypeAlias

from ragguard.language import (
    MARKS,
    SpelledNumber,
    foreign_lexicon,
    lexicon_or_fallback,
    phrase_pattern,
    spelled_numbers,
)
from ragguard.runtime import memoized
from ragguard.scoring.checks.dates import MONTH, month_pattern
from ragguard.scoring.checks.digit_ranks import ending_pattern, rank_endings
from ragguard.scoring.checks.periods import century_part, decade_part, periods
from ragguard.scoring.lexical.vocabulary import (
    APPROXIMATING_WORDS,
    AT_LEAST_WORDS,
    AT_MOST_WORDS,
    CURRENCY_SIGNS,
    ORDINAL_WORDS,
    SCALES,
    SUFFIXES,
    UNITS,
)

MAX_SEASON = 10
"""Years a season written with two closing digits may span ("2010–15")."""

_UNIT_WORD = re.compile(
    r"\s*(?:square\s+|cubic\s+)?(?:"
    + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if len(u) > 2)
    + rf")\b|\s*{phrase_pattern(lexicon_or_fallback('en').measures).pattern}",
    re.IGNORECASE,
)
"""A unit or an English count (``measures``) after a number in words: "thirteen hundred
square kilometres" is no year (English reads its digits as the heads were trained; this is
for words alone)."""
_ONE_BEFORE = re.compile(r"\b(?:a|an|one)\s+$", re.IGNORECASE)
"""An English article before a number in words ("more than a thousand"): the bound before
it holds."""
_DETERMINER_BEFORE = re.compile(r"\b(?:the|its|his|her|their|our|my|your)\s+$", re.IGNORECASE)
"""Before "first" or "second", what makes it a rank: "the second quarter", not "a second"."""

_Trie: TypeAlias = dict[str, "_Trie"]


def one_of(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, as a trie ("e(?:ight(?:een|y)?|leven)"): the
    engine reads each letter once instead of trying every word in turn. Longer words are
    tried first."""
    trie: _Trie = {}
    for word in words:
        node = trie
        for char in word.lower():
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: _Trie) -> str:
        branches = [re.escape(c) + pattern(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(trie)


_SUFFIX_WORDS = "|".join(sorted(SUFFIXES, key=len, reverse=True))


def _quantity_pattern(
    scales: Iterable[str], ordinals: Iterable[str], percent: str, end: str, ranks: str
) -> re.Pattern[str]:
    """The pattern of a quantity written in digits in a language: digits (thousands grouped
    by commas or by spaces: "3 300", "3\u202f300") with a rank's ending (``ranks``), a
    decimal part, a scale suffix, a percent or a scale word after them; or an ordinal word.
    Numbers in words are ``ragguard.language.numerals.spelled_numbers``'. ``end`` closes a
    word (``\\b`` in English; a lookahead that counts combining marks as letters
    elsewhere)."""
    scale = "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(scales, key=len)[::-1])
    begin = r"\b" if end == r"\b" else rf"(?<![\w{MARKS}])"
    ordinal = one_of(ordinals) if ordinals else "(?!)"
    return re.compile(
        r"(?<![\w.,\[])(?P<num>\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)|\d+)"
        rf"(?:(?P<ord>{ranks})|(?P<frac>\.\d+)?(?:(?P<suffix>" + _SUFFIX_WORDS + r")\b)?"
        r"(?!\d|[\w,]\d|\s?['’]s\b|s\b|\]))"
        rf"(?:\s*(?P<pct>{percent})|\s+(?P<scale>{scale}){end})?"
        rf"|{begin}(?P<oword>{ordinal}){end}",
        re.IGNORECASE,
    )


_QUANTITY = _quantity_pattern(
    SCALES,
    ORDINAL_WORDS,
    r"%|percent\b|per cent\b",
    r"\b",
    ending_pattern(rank_endings("en"), r"\b"),
)
_IDENTIFIER_BEFORE = re.compile(r"\b[A-Za-z]*[A-Z][A-Za-z]*-$")
"""A number hyphenated to a capitalized word is part of a name ("COVID-19", "SARS-CoV-2")."""
_RATIO_AFTER = re.compile(r"[\s-]?fold\b", re.IGNORECASE)
"""A number before "fold" is a ratio, no count ("two-fold the prior-year levels")."""
_MONTH_BEFORE = re.compile(MONTH.pattern + r"\s+$")
_MONTH_AFTER = re.compile(r"^\s+(?:of\s+)?" + MONTH.pattern)
_SEASON_START = re.compile(r"(?<!\d)(?P<year>(?:1\d|20)\d\d)\s*(?:-{1,2}|–|—|/)\s*$")
"""A year and a dash before two digits: "2018–19" is the years 2018 to 2019."""


_APPROXIMATE = re.compile(
    r"\b(?:" + "|".join(map(re.escape, APPROXIMATING_WORDS)) + r")\s*$|~\s*$", re.IGNORECASE
)
_NOT_NEGATED = r"(?<!\bno\s)(?<!\bnot\s)"
"""Not after "no" or "not": "no fewer than" bounds from below, "fewer than" from above."""
_AT_MOST = re.compile(_NOT_NEGATED + r"\b(?:" + "|".join(AT_MOST_WORDS) + r")\s+$", re.I)
_AT_LEAST = re.compile(_NOT_NEGATED + r"\b(?:" + "|".join(AT_LEAST_WORDS) + r")\s+$", re.I)
_DURATION_BEFORE = r"(?<!years )(?<!year )(?<!months )(?<!days )(?<!weeks )"
"""Not after a duration: "five years after 1947" is a date, no bound."""
_BEFORE = re.compile(_DURATION_BEFORE + r"\b(?:before|prior to|earlier than)\s+$", re.I)
_AFTER = re.compile(_DURATION_BEFORE + r"\b(?:after|later than)\s+$", re.I)
Bound = Literal["", "about", "at most", "at least", "before", "after"]
_BOUND_RULES: tuple[tuple[re.Pattern[str], Bound], ...] = (
    (_APPROXIMATE, "about"),
    (_AT_MOST, "at most"),
    (_AT_LEAST, "at least"),
    (_BEFORE, "before"),
    (_AFTER, "after"),
)
"""The words before a number that bound it, the first that matches wins."""


@dataclass(frozen=True, slots=True)
class NumberWords:
    """How one language writes quantities: the pattern that finds them and the words it
    reads (English: this module's lists; others: their lexicon, ``number_words``)."""

    language: str
    """Whose numbers in words are read (``spelled_numbers``)."""
    pattern: re.Pattern[str]
    scales: Mapping[str, float]
    ordinals: Mapping[str, float]
    bound_rules: tuple[tuple[re.Pattern[str], Bound], ...]
    bounds_after: tuple[tuple[re.Pattern[str], Bound], ...]
    month_before: re.Pattern[str]
    month_after: re.Pattern[str]
    measure_after: re.Pattern[str] | None = None
    """The language's ``measures`` right after a number: a measure, never a year."""


def _after_words(words: Iterable[str], end: str = r"\b") -> re.Pattern[str] | None:
    words = sorted(words, key=len, reverse=True)
    if not words:
        return None
    begin = r"\b" if end == r"\b" else rf"(?<![\w{MARKS}])"
    alternation = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    return re.compile(rf"{begin}(?:{alternation})\s+$", re.IGNORECASE)


@cache
def number_words(language: str) -> NumberWords:
    """The ``NumberWords`` of a language: its own words where it has a lexicon, English
    for "en" and any other code."""
    found = foreign_lexicon(language)
    if found is None:
        return _ENGLISH
    end = rf"(?![\w{MARKS}])"
    percent_words = [w for w in found.percent if w != "%"]
    percent = "%" + "".join(f"|{re.escape(w)}{end}" for w in percent_words)
    bound_words: tuple[tuple[tuple[str, ...], Bound], ...] = (
        (found.about, "about"),
        (found.at_most, "at most"),
        (found.at_least, "at least"),
        (found.before, "before"),
        (found.after, "after"),
    )
    rules = [
        (pattern, bound)
        for words, bound in bound_words
        if (pattern := _after_words(words, end)) is not None
    ]
    unit = r"(?:[^\s\d.,;:!?।]+\s+){0,2}?"  # "4,000 वर्ग किलोमीटर से ज़्यादा": the unit between
    after = tuple(
        (re.compile(rf"\s*{unit}(?:" + "|".join(map(re.escape, words)) + rf"){end}"), bound)
        for bound_name, words in found.bounds_after.items()
        for bound in [_BOUND_NAMES[bound_name]]
    )
    months = month_pattern(language)
    return NumberWords(
        language=language,
        pattern=_quantity_pattern(
            found.scales, (), percent, end, ending_pattern(rank_endings(language), end)
        ),
        scales=found.scales,
        ordinals={},
        bound_rules=tuple(rules),
        bounds_after=after,
        month_before=re.compile(rf"(?:{months.pattern})\s+$", months.flags),
        month_after=re.compile(rf"^\.?\s+(?:de\s+)?(?:{months.pattern})", months.flags),
        measure_after=re.compile(rf"\s*(?:{phrase_pattern(found.measures).pattern}){end}", re.I)
        if found.measures
        else None,
    )


_BOUND_NAMES: dict[str, Bound] = {
    "at_least": "at least",
    "at_most": "at most",
    "before": "before",
    "after": "after",
}
_ENGLISH = NumberWords(
    language="en",
    pattern=_QUANTITY,
    scales=SCALES,
    ordinals=ORDINAL_WORDS,
    bound_rules=_BOUND_RULES,
    bounds_after=(),
    month_before=_MONTH_BEFORE,
    month_after=_MONTH_AFTER,
)
_CENTURY_AFTER = re.compile(r"[\s-]+centur(?:y|ies)\b", re.IGNORECASE)
"""After a rank, a century: "the 21st century" holds 2015, "the twelfth century" 1150."""
_DECADE = re.compile(r"(?<![\w.,\[])(?P<num>(?:1\d|20)\d0)\s?['’]?s\b")
"""A decade ("the 1990s", "1990 's"): a year inside it is stated, one outside conflicts."""
_DECADE_HINTS = ("0s", "0'", "0’", "0 '", "0 ’")
"""What any decade contains: most texts have none, and these cost less than the scan."""
QuantityKind = Literal["year", "decade", "century", "percent", "number", "ordinal", "day"]
DATE_KINDS = ("year", "decade", "century", "day")
"""Quantities whose conflicts are reported as dates."""


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number as written (``text``), its value, and its kind: year, percent, ordinal
    ("3rd", "third"), day (of a month) or number."""

    text: str
    value: float
    kind: QuantityKind
    digits: int
    """Significant digits as written: "1.5 million" matches 1,520,000 (2 digits)."""
    bound: Bound = ""
    """What precedes it: "about 100" matches 98, "more than 5 billion" 5.54 billion,
    "before 2005" 2001."""
    years: float = 0.0
    """A part of a decade: the years it holds from ``value`` ("the late 1920s": 1926 and 4,
    ``periods.PART_YEARS``); 0 for anything else."""


def significant_digits(digits: str) -> int:
    stripped = digits.replace(",", "").replace(".", "").lstrip("0")
    return max(len(stripped.rstrip("0")), 1)


def bound_before(before: str, words: NumberWords | None = None) -> Bound:
    """The bound the words before a number put on it ("about", "more than", "before")."""
    rules = _BOUND_RULES if words is None else words.bound_rules
    return next((bound for pattern, bound in rules if pattern.search(before)), "")


def _bound_after(text: str, end: int, words: NumberWords) -> Bound:
    """A bound written after the number (Hindi "100 से अधिक": more than 100)."""
    return next((b for pattern, b in words.bounds_after if pattern.match(text, end)), "")


def season_end(start: int, two_digits: float) -> float | None:
    """The year that ends a season written "2018–19" (2019) or "1999/00" (2000); None when
    the two digits cannot end one ("2017-11-07" is a date, not the years 2017 to 2111)."""
    end = start - start % 100 + two_digits + (100 if two_digits < start % 100 else 0)
    return end if end - start <= MAX_SEASON else None


def _digit_kind(
    text: str, m: re.Match[str], value: float, plain: bool, words: NumberWords
) -> QuantityKind:
    """The kind of a number written in digits: a day by a month, a rank, a percent, a year
    (plain 1000 to 2099) or a number."""
    if (
        plain
        and 1 <= value <= 31
        and (
            words.month_before.search(text[max(m.start() - 12, 0) : m.start()])
            or words.month_after.match(text[m.end() : m.end() + 16])
        )
    ):
        return "day"
    if m["ord"]:
        return "century" if _CENTURY_AFTER.match(text, m.end()) else "ordinal"
    if m["pct"]:
        return "percent"
    measure = words.measure_after is not None and words.measure_after.match(text, m.end())
    return "year" if plain and 1000 <= value < 2100 and not measure else "number"


def _read(text: str, m: re.Match[str], words: NumberWords) -> Quantity | None:
    """The quantity one match of ``words.pattern`` writes, or None when it is no quantity."""
    bound = bound_before(text[max(m.start() - 20, 0) : m.start()], words)
    if not bound and words.bounds_after:
        bound = _bound_after(text, m.end(), words)
    spelled = m["oword"] or ""
    if spelled[:1].isupper() and text[: m.start()].strip():
        return None  # inside a name: "The Hundred Years' War", "Ocean's Eleven"
    if _IDENTIFIER_BEFORE.search(text[max(m.start() - 12, 0) : m.start()]) or (
        _RATIO_AFTER.match(text, m.end())
    ):
        return None
    if m["oword"]:
        value = words.ordinals[m["oword"].lower()]
        if value < 3 and not _DETERMINER_BEFORE.search(text[max(m.start() - 8, 0) : m.start()]):
            return None  # "first" and "second" have other senses ("at first", "a second")
        century = _CENTURY_AFTER.match(text, m.end())
        return Quantity(m.group(0), value, "century" if century else "ordinal", 2, bound)
    literal = re.sub(r"[ \u00a0\u202f]", ",", m["num"]) + (m["frac"] or "")
    scale = " ".join((m["scale"] or "").lower().split())
    value = float(literal.replace(",", "")) * words.scales.get(scale, 1.0)
    suffix = m["suffix"] or ""
    if len(suffix) > 1 or (suffix and text[max(m.start() - 1, 0) : m.start()] in CURRENCY_SIGNS):
        value *= SUFFIXES[suffix.lower()]
    value = float(f"{value:.12g}")  # 8.2 * 1e6 is 8199999.999999999
    plain = not (m["frac"] or m["scale"] or suffix or m["pct"] or "," in literal)
    if plain and len(m["num"]) == 2:
        season = _SEASON_START.search(text[max(m.start() - 8, 0) : m.start()])
        end = season_end(int(season["year"]), value) if season else None
        value = value if end is None else end
    kind = _digit_kind(text, m, value, plain, words)
    if bound in ("before", "after") and kind != "year":
        bound = ""  # "after 30 minutes" is a time, no bound on the number
    whole = kind in ("year", "day", "ordinal", "century")
    digits = len(m["num"]) if whole else significant_digits(literal)
    return Quantity(m.group(0).strip(), value, kind, digits, bound)


def _title_case(written: str, language: str) -> bool:
    """Whether a number in words is written as a title, each word capitalized, in a language
    whose capitals mark names only (German capitalizes "drei Komma vier" as a noun)."""
    parts = re.split(r"[\s\-]+", written)
    titled = len(parts) > 1 and parts[0][:1].isupper() and parts[-1][:1].isupper()
    return titled and not lexicon_or_fallback(language).nouns_capitalized


def _spelled(text: str, number: SpelledNumber, words: NumberWords) -> Quantity | None:
    """The quantity a number in words writes ("three hundred and thirty", "nineteen
    twenty-eight"), or None inside a name ("The Hundred Years' War", "Ocean's Eleven") or
    written as one, its later words capitalized too ("Two and a Half Men")."""
    written = text[number.start : number.end]
    if written[:1].isupper() and text[: number.start].strip():
        return None
    if _title_case(written, words.language):
        return None  # a title: "Two and a Half Men", "One Hundred Years of Solitude"
    if _IDENTIFIER_BEFORE.search(text[max(number.start - 12, 0) : number.start]) or (
        _RATIO_AFTER.match(text, number.end)
    ):
        return None
    before = _ONE_BEFORE.sub("", text[max(number.start - 20, 0) : number.start])
    bound = bound_before(before, words)  # "more than a thousand"
    if not bound and words.bounds_after:
        bound = _bound_after(text, number.end, words)
    measure = (words.measure_after or _UNIT_WORD).match(text, number.end)
    if number.year and not measure:  # "thirteen hundred square kilometres" is no year
        return Quantity(written, number.value, "year", 4, bound)
    if bound in ("before", "after"):
        bound = ""
    return Quantity(written, number.value, "number", significant_digits(f"{number.value:g}"), bound)


@memoized(entries=65_536)
def quantities(text: str, language: str = "en") -> tuple[Quantity, ...]:
    """Numbers, with "8,849" = 8849, "1.5 million" = 1.5e6, "ten" = 10, "50 percent" = 50 %,
    "3rd" = "third", four-digit integers from 1000 to 2099 read as years and a number by a
    month ("July 4", "4th of July") as a day, so that neither compares with counts, and
    the two digits that end a season ("2018–19") as the year they stand for. Another
    language's text is read with its words (``number_words``) once its numbers are written
    the English way (``ragguard.language.numerals``). Memoized: a claim is read against
    each passage."""
    words = number_words(language)
    wide: list[tuple[tuple[int, int], Quantity | None]] = [
        ((p.start, p.end), _period(text, p.text, p.start, p.first, p.years, p.kind, words))
        for p in periods(text, language)
    ]
    read = [
        (m.span(), _read(text, m, words))
        for m in words.pattern.finditer(text)
        if not any(a < m.end() and m.start() < b for (a, b), _ in wide)  # "années 1890"
    ]
    spelled = [
        ((n.start, n.end), _spelled(text, n, words))
        for n in spelled_numbers(text, language)
        if not any(a < n.end and n.start < b for (a, b), _ in read + wide)  # "3 thousand"
    ]
    ordered = sorted(read + spelled + wide, key=lambda r: r[0])
    found = [_parted(q, text, at, words) for (at, _), q in ordered if q is not None]
    for m in _DECADE.finditer(text) if any(h in text for h in _DECADE_HINTS) else ():
        offset, years = decade_part(text, m.start(), language)
        found.append(
            _period(text, m.group(0), m.start(), float(m["num"]) + offset, years, "decade", words)
        )
    return tuple(found)


def _parted(q: Quantity, text: str, start: int, words: NumberWords) -> Quantity:
    """A century with a part written before it ("the late 19th century") as the years the
    part holds, a span as a decade's; any other quantity as it is."""
    offset, years = century_part(text, start, words.language) if q.kind == "century" else (0, 100)
    if years >= 100:
        return q
    return Quantity(q.text, (q.value - 1) * 100 + offset, "decade", 4, q.bound, years)


def _period(
    text: str, written: str, start: int, first: float, years: float, kind: str, words: NumberWords
) -> Quantity:
    """A decade or century (``periods``) as a quantity: a century by its rank, a decade by
    its first year, a part of one with the years it holds."""
    bound = bound_before(text[max(start - 20, 0) : start], words)
    if kind == "century":
        return Quantity(written, first // 100 + 1, "century", 2, bound)
    part = years if years < 10 and first % 100 else 0.0
    return Quantity(written, first, "decade", 4, bound, part)
