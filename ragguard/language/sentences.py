"""Where a sentence starts, and the English calendar words (from ``data/en.toml``): one
definition each, read by span analysis, language detection and the checks."""

from __future__ import annotations

from ragguard.language.wordlists import FALLBACK, lexicon_or_fallback

MONTHS: tuple[str, ...] = tuple(lexicon_or_fallback(FALLBACK).months)
"""English's month names (``data/en.toml``), January first."""
WEEKDAYS: tuple[str, ...] = tuple(lexicon_or_fallback(FALLBACK).weekdays)
"""English's weekday names, Monday first."""
CALENDAR_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(d + "s" for d in WEEKDAYS)
"""English months and weekdays ("Mondays" too): the date check compares them, a name reader
takes them for a first name only before a surname ("June Bishop")."""

SENTENCE_ENDS = frozenset(".!?:;…\n।")
"""Marks after which a sentence starts (the danda ends a Hindi sentence)."""
OPENING_MARKS = frozenset("\"“‘'(¿¡«„")
"""Marks that open a quotation, an aside or (Spanish) a question or exclamation."""


def starts_sentence(text: str, position: int, *, through_marks: bool = False) -> bool:
    """Whether the word at ``position`` opens a sentence: only space before it, or a
    sentence end. Two readings of an opening mark before it, kept apart because each
    caller was tuned with its own: span analysis (the default) counts the mark itself as a
    start ('He said "Paris'), so a quoted capital is no name; language detection
    (``through_marks``) looks through it to what precedes ('in "Paris' is mid-sentence)."""
    at = position
    while at > 0 and (text[at - 1].isspace() or (through_marks and text[at - 1] in OPENING_MARKS)):
        at -= 1
    if at == 0:
        return True
    before = text[at - 1]
    return before in SENTENCE_ENDS or (not through_marks and before in OPENING_MARKS)
