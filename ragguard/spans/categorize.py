"""Subjective or objective: RAG-Check's lexicon search, guarded against plain false positives.

A span is subjective when any cue of any lexicon class occurs in it, except where a guard says
the word is not being used as a cue:

* "May" followed by a number is the month ("in May 2020", "May 5").
* "most" after "the" or "at" is a superlative or a bound ("the most populous", "at most 5").
* A one-word cue in Title Case that does not start the sentence is part of a name
  ("Great Britain", "the Best Picture award", "in May").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from ragguard.config import SpanConfig
from ragguard.spans.lexicon import LEXICON

Category = Literal["objective", "subjective"]

_NUMBER_AHEAD = re.compile(r"\s+\d")
_THE_OR_AT_BEHIND = re.compile(r"\b(?:the|at)\s+$", re.IGNORECASE)
_SENTENCE_OPENERS = frozenset(".!?:;\"“‘'(")


class Categorizer:
    """Subjective/objective by the lexicon, with a config's additions and removals applied."""

    def __init__(
        self, add: Mapping[str, Sequence[str]] | None = None, remove: Sequence[str] = ()
    ) -> None:
        self.lexicon: Mapping[str, tuple[str, ...]] = merge_lexicon(add or {}, remove)
        self._patterns = {name: _compile(cues) for name, cues in self.lexicon.items() if cues}

    @classmethod
    def from_config(cls, config: SpanConfig) -> Categorizer:
        return cls(config.add_subjective, config.remove_subjective)

    def matched_classes(self, text: str) -> list[str]:
        """The lexicon classes with a cue in ``text``, in lexicon order (why it is subjective)."""
        text = text.replace("’", "'")
        return [
            name
            for name, pattern in self._patterns.items()
            if any(not _is_false_positive(text, m) for m in pattern.finditer(text))
        ]

    def categorize(self, text: str) -> tuple[Category, list[str]]:
        """("subjective", classes that fired) or ("objective", [])."""
        classes = self.matched_classes(text)
        return ("subjective" if classes else "objective"), classes


def merge_lexicon(
    add: Mapping[str, Sequence[str]], remove: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """The built-in lexicon plus ``add`` (cues per class), minus ``remove``.

    An entry of ``remove`` that names a class drops the whole class; any other entry is a cue
    dropped from every class. Unknown class names and removals that match nothing raise
    ValueError, so a typo cannot silently leave the lexicon unchanged.
    """
    unknown = [name for name in add if name not in LEXICON]
    if unknown:
        raise ValueError(
            f"add_subjective: unknown lexicon class {', '.join(map(repr, unknown))}; "
            f"known classes: {', '.join(LEXICON)}"
        )
    merged = {
        name: tuple(dict.fromkeys([*cues, *(_normalize(cue) for cue in add.get(name, ()))]))
        for name, cues in LEXICON.items()
    }
    for entry in remove:
        cue = _normalize(entry)
        if cue in merged:
            del merged[cue]
        elif any(cue in cues for cues in merged.values()):
            merged = {name: tuple(c for c in cues if c != cue) for name, cues in merged.items()}
        else:
            raise ValueError(
                f"remove_subjective: {entry!r} is neither a lexicon class nor one of its cues"
            )
    return merged


def _normalize(cue: str) -> str:
    normalized = " ".join(cue.lower().replace("’", "'").split())
    if not normalized:
        raise ValueError("subjectivity cues must not be empty")
    return normalized


def _compile(cues: Sequence[str]) -> re.Pattern[str]:
    """One alternation per class, longest cue first, bounded by non-word, non-hyphen chars."""
    longest_first = sorted(cues, key=len, reverse=True)
    alternation = "|".join(r"\s+".join(map(re.escape, cue.split())) for cue in longest_first)
    return re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])", re.IGNORECASE)


def _is_false_positive(text: str, match: re.Match[str]) -> bool:
    """The guards listed in the module docstring."""
    word = match.group()
    if word == "May" and _NUMBER_AHEAD.match(text, match.end()):
        return True
    if word.lower() == "most" and _THE_OR_AT_BEHIND.search(text, 0, match.start()):
        return True
    return len(word.split()) == 1 and word.istitle() and not _starts_sentence(text, match.start())


def _starts_sentence(text: str, position: int) -> bool:
    before = text[:position].rstrip()
    return not before or before[-1] in _SENTENCE_OPENERS
