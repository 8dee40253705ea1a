"""A claim or an evidence sentence parsed once into what the checks compare: content words,
quantities, months, weekdays and names."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragguard.language import english_numerals, kinds_off, lexicon_or_fallback
from ragguard.runtime import memoized
from ragguard.scoring.checks.antecedents import resolve
from ragguard.scoring.checks.dates import months_in, weekdays_in
from ragguard.scoring.checks.digit_ranks import ranks_as_words
from ragguard.scoring.checks.numbers import Quantity, quantities
from ragguard.scoring.checks.proper_names import name_keys, names_in, word_keys
from ragguard.scoring.checks.ranges import ranges
from ragguard.scoring.checks.words import WORD
from ragguard.scoring.lexical.text import (
    ANY_SCRIPT_TOKEN,
    evidence_sentences,
    stem_in,
    stopwords_of,
    trained_reading,
)

MIN_SHARED = 2
"""Words a sentence must share with a claim to be about the same thing at all."""
_NUMBER_SIGN_END = re.compile(r"\w\W*\sNo\.$")
"""A sentence cut after the sign for a number ("the world No." of "the world No. 5")."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """A claim or one evidence sentence, parsed once."""

    text: str
    words: tuple[str, ...]  # lower-cased
    content: frozenset[str]  # stemmed content words
    quantities: tuple[Quantity, ...]
    ranges: tuple[tuple[float, float], ...]
    months: frozenset[str]
    weekdays: frozenset[str]
    names: tuple[str, ...]  # proper-noun phrases as written
    name_keys: tuple[frozenset[str], ...]  # what each name matches (``name_keys``)
    word_set: frozenset[str]
    keys: frozenset[str]  # the keys of every word and name, for names to match
    language: str = "en"
    """The language whose words it was read with (numbers in English notation otherwise)."""


@memoized(entries=65_536)
def parse(text: str, language: str = "en") -> Sentence:
    """A sentence read with a language's words; the numbers of a language not read as the
    heads were trained are rewritten the English way first (same length:
    ``ragguard.language.numerals``)."""
    text, words = _read_words(text, language)
    found = () if "entity" in kinds_off(language) else names_in(text, language)
    keyed = tuple(name_keys(n) for n in found)
    first_names = _first_names(found, text, language)
    word_set = frozenset(words)  # each word read once, however often the sentence writes it
    return Sentence(
        text=text,
        words=words,
        content=_content(word_set, language),
        quantities=quantities(text, language),
        ranges=ranges(text, language),
        months=months_in(text, language) - first_names,
        weekdays=weekdays_in(text, language) - first_names,
        names=found,
        name_keys=keyed,
        word_set=word_set,
        keys=frozenset().union(*(word_keys(w) for w in word_set), *keyed),
        language=language,
    )


def _read_words(text: str, language: str) -> tuple[str, tuple[str, ...]]:
    """The text as ``parse`` reads it and its words, lower case."""
    if not trained_reading(language):
        text = english_numerals(text, language)
        words = tuple(w.lower() for w in ANY_SCRIPT_TOKEN.findall(ranks_as_words(text, language)))
    else:
        read = ranks_as_words(text, language)
        words = tuple(w.lower().replace("’", "'") for w in WORD.findall(read))
    if text.rstrip().endswith("No.") and _NUMBER_SIGN_END.search(text.rstrip()):
        words = words[:-1]  # no negation
    return text, words


def _content(words: frozenset[str], language: str) -> frozenset[str]:
    return frozenset(stem_in(language, w) for w in words - stopwords_of(language))


@memoized(entries=65_536)
def content_of(text: str, language: str = "en") -> frozenset[str]:
    """The content words of a text as ``parse`` reads them (its ``Sentence.content``),
    without the rest of a parse: what a name or a phrase adds to a claim's words."""
    return _content(frozenset(_read_words(text, language)[1]), language)


def _first_names(found: tuple[str, ...], text: str, language: str) -> frozenset[str]:
    """Months and weekdays the text writes only as a name's first word ("June Bishop",
    "August Lind"): no date (``proper_names`` joins them to the name)."""
    firsts = [name.split()[0] for name in found if " " in name]
    once = [w for w in firsts if text.count(w) == 1]
    return frozenset().union(*(months_in(w, language) | weekdays_in(w, language) for w in once))


_STOP_AFTER_A_WORD = re.compile(r"(?:^|[\s(])([^\s.()]+)\.$")


_DAY_STOP = re.compile(r"(?:^|\s)\d{1,2}\.$")
"""A day written as an ordinal, closing a part ("am 21."): with a month after it, no end."""

_GLUED_INITIALS = re.compile(r"(?:^|[\s(])(?:[^\W\d_]\.){2,}$")
"""Initials written without a space, closing a text ("J.D.", "T.S.")."""


def sentences_of(text: str, language: str = "en") -> list[str]:
    """The text's sentences as the evidence is split, less the stops after an initial or a
    title of the language's ``[names] titles`` ("J. R. Weber", "Dr. Anna Brandt"), and
    after initials written together where a word other than a stopword follows ("J.D.
    Salinger"; not "the U.S. In 1990"): a name is read whole. Nor does a sentence end
    after a day before its month ("am 21. Juni 1822")."""
    found = lexicon_or_fallback(language)
    parts: list[str] = []
    for part in evidence_sentences(text):
        last = _STOP_AFTER_A_WORD.search(parts[-1]) if parts else None
        word = last.group(1) if last else ""
        if (
            (len(word) == 1 and word.isalpha())
            or word.lower() in found.titles
            or (parts and _glued_initials(parts[-1], part, found.stopwords))
            or (parts and _day_before_month(parts[-1], part, language))
        ):
            parts[-1] += " " + part
        else:
            parts.append(part)
    return parts


def _day_before_month(previous: str, part: str, language: str) -> bool:
    """Whether ``previous`` ends in a day with its stop and ``part`` opens with a month."""
    first = WORD.match(part)
    return bool(_DAY_STOP.search(previous) and first and months_in(first.group(), language))


def _glued_initials(previous: str, part: str, stopwords: frozenset[str]) -> bool:
    """Whether ``previous`` ends in initials written together and ``part`` opens with a
    word other than a stopword: the rest of the name ("J.D." and "Salinger")."""
    following = WORD.match(part) if _GLUED_INITIALS.search(previous) else None
    return following is not None and following.group().lower() not in stopwords


@memoized(entries=16_384)
def parse_passage(passage: str, language: str = "en") -> tuple[Sentence, ...]:
    """A passage's sentences, parsed, each read with its antecedent ("It was completed in
    1889." as "The Eiffel Tower was completed in 1889.": ``antecedents``), so a check and its
    reason see the value the sentence gives."""
    sentences = resolve(tuple(sentences_of(passage, language)), language)
    return tuple(parse(s, language) for s in sentences)


@memoized(entries=16_384)
def passage_vocabulary(passage: str, language: str = "en") -> frozenset[str]:
    """Every stemmed content word of a passage."""
    return frozenset().union(*(s.content for s in parse_passage(passage, language)))


def name_words(sentence: Sentence) -> frozenset[str]:
    """The words of the sentence's names, lower case, a hyphen's parts apart ("kellan",
    "brücke" of "Kellan-Brücke"): as ``Sentence.words`` writes them."""
    return frozenset(w.lower() for name in sentence.names for w in re.split(r"[\s-]+", name))


def overlap(context: frozenset[str], sentence: Sentence) -> float:
    """Share of ``context`` in the sentence; 0 below ``MIN_SHARED`` words in common."""
    shared = len(context & sentence.content)
    return shared / len(context) if shared >= MIN_SHARED else 0.0
