"""Languages: detection of a text's language and each language's word lists.

A leaf of the package (standard library and ``ragguard.runtime.caches`` only), so the scorers, the
checks and span analysis can all ask it. ``detect`` names a text's language, ``lexicon``
gives a supported language's word lists (``data/<code>.toml``; ``foreign_lexicon`` the
ones the checks read, none for English), ``checks_off`` the typed checks a language
switches off and why (``kinds_off`` their names), ``normalized`` the one normal form the
checks and features read (``skeleton`` the checks' fold of it, ``unreadable`` why a text
cannot be read as shown). docs/languages.md describes them.
"""

from ragguard.language.detect import UNDETERMINED, detect
from ragguard.language.normalize import UNREADABLE, normalized, skeleton, unreadable
from ragguard.language.scripts import DIGITS, MARKS, WORD, phrase_pattern
from ragguard.language.wordlists import (
    NAMES,
    SUPPORTED,
    Lexicon,
    checks_off,
    foreign_lexicon,
    kinds_off,
    lexicon,
)

__all__ = [
    "DIGITS",
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
    "normalized",
    "phrase_pattern",
    "skeleton",
    "unreadable",
]
