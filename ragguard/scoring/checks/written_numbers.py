"""A claim's numbers as the passage writes them: the embedding reads "eighteen sixty-six"
and "1866", or "circa 120" and "118", far apart, so the support head and the checks read
the claim with each number the passage states written the passage's way."""

from __future__ import annotations

import re
from functools import cache

from ragguard.language import (
    MARKS,
    PeriodWords,
    decade_words_pattern,
    english_numerals,
    lexicon,
    phrase_pattern,
    section,
    spelled_numbers,
)
from ragguard.runtime import memoized
from ragguard.scoring.checks.numbers import Quantity, quantities
from ragguard.scoring.checks.quantity_match import comparable, same_quantity


@memoized(entries=16_384)
def in_passage_digits(claim: str, passage: str, language: str = "en") -> str:
    """The claim with each number the passage states written as the passage writes it: a
    number spelled out in several words ("eighteen sixty-six", "mille neuf cent
    vingt-sept") as the passage's digits ("1866"), and a bounded one that the passage's
    value of its kind meets ("circa 120" against 118, "more than 4,000" against 4,620; no
    year meets "some 2,200") as that value.
    A decade in words ("the twenties", "les années vingt") is written in digits in the
    century of the passage's first year ("the 1920s" against 1922 or 1935), and a century's
    rank in words in digits ("el siglo veinte": "el siglo 20", "the nineteenth century":
    "the 19th century").
    A decade or century in digits, with the part of it written before it, that holds the
    passage's one year is written as that year ("the early 20th century" against 1927:
    "1927"; ``_periods_as_year``).
    The embedding reads such pairs far apart, so the support head and the checks read the
    claim as the passage writes it."""
    claim = _decades_in_digits(claim, passage, language)
    claim = _ranked_centuries_in_digits(_centuries_in_digits(claim, language), language)
    claim = _periods_as_year(claim, passage, language)
    english = english_numerals(claim, language)
    rewritten = [
        q
        for q in quantities(english, language)
        if q.bound in ("about", "at least", "at most")
        or (not q.text[:1].isdigit() and (_several(q.text) or _compound(q, language)))
    ]
    if not rewritten:
        return claim
    in_digits = [e for e in _passage_quantities(passage, language) if e.text[:1].isdigit()]
    for q in rewritten:
        exact = next((e for e in in_digits if e.value == q.value), None)
        meeting = [e for e in in_digits if comparable(q, e) and _near(q, e) and same_quantity(q, e)]
        met = exact or (meeting[0] if len(meeting) == 1 else None)
        at = english.find(q.text)
        if met is None or at < 0 or met.text == q.text:
            continue
        written = _written(passage, language, met.text)
        claim = claim[:at] + written + claim[at + len(q.text) :]
        english = english[:at] + written + english[at + len(q.text) :]
    return claim


@memoized(entries=4_096)
def _passage_quantities(passage: str, language: str) -> tuple[Quantity, ...]:
    """The passage's quantities, read once for its decades and its numbers."""
    return quantities(english_numerals(passage, language), language)


def _written(passage: str, language: str, english: str) -> str:
    """A number of the passage as the passage writes it (``english`` is its English form)."""
    at = english_numerals(passage, language).find(english)
    return passage[at : at + len(english)] if at >= 0 else english


def _near(claim: Quantity, evidence: Quantity) -> bool:
    """Within a factor of two: "less than 100,000" copies is met by no "Billboard 200"."""
    return claim.value > 0 and 0.5 <= evidence.value / claim.value <= 2.0


def _several(text: str) -> bool:
    """Two words or more ("nineteen sixty-one", "vingt-sept"): one word ("two") reads well."""
    return len(re.split(r"[\s\-]+", text.strip())) > 1


GLUED_FROM = 20
"""The least number a language that glues its number words writes as a compound of several
("einundzwanzig", "neunzehnhunderteinundsiebzig"): read as far from its digits as several
words are."""


def _compound(q: Quantity, language: str) -> bool:
    """Whether ``q`` is a number in words glued into one ("neunzehnhunderteinundsiebzig")."""
    found = lexicon(language)
    return found is not None and found.numbers.glued and q.value >= GLUED_FROM


@cache
def _decades_in_digits(claim: str, passage: str, language: str) -> str:
    """The claim with each decade in words in digits, in the century of the passage's first
    year; as written where the passage states no year."""
    pattern = decade_words_pattern(language)
    if pattern is None or pattern.search(claim) is None:
        return claim
    first = next(
        (q.value for q in _passage_quantities(passage, language) if q.kind == "year"), None
    )
    if first is None:
        return claim
    words = section(language, "periods", PeriodWords)

    def digits(m: re.Match[str]) -> str:
        year = int(first) // 100 * 100 + int(words.decade_words[m["word"].lower()])
        glued = f" {m['glued']}" if m["glued"] else ""
        return m["lead"] + words.decade_written.format(year=year) + glued

    return pattern.sub(digits, claim)


def _centuries_in_digits(claim: str, language: str) -> str:
    """The claim with a century's rank in words after ``century_before`` in digits."""
    before = section(language, "periods", PeriodWords).century_before
    if not before:
        return claim
    for n in reversed(spelled_numbers(claim, language)):
        lead = claim[: n.start].rstrip().lower()
        if 1 <= n.value <= 21 and n.value.is_integer() and lead.endswith(before):
            claim = claim[: n.start] + str(int(n.value)) + claim[n.end :]
    return claim


@cache
def _ranked_century(language: str) -> re.Pattern[str] | None:
    """One word or two before one of the language's ``century_after`` ("nineteenth
    century", "twenty first century")."""
    words = section(language, "periods", PeriodWords)
    nouns = words.century_nouns or words.century_after
    if not words.ordinal_endings or not nouns or not words.century_written:
        return None
    edge, after = rf"(?<![\w{MARKS}])", phrase_pattern(nouns).pattern
    word = rf"[^\W\d_][\w{MARKS}-]*"
    two = rf"(?:(?P<first>{word})(?P<gap>\s+))?(?P<last>{word})"
    return re.compile(rf"{edge}{two}(?=\s+{after})", re.I)


def _ranked_centuries_in_digits(claim: str, language: str) -> str:
    """The claim with a century's rank in words written in digits ("im neunzehnten
    Jahrhundert": "im 19. Jahrhundert"): the rank word less its ``ordinal_endings`` is a
    number in words from 1 to 21."""
    pattern = _ranked_century(language)
    if pattern is None:
        return claim
    words = section(language, "periods", PeriodWords)

    def digits(m: re.Match[str]) -> str:
        first, last, endings = m["first"] or "", m["last"], words.ordinal_endings
        rank = _rank_in_words(f"{first} {last}".lower(), endings, language) if first else None
        if rank is not None:
            return words.century_written.format(rank=rank)
        if first and spelled_numbers(first, language):  # "twenty second": no 2nd century
            return m.group(0)
        rank = _rank_in_words(last.lower(), endings, language)
        kept = first + (m["gap"] or "")
        return m.group(0) if rank is None else kept + words.century_written.format(rank=rank)

    return pattern.sub(digits, claim)


def _rank_in_words(word: str, endings: tuple[str, ...], language: str) -> int | None:
    """The number a rank in words says ("nineteenth": 19), from 1 to 21; None otherwise."""
    pairs = sorted((e.partition(" ")[::2] for e in endings), key=lambda p: -len(p[0]))
    for ending, replaced in pairs:
        if word.endswith(ending):
            cardinal = word[: len(word) - len(ending)] + replaced
            read = spelled_numbers(cardinal, language)
            whole = len(read) == 1 and read[0].start == 0 and read[0].end == len(cardinal)
            value = read[0].value if whole else 0.0
            return int(value) if value.is_integer() and 1 <= value <= 21 else None
    return None


@cache
def _period_in_digits(language: str) -> re.Pattern[str] | None:
    """A decade or century written in digits ("1920s", "20th century"), with its article
    and the part of it written before it ("the early", "the first half of the"), by the
    language's ``[periods]`` words and ``[clauses] articles``; None where it has no
    ``decade_written`` with a suffix or no ``century_nouns``."""
    words = section(language, "periods", PeriodWords)
    suffix = words.decade_written.replace("{year}", "")
    nouns = words.century_nouns
    if not suffix or not nouns or not words.rank_endings:
        return None
    parts = phrase_pattern([*words.decade_parts, *words.century_parts, *words.century_halves])
    endings = "|".join(map(re.escape, words.rank_endings))
    found = lexicon(language)
    articles = phrase_pattern(found.clauses.get("articles", ()) if found else ()).pattern
    the = rf"(?:(?:{articles})\s+)?"
    edge = rf"(?<![\w{MARKS}])"
    century = rf"\d{{1,2}}(?:{endings})\s+{phrase_pattern(nouns).pattern}"
    decade = rf"\d{{3}}0{re.escape(suffix)}"
    return re.compile(
        rf"{edge}{the}(?:(?:{parts.pattern})[\s-]+{the})?(?P<period>{century}|{decade})"
        rf"(?![\w{MARKS}])",
        re.IGNORECASE,
    )


_PERIODS = frozenset({"decade", "century"})


def _periods_as_year(claim: str, passage: str, language: str) -> str:
    """The claim with each decade or century (``_period_in_digits``) that holds the
    passage's one year written as that year, as the passage writes it; none where the
    passage also gives a decade or a century, which the claim's period may be about."""
    pattern = _period_in_digits(language)
    if pattern is None or pattern.search(claim) is None:
        return claim
    read = _passage_quantities(passage, language)
    years = [q for q in read if q.kind == "year"]
    if len({q.value for q in years}) != 1 or any(q.kind in _PERIODS for q in read):
        return claim  # "films in the 1980s ... a 1985 article": the period may be the decade's

    def year(m: re.Match[str]) -> str:
        read = quantities(m.group(0), language)
        held = read and all(same_quantity(q, years[0]) for q in read if q.kind != "ordinal")
        return _written(passage, language, years[0].text) if held else m.group(0)

    return pattern.sub(year, claim)
