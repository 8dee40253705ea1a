"""The calendar checks: a month or weekday the on-topic sentence names differently, and a
year or month that the passage writes only at the other end of a span of dates."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from ragguard.language import lexicon_or_fallback
from ragguard.scoring.checks.dates import MONTH, date_spans, full_month, role_of_date
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.slots import MIN_ANCHOR, Reading, RivalRule, Slot, rival_value
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem
from ragguard.scoring.lexical.vocabulary import ENDING_WORDS, STARTING_WORDS

_ROLE_STEMS = frozenset(stem(w) for w in STARTING_WORDS | ENDING_WORDS)


def reads_roles(language: str) -> bool:
    """Whether the language lists the words that give a date its role (``[dates]``
    ``starting``, ``ending``): only then is a date read as a span's start or end."""
    found = lexicon_or_fallback(language)
    return bool(found.date_starts or found.date_ends)


def times_written(sentence: Sentence, value: str) -> int:
    """How often a sentence writes a year ("1955") or a month ("april", or "Apr.")."""
    if value.isdigit():
        return sum(e.kind == "year" and e.value == int(value) for e in sentence.quantities)
    return sum(full_month(w) == value for w in MONTH.findall(sentence.text))


def span_end_rival(
    claim: Sentence,
    written: str,
    value: str,
    context: frozenset[str],
    sentences: tuple[Sentence, ...],
) -> str | None:
    """A year or month (``value``: "1955", "april") that the passage writes only at the
    other end of a span: "born in 1955" against "(14 March 1879 – 18 April 1955)" gives
    "1879". The value itself is stated, so only its role can show the mismatch; the answer
    is the same part of the right end."""
    role = role_of_date(claim.text, written)
    if not role:
        return None
    topic = context - _ROLE_STEMS  # a span needs no verb: the name is the topic
    found = None
    for sentence in sentences:
        written_here = times_written(sentence, value)
        if not written_here:
            continue
        ends = [(o, c) if role == "start" else (c, o) for o, c in date_spans(sentence.text)]
        wrong = [right for right, other in ends if value in other and value not in right]
        shared = len(topic & sentence.content)
        if len(wrong) < written_here or not shared or shared < MIN_ANCHOR * len(topic):
            return None  # written in the claim's role somewhere, or off-topic
        same_part = sorted(v for v in wrong[0] if v.isdigit() == value.isdigit())
        found = found or (same_part[0].capitalize() if same_part else None)
    return found


_CALENDAR = RivalRule(led_on_topic=True)
"""A weekday or month the claim's words lead to elsewhere ("police on Wednesday") is a rival
only in a sentence about the claim's event: news passages date many events."""


def _calendar_findings(
    claim: Sentence,
    sentences: tuple[Sentence, ...],
    named: Callable[[Sentence], frozenset[str]],
    roles: bool,
) -> list[Reason]:
    findings = []
    own = named(claim)
    for word in sorted(own):
        readings = tuple(
            Reading(
                s, word in named(s), tuple(w.capitalize() for w in sorted(named(s)) if w not in own)
            )
            for s in sentences
        )
        slot = Slot(claim, word.capitalize(), claim.content - {stem(word)}, readings)
        value = rival_value(slot, _CALENDAR)
        if value is None and slot.stated and roles and reads_roles(claim.language):
            written = next(w for w in MONTH.findall(claim.text) if full_month(w) == word)
            value = span_end_rival(claim, written, word, slot.context, sentences)
        if value is not None:
            findings.append(Reason("date", word.capitalize(), value))
    return findings


def month_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """Months of the claim that the on-topic sentence names differently ("resigned in
    March" against "resigned in May"), or writes only at the other end of a span."""
    return _calendar_findings(claim, sentences, attrgetter("months"), roles=True)


def weekday_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """Weekdays of the claim that the on-topic sentence names differently ("on Tuesday"
    against "on Thursday")."""
    return _calendar_findings(claim, sentences, attrgetter("weekdays"), roles=False)
