"""Languages: detection of a text's language and each language's word lists.

A leaf of the package (standard library and ``ragguard.runtime.caches`` only), so the scorers, the
checks and span analysis can all ask it. ``detect`` names a text's language, ``lexicon``
gives a supported language's word lists (``data/<code>.toml``, English's too;
``lexicon_or_fallback`` English's for a language without one, ``read_as`` the language an
undetermined text is read in), ``checks_off`` the typed checks a language
switches off and why (``kinds_off`` their names), ``normalized`` the one normal form the
checks and features read (``skeleton`` the checks' fold of it, ``unreadable`` why a text
cannot be read as shown). docs/languages.md describes them.
"""

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.language.detect import UNDETERMINED, detect
from ragguard.language.normalize import UNREADABLE, normalized, skeleton, unreadable
from ragguard.language.scripts import DIGITS, MARKS, WORD, phrase_pattern
from ragguard.language.shapes import NameFrameWords, PeriodWords, SuperlativeCues
from ragguard.language.wordlists import (
    FALLBACK,
    NAMES,
    SUPPORTED,
    Lexicon,
    checks_off,
    foreign_lexicon,
    kinds_off,
    language_data,
    lexicon,
    lexicon_or_fallback,
    opposites_by_word,
    read_as,
    section,
)

if _typing.TYPE_CHECKING:
    from ragguard.language.negation import (
        answers_the_question,
        corrective_words,
        infinitive_markers,
        negation_companions,
        negation_governs_before,
        negation_positions,
        one_verb,
        participle_prefixes,
    )
    from ragguard.language.numerals import (
        WORD_NUMBERS,
        SpelledNumber,
        decade_words_pattern,
        english_number_words,
        english_numerals,
        spelled_numbers,
    )
    from ragguard.language.sentences import CALENDAR_WORDS, MONTHS, WEEKDAYS, starts_sentence

__all__ = [
    "CALENDAR_WORDS",
    "DIGITS",
    "FALLBACK",
    "MARKS",
    "MONTHS",
    "NAMES",
    "SUPPORTED",
    "UNDETERMINED",
    "UNREADABLE",
    "WEEKDAYS",
    "WORD",
    "WORD_NUMBERS",
    "Lexicon",
    "NameFrameWords",
    "PeriodWords",
    "SpelledNumber",
    "SuperlativeCues",
    "answers_the_question",
    "checks_off",
    "corrective_words",
    "decade_words_pattern",
    "detect",
    "english_number_words",
    "english_numerals",
    "foreign_lexicon",
    "infinitive_markers",
    "kinds_off",
    "language_data",
    "lexicon",
    "lexicon_or_fallback",
    "negation_companions",
    "negation_governs_before",
    "negation_positions",
    "normalized",
    "one_verb",
    "opposites_by_word",
    "participle_prefixes",
    "phrase_pattern",
    "read_as",
    "section",
    "skeleton",
    "spelled_numbers",
    "starts_sentence",
    "unreadable",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
