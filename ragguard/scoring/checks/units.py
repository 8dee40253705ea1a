"""Units of measure: "300 metres" is not "300 feet", though both say 300."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ragguard.runtime import memoized
from ragguard.scoring.checks.numbers import Quantity
from ragguard.scoring.checks.parse import Sentence, overlap
from ragguard.scoring.checks.quantity_match import same_quantity
from ragguard.scoring.checks.slots import MIN_ANCHOR
from ragguard.scoring.lexical.vocabulary import CURRENCY_SIGNS, UNITS

_UNIT_AFTER = re.compile(
    r"\s*(?P<degree>degrees?\s+|°\s*)?(?P<unit>[a-z]+(?:/h)?)\b", re.IGNORECASE
)
Measure = tuple[tuple[str, str], str]
"""((dimension, unit), the number with its unit as written)."""


@memoized(entries=65_536)
def measure_of(text: str, surface: str) -> Measure | None:
    """The (dimension, unit) that ``surface``, a number in ``text``, is stated in, and the
    number with its unit as written: a currency sign before it, or a unit after it ("100
    degrees Celsius", "5 km", "300 feet"). The one-letter units c, f and k count only after
    "degrees" or "°"."""
    at = text.find(surface)
    if at < 0:
        return None
    sign = text[max(at - 1, 0) : at]
    if sign and sign in CURRENCY_SIGNS:
        return UNITS[sign], sign + surface
    after = _UNIT_AFTER.match(text, at + len(surface))
    if not after:
        return None
    unit = after["unit"].lower()
    if unit not in UNITS or (len(unit) == 1 and unit != "m" and not after["degree"]):
        return None
    return UNITS[unit], text[at : after.end()]


def measured_quantities(
    sentences: tuple[Sentence, ...],
) -> Iterator[tuple[Sentence, Quantity, Measure]]:
    """Each evidence number stated in a unit of measure, with its sentence and measure."""
    for sentence in sentences:
        for e in sentence.quantities:
            found = measure_of(sentence.text, e.text)
            if found is not None:
                yield sentence, e, found


def is_conversion(
    claim: Sentence, q: Quantity, rival: str, sentences: tuple[Sentence, ...]
) -> bool:
    """Whether the evidence states the claim's number in the claim's unit and the rival
    number only in another unit of the same dimension: a conversion ("32 degrees
    Fahrenheit, or 0 degrees Celsius"), not another value. A rival in the claim's own unit
    still conflicts ("151 days in Kerala and 259 days in Chennai")."""
    measured = measure_of(claim.text, q.text)
    if measured is None:
        return False
    unit = measured[0]
    stated, rivals = False, set()
    for _, e, (found, _written) in measured_quantities(sentences):
        if same_quantity(q, e):
            stated = stated or found == unit
        elif e.text == rival:
            rivals.add(found)
    return stated and bool(rivals) and all(r[0] == unit[0] and r != unit for r in rivals)


def other_unit(
    claim: Sentence, q: Quantity, context: frozenset[str], sentences: tuple[Sentence, ...]
) -> str | None:
    """The claim's number as the on-topic sentence writes it in another unit of the same
    dimension, and never in the claim's: "300 meters" against "300 feet", "5 years" against
    "5 months"."""
    measured = measure_of(claim.text, q.text)
    if measured is None:
        return None
    (dimension, unit), other = measured[0], None
    for sentence, e, (found, written) in measured_quantities(sentences):
        if not same_quantity(q, e):
            continue
        if found == (dimension, unit):
            return None
        if found[0] == dimension and overlap(context, sentence) >= MIN_ANCHOR:
            other = other or written
    return other
