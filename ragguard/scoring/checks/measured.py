"""A comparison of two things the passage measures: "The Orlen Bridge is longer than the
Kellan Bridge" against "The Kellan Bridge is 800 metres long. The Orlen Bridge is 500 metres
long." says what the numbers deny; so does "The Kellan Bridge is older than the Orlen Bridge"
against "The Kellan Bridge opened in 1950. The Orlen Bridge opened in 1890."

Each language's ``[superlatives] measured_by`` gives a compared word's plain form, the kind
of number it is read by (``number``: a size in a unit; ``year``: a date) and its direction
("long number +": the longer has the larger number; "old year -": the older the earlier
year). Each side's number is the one number of that kind in the one passage sentence that
names that side and not the other; both numbers in the same unit (``words.unit_after``).
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues
from ragguard.scoring.checks.comparisons import one_grade
from ragguard.scoring.checks.numbers import Quantity
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.words import unit_after


def measured_direction(compared: str, cues: SuperlativeCues) -> tuple[str, int] | None:
    """The kind of number ``compared`` is read by and its direction (+1: the larger the
    more), from ``measured_by``; None for a word it does not list."""
    for entry in cues.measured_by:
        plain, kind, sign = entry.split()
        if one_grade(plain, compared):
            return kind, 1 if sign == "+" else -1
    return None


def measured_above(
    subject: frozenset[str],
    against: frozenset[str],
    compared: str,
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
) -> str | None:
    """The number of ``against`` as written where the passage's numbers put it above the
    claim's ``subject`` by the compared word's measure ("800 metres" of "A is longer than
    B" where B is 800 metres long and A 500); None where either number is unread, they
    differ in unit, or they agree with the claim."""
    direction = measured_direction(compared, cues)
    if direction is None:
        return None
    kind, sign = direction
    graded = frozenset(cues.analytic)  # "plus" of "plus long que" names no side
    ours = _number_of(subject - graded, against - graded, kind, sentences)
    theirs = _number_of(against - graded, subject - graded, kind, sentences)
    if ours is None or theirs is None or ours[1] != theirs[1]:
        return None
    return theirs[2] if (theirs[0] - ours[0]) * sign > 0 else None


def _number_of(
    thing: frozenset[str], other: frozenset[str], kind: str, sentences: tuple[Sentence, ...]
) -> tuple[float, str, str] | None:
    """The value, unit and text of the one number of ``kind`` in the one sentence that
    names ``thing`` and none of ``other``'s own words."""
    own = other - thing
    naming = [s for s in sentences if thing <= s.word_set and not own & s.word_set]
    if len(naming) != 1:
        return None
    sentence = naming[0]
    found = [q for q in sentence.quantities if _kind_of(q) == kind]
    if len(found) != 1:
        return None
    number = found[0]
    unit = "" if kind == "year" else unit_after(sentence.text, number.text)
    return number.value, unit, number.text


def _kind_of(quantity: Quantity) -> str:
    """``year`` for a year, ``number`` for a plain number; anything else is neither."""
    return quantity.kind if quantity.kind in ("year", "number") else ""
