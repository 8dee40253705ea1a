"""The number and date check: a claim's quantity that the evidence fills with another value
of its kind ("built in 1889" against "built in 1887", "8 elevators" against "57
elevators")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ragguard.scoring.checks.clauses import (
    clause_rival,
    stated_in_claim,
    topic_words,
    value_order,
)
from ragguard.scoring.checks.dates import day_and_month_before, days_and_months_before
from ragguard.scoring.checks.months import span_end_rival
from ragguard.scoring.checks.named_numbers import ends_a_name, named_rival
from ragguard.scoring.checks.numbers import DATE_KINDS, Quantity
from ragguard.scoring.checks.parse import Sentence, content_of
from ragguard.scoring.checks.quantity_match import comparable, same_quantity
from ragguard.scoring.checks.slots import Reading, RivalRule, Slot, rival_value
from ragguard.scoring.checks.units import is_conversion, other_unit
from ragguard.scoring.checks.words import (
    counts_unit,
    nearest_words,
    same_neighbours,
    unit_after,
    units_after,
)
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stopwords_of

QUANTITY_MARGIN = 0.25
"""A claim's number stated only in a sentence this much less on-topic than one holding
another number of its kind is a wrong number, not two sentences joined."""
SMALL_COUNT = 10
"""A count up to this that the passage never states is no contradiction: "two people" is
what "a man and a woman" say without a number."""
WHOLE_SHARES = (0.0, 100.0)
"""Percentages words say without a number ("100% efficiency" is "without loss", "0%" is
"none"): stated nowhere, they are no contradiction either."""


@dataclass(frozen=True, slots=True)
class QuantitySlot:
    """A quantity of the claim, read against every evidence sentence."""

    quantity: Quantity
    slot: Slot
    sentences: tuple[Sentence, ...]
    claimed: Callable[[Quantity], bool]
    """Whether an evidence value is one the claim states (``stated_in_claim``)."""


def _reading(q: Quantity, sentence: Sentence, claimed: Callable[[Quantity], bool]) -> Reading:
    """How ``sentence`` reads ``q``; ``claimed`` (values the claim itself states, which are
    no rivals; decades and centuries holding one too) is shared by every value of a claim."""
    forms = tuple(e.text for e in sentence.quantities if same_quantity(q, e))
    in_range = not q.bound and any(low <= q.value <= high for low, high in sentence.ranges)
    rivals = tuple(e.text for e in sentence.quantities if comparable(q, e) and not claimed(e))
    return Reading(sentence, bool(forms) or in_range, rivals, forms)


def _span_met(q: Quantity, claim: Sentence, sentences: tuple[Sentence, ...]) -> bool:
    """Whether ``q`` ends a span of values of the claim ("between 100 and 200 metres") that
    a passage value of its kind falls inside (142): the claim states the span, not its ends.
    A year stays a year of its own ("between 1951 and 1972" names 1951)."""
    return q.kind == "number" and any(
        low <= e.value <= high and comparable(q, e)
        for low, high in claim.ranges
        if q.value in (low, high)
        for s in sentences
        for e in s.quantities
    )


def _anchor_rival(s: QuantitySlot) -> str | None:
    """``rival_value`` with a margin; a value stated nowhere fires unless it is a small
    count, a whole share, a rank or a day."""
    q = s.quantity
    count = q.kind == "number" and q.value <= SMALL_COUNT and q.value.is_integer()
    whole = q.kind == "percent" and q.value in WHOLE_SHARES
    unstated = None if count or whole or q.kind in ("ordinal", "day") else ""
    after = value_order(s.slot.claim.language).lead_after
    rule = RivalRule(QUANTITY_MARGIN, unstated, lead_after=after, by_neighbours=True)
    return rival_value(s.slot, rule)


def _counted_rival(s: QuantitySlot) -> str | None:
    """A number the passage states only of another unit, or not at all, while another
    number counts the claim's unit ("8 elevators" against "57 elevators and 8 escalators";
    "four puppies" against "two puppies"). After a date, only a word right after it says
    what it is of ("in 2021 despite ...", "a 2015 American film"); a name or a number past a
    comma does not ("In the 1960s, Samsung ...", "January 2, 1881")."""
    claim, q = s.slot.claim, s.quantity
    unit = unit_after(claim.text, q.text)
    if not unit or ends_a_name(claim, q):
        return None  # "737 MAX 9 aircraft": the 9 names the model, it counts no aircraft
    if q.kind in DATE_KINDS and not _word_right_after(claim, q):
        return None
    if any(
        counts_unit(r.sentence.text, e.text, unit)
        for r in s.slot.readings
        if r.states
        for e in r.sentence.quantities
        if same_quantity(q, e) or _ends_span_holding(q, e, r.sentence)
    ):
        return None
    return next(
        (c for r in s.slot.readings for c in r.rivals if unit in units_after(r.sentence.text, c)),
        None,
    )


def _ends_span_holding(q: Quantity, e: Quantity, sentence: Sentence) -> bool:
    """Whether ``e`` ends a span of ``sentence`` that holds ``q`` ("between 2,400 and 2,600
    units" holds 2,500 units: the span's end says what it counts)."""
    return not q.bound and any(
        low <= q.value <= high and e.value in (low, high) for low, high in sentence.ranges
    )


def _word_right_after(claim: Sentence, q: Quantity) -> bool:
    """Whether a year is followed right away by a word of the claim's language that is no
    function word ("2021 despite", "2015 American"); a day is read with its month."""
    after = re.search(rf"{re.escape(q.text)} ([^\W\d_]+)", claim.text)
    stop = stopwords_of(claim.language)
    return q.kind != "day" and after is not None and after[1].lower() not in stop


def _clause_rival(s: QuantitySlot) -> str | None:
    return clause_rival(s.slot.claim, s.quantity, s.sentences, s.claimed)


def _named_rival(s: QuantitySlot) -> str | None:
    return named_rival(s.slot.claim, s.quantity, s.sentences)


def _told_rival(s: QuantitySlot) -> str | None:
    """A value the passage states, of other things than the claim's: the words right after
    it in the claim ("$20.3 million during its opening weekend") follow another value of
    its kind in the passage ("$ 60.2 million on its opening weekend") and never the claim's
    ("$ 20.3 million on its opening day"). A rank or a century is left to its own rules."""
    q, claim = s.quantity, s.slot.claim
    stop = stopwords_of(claim.language)
    ours = nearest_words(claim.text, q.text, stop, True)
    if q.kind in ("ordinal", "century") or len(ours) < 2:
        return None
    rival = None
    for sentence in s.sentences:
        for e in sentence.quantities:
            if not comparable(q, e) or not same_neighbours(
                ours, nearest_words(sentence.text, e.text, stop, True)
            ):
                continue
            if same_quantity(q, e):
                return None
            if not s.claimed(e):
                rival = rival or e.text
    return rival


def _other_unit(s: QuantitySlot) -> str | None:
    return other_unit(s.slot.claim, s.quantity, s.slot.context, s.sentences)


def _span_end_year(s: QuantitySlot) -> str | None:
    if s.quantity.kind != "year":
        return None
    year = str(int(s.quantity.value))
    return span_end_rival(s.slot.claim, s.quantity.text, year, s.slot.context, s.sentences)


def _dated_day(s: QuantitySlot) -> str | None:
    """A year written with its day and month ("March 3rd, 2004") where the passage writes
    that day and month with another year only ("born 3 March 1971"), in any order."""
    q, language = s.quantity, s.slot.claim.language
    dated = day_and_month_before(s.slot.claim.text, q.text, language) if q.kind == "year" else None
    if dated is None:
        return None
    rivals = [
        e
        for sentence in s.sentences
        for e in sentence.quantities
        if e.kind == "year" and day_and_month_before(sentence.text, e.text, language) == dated
    ]
    if any(e.value == q.value for e in rivals):
        return None
    return rivals[0].text if rivals else None


def _day_of_dated_month(s: QuantitySlot) -> str | None:
    """A day written with its month and year ("May 8, 1915") where the passage writes that
    month and year with another day only ("May 7, 1915"), in any order."""
    q, claim = s.quantity, s.slot.claim
    year = next((e for e in claim.quantities if e.kind == "year"), None)
    if q.kind != "day" or year is None:
        return None
    dated = day_and_month_before(claim.text, year.text, claim.language)
    if dated is None or dated[0] != q.value:
        return None
    days = [
        day
        for sentence in s.sentences
        for text in {e.text for e in sentence.quantities if same_quantity(year, e)}
        for day, month in days_and_months_before(sentence.text, text, claim.language)
        if month == dated[1]
    ]
    return None if not days or q.value in days else str(days[0])


@dataclass(frozen=True, slots=True)
class QuantityRule:
    name: str
    stated_only: bool
    """Asked only when some sentence states the claim's value."""
    rival: Callable[[QuantitySlot], str | None]


QUANTITY_RULES: tuple[QuantityRule, ...] = (
    QuantityRule("anchor", False, _anchor_rival),
    QuantityRule("counted unit", False, _counted_rival),
    QuantityRule("name", False, _named_rival),
    QuantityRule("clause", True, _clause_rival),
    QuantityRule("told apart", True, _told_rival),
    QuantityRule("unit of measure", True, _other_unit),
    QuantityRule("span end", True, _span_end_year),
    QuantityRule("dated day", False, _dated_day),
    QuantityRule("day of a dated month", False, _day_of_dated_month),
)
"""Asked in order; the first rival found is the finding (docs/history/verifier.md gives
each rule's measurements)."""


def first_rival(s: QuantitySlot) -> str | None:
    """The rival of the first rule in ``QUANTITY_RULES`` that finds one."""
    stated = s.slot.stated
    for rule in QUANTITY_RULES:
        if rule.stated_only and not stated:
            continue
        found = rule.rival(s)
        if found is not None:
            return found
    return None


def _rival(
    claim: Sentence,
    q: Quantity,
    sentences: tuple[Sentence, ...],
    as_rival: Callable[[Quantity], bool],
    in_clause: Callable[[Quantity], bool],
) -> str | None:
    """The first rule's rival for ``q`` (``first_rival``), unless it is ``q`` converted."""
    value_words = content_of(q.text, claim.language)
    readings = tuple(_reading(q, s, as_rival) for s in sentences)
    topic = topic_words(claim, q, value_words)
    slot = Slot(claim, q.text, claim.content - value_words, readings, topic)
    value = first_rival(QuantitySlot(q, slot, sentences, in_clause))
    if value and is_conversion(claim, q, value, sentences):
        return None  # "0 degrees Celsius" in "32 degrees Fahrenheit, or 0 degrees Celsius"
    return value


def _range_end_rival(claim: Sentence, q: Quantity, sentences: tuple[Sentence, ...]) -> str | None:
    """An end of a span the claim states ("between 1973 and 1976") where the passage states
    the span with the other end alike and this one not ("from 1945 to 1976"): read before
    any rule, since the passage's span holds the claim's wrong end."""
    if not claim.ranges:
        return None
    spans = {span for sentence in sentences for span in sentence.ranges}
    for low, high in claim.ranges:
        if q.value not in (low, high) or (low, high) in spans:
            continue
        for start, end in spans:
            if q.value == low and end == high and start != low:
                other = start
            elif q.value == high and start == low and end != high:
                other = end
            else:
                continue
            found = (
                e.text
                for s in sentences
                for e in s.quantities
                if e.value == other and comparable(q, e)
            )
            if rival := next(found, None):
                return rival
    return None


def quantity_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """Numbers and dates of the claim that the evidence fills with another value."""
    findings = []
    as_rival = stated_in_claim(claim, spans=True)
    in_clause = stated_in_claim(claim)
    for q in claim.quantities:
        value = _range_end_rival(claim, q, sentences)
        if value is None:
            if _span_met(q, claim, sentences):
                continue
            value = _rival(claim, q, sentences, as_rival, in_clause)
        if value is not None:
            written = f"{q.bound} {q.text}" if q.bound in ("before", "after") else q.text
            found = Reason("date" if q.kind in DATE_KINDS else "number", written, value)
            if found not in findings:  # a value written twice ("from 1991 to 1991")
                findings.append(found)
    return findings
