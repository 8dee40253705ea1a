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

from ragguard.language.detect import UNDETERMINED, detect
from ragguard.language.normalize import UNREADABLE, normalized, skeleton, unreadable
from ragguard.language.scripts import DIGITS, MARKS, WORD, phrase_pattern
from ragguard.language.wordlists import (
    FALLBACK,
    NAMES,
    SUPPORTED,
    Lexicon,
    checks_off,
    foreign_lexicon,
    kinds_off,
    lexicon,
    lexicon_or_fallback,
    read_as,
    section,
)

__all__ = [
    "DIGITS",
    "FALLBACK",
    "MARKS",
    "NAMES",
    "SUPPORTED",
    "UNDETERMINED",
    "UNREADABLE",
    "WORD",
    "Lexicon",
    "checks_off",
    "detect",
    "foreign_lexicon",
    "kinds_off",
    "lexicon",
    "lexicon_or_fallback",
    "normalized",
    "phrase_pattern",
    "read_as",
    "section",
    "skeleton",
    "unreadable",
]
