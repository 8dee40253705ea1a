"""The English scoring vocabulary, by name: every word list the head features, the typed
checks and the edit generator read, from ``ragguard/language/data/en.toml`` (English's data
file, as each language has one), so that they cannot drift apart.

Where a head feature reads fewer words than the checks, the smaller list is a named subset
(``HEAD_NEGATION_WORDS`` of ``NEGATION_CUES``): the shipped heads were trained on it, and
widening it would change their inputs without a retrain. Lists are lower case (``NOT_NAMES``
as written); the modules that use them compile their own patterns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragguard.language import (
    FALLBACK,
    english_number_words,
    language_data,
    lexicon_or_fallback,
    opposites_by_word,
)

_ENGLISH = lexicon_or_fallback(FALLBACK)
_DATA = language_data(FALLBACK)
_NEGATION: Mapping[str, Any] = _DATA["negation"]
_NUMBERS: Mapping[str, Any] = _DATA["numbers"]
_NAMES: Mapping[str, Any] = _DATA["names"]
_DATES: Mapping[str, Any] = _DATA["dates"]


def _split(value: str | list[str]) -> tuple[str, ...]:
    return tuple(value.split() if isinstance(value, str) else value)


def _pairs(key: str) -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for a, b in (p.split() for p in _DATA["antonyms"][key]))


STOPWORDS = _ENGLISH.stopwords
"""Function words: no content of their own, left out of overlaps and coverage."""

# --- negation ---------------------------------------------------------------------------

HEAD_NEGATION_WORDS: tuple[str, ...] = _split(_NEGATION["head"])
"""The negation words of the support head's ``negation_mismatch`` feature (with "n't" and
``HEAD_NEGATING_VERBS`` + "to"): the heads were trained on exactly these."""
HEAD_NEGATING_VERBS: tuple[str, ...] = _split(_NEGATION["head_verbs"])
"""Verbs that negate the verb after "to" ("failed to win"), for the head feature."""
NEGATING_VERBS: tuple[str, ...] = (*HEAD_NEGATING_VERBS, *_split(_NEGATION["verbs"]))
"""Words that negate what they govern ("failed to get", "lack cell walls"); the checks read
them with or without "to"."""
NEGATION_CUES = _ENGLISH.negations
"""What the negation check reads as negating: the head's words, "nowhere" and the negating
verbs."""
EDIT_NEGATION_WORDS: tuple[str, ...] = _split(_NEGATION["edit"])
"""The negations the edit generator removes from a claim (with "n't")."""
NOT_NEGATING = frozenset((p[0], p[1]) for p in _ENGLISH.not_negating if len(p) == 2)
"""A cue and the word after it that negate nothing ("not only", "no doubt"), as the heads
were trained: the longer phrases ("no more than") are the checks' alone."""
NEGATING_PREFIXES: tuple[str, ...] = _ENGLISH.negating_prefixes
NOT_PREFIXED = _ENGLISH.not_prefixed
"""Words that only look as if a negating prefix were added to another word."""

EDIT_ANTONYM_PAIRS: tuple[tuple[str, str], ...] = _pairs("edit")
"""Cheap antonym pairs: "closed" where the evidence says "open" flips polarity. The edit
generator swaps these."""
CHECK_ONLY_ANTONYM_PAIRS: tuple[tuple[str, str], ...] = _pairs("check_only")
"""Pairs the check knows but the edit generator does not swap (the history page says why)."""
EDIT_ANTONYMS = opposites_by_word(EDIT_ANTONYM_PAIRS)
"""The antonyms the edit generator swaps."""
ANTONYMS = dict(_ENGLISH.antonyms)
"""The antonyms the check knows."""

# --- numbers ----------------------------------------------------------------------------

SCALES = {**english_number_words().scales, **_NUMBERS["abbreviations"]}
"""Scale words after a number ("5 billion", "8 bn"): ``[numbers]``'s and abbreviations.
English's number words are ``ragguard.language.numerals`` (``WORD_NUMBERS``)."""
SUFFIXES = {k: float(v) for k, v in _NUMBERS["suffixes"].items()} | {
    abbreviation: SCALES[abbreviation] for abbreviation in _NUMBERS["abbreviations"]
}
"""Scales written onto the number ("$8.2m", "5bn"); a one-letter one only after a currency
sign, where it cannot be a unit ("5m" may be metres)."""
CURRENCY_SIGNS: str = _NUMBERS["currency_signs"]
ORDINAL_WORDS = {word: float(value) for word, value in _NUMBERS["ordinals"].items()}
"""Ordinals; "first" and "second" count only after "the" or a possessive."""
APPROXIMATING_WORDS: tuple[str, ...] = _ENGLISH.about
AT_MOST_WORDS: tuple[str, ...] = _ENGLISH.at_most
AT_LEAST_WORDS: tuple[str, ...] = _ENGLISH.at_least

# --- the calendar -----------------------------------------------------------------------

MONTH_ABBREVIATIONS: dict[str, str] = dict(_DATES["month_abbreviations"])
STARTING_WORDS = _ENGLISH.date_starts
"""Words before a date that make it the start of a span ("born in 1879")."""
ENDING_WORDS = _ENGLISH.date_ends
"""Words before a date that make it the end of a span ("died in 1955")."""

# --- names ------------------------------------------------------------------------------

NOT_NAMES = frozenset(_NAMES["not_names"])
"""Capitalized words that name nothing (as written)."""
NAME_JOINERS = frozenset(_NAMES["joiners"])
"""Lower-case words inside a name: "University of Chicago", "Guido van Rossum"."""
SENTENCE_OPENERS = frozenset(_split(_NAMES["sentence_openers"]))
"""Capitalized at the start of a sentence only: "Yesterday John Smith" names John Smith."""
IRREGULAR_DEMONYMS: dict[str, str] = dict(_NAMES["demonyms"])
"""Demonyms that share no root with their country, keyed to it (or to its acronym)."""
DEMONYM_ENDINGS: tuple[str, ...] = _split(_NAMES["demonym_endings"])
"""Endings cut from a name's word to meet its root ("Kenyan" and "Kenya" -> "keny")."""

# --- units of measure -------------------------------------------------------------------

UNITS = {
    written: (dimension, group.split()[0])
    for dimension, groups in _DATA["units"].items()
    for group in groups
    for written in group.split()
}
"""Units of measure that a number may be stated in: the same number in another unit of the
same dimension is a different quantity ("300 metres" is not "300 feet")."""
