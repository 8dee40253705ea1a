"""An answer's spans read with their antecedents: "It stands in Paris." answering "Where is
the Eiffel Tower?" is checked, and judged relevant or not, as "The Eiffel Tower stands in
Paris.". A span that opens with a pronoun takes the subject of the span before it, else the
question's subject; the words are each language's (``ragguard.language.reference``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ragguard.language import kinds_off
from ragguard.language.reference import determiners, subject, with_antecedent
from ragguard.scoring.checks.proper_names import names

_AFTER_AUXILIARY = re.compile(
    r"^\W*(?:\w+\s+){0,2}?(?:is|was|are|were|does|did|do|has|had)\s+(?P<rest>.+?)\W*$",
    re.IGNORECASE,
)


def question_subject(question: str, language: str = "en") -> str | None:
    """What a question asks about, for an answer's pronoun to take: its first name with a
    leading article ("Where is the Eiffel Tower?" -> "the Eiffel Tower"), else in English the
    short definite phrase after its auxiliary ("Where is the old tower?"). None where names
    cannot be found (German, Hindi) or the question names nothing."""
    if "entity" in kinds_off(language):
        return None
    found = names(question)
    if found:
        at = question.find(found[0])
        before = question[:at].split()[-1:]
        if before and before[0].lower() in determiners(language):
            return f"{before[0]} {found[0]}"
        return found[0]
    match = _AFTER_AUXILIARY.match(question) if language == "en" else None
    rest = match.group("rest").split() if match else []
    return " ".join(rest) if 1 < len(rest) <= 4 and rest[0].lower() == "the" else None


class _SpanLike(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def language(self) -> str: ...


def answer_readings(
    question: str, spans: Sequence[_SpanLike], follow_spans: bool = True
) -> list[str]:
    """Each span's text read with its antecedent (see the module docstring), in order; a
    span that leans on nothing as written. ``follow_spans`` False: the question's subject
    only, never an earlier span's (``[support] use_context = false``)."""
    asked: dict[str, str | None] = {}
    readings: list[str] = []
    previous: str | None = None
    for span in spans:
        language = span.language if span.language != "und" else "en"
        if language not in asked:
            asked[language] = question_subject(question, language)
        read = with_antecedent(span.text, previous or asked[language], language)
        if follow_spans:
            previous = subject(read, language) or previous
        readings.append(read)
    return readings
