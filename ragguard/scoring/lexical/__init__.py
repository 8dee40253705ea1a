"""Word-level reading shared by the checks, the lite heads and the hub backends: tokens,
stems, stopwords, evidence sentences (``text``) and the English word lists (``vocabulary``).
Below every other scoring room, above ``ragguard.language``."""

from __future__ import annotations

from ragguard.scoring.lexical.text import (
    ANY_SCRIPT_TOKEN,
    content_tokens,
    decontextualized,
    evidence_sentences,
    stem,
    stem_in,
    stopwords_of,
    trained_reading,
)
from ragguard.scoring.lexical.vocabulary import (
    EDIT_ANTONYMS,
    EDIT_NEGATION_WORDS,
    STOPWORDS,
)

__all__ = [
    "ANY_SCRIPT_TOKEN",
    "EDIT_ANTONYMS",
    "EDIT_NEGATION_WORDS",
    "STOPWORDS",
    "content_tokens",
    "decontextualized",
    "evidence_sentences",
    "stem",
    "stem_in",
    "stopwords_of",
    "trained_reading",
]
