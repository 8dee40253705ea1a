"""Whether two quantities say one value: at the claim's precision, within what its bound
allows ("over 5 billion" and 5.54 billion), and only between kinds that compare ("the
1990s" and 1994, not a count and a year)."""

from __future__ import annotations

from ragguard.scoring.checks.numbers import Quantity

APPROXIMATE = 0.1
"""Relative tolerance of "about 100": it matches 98 (quantities; dates have their own)."""
APPROXIMATE_DATE = 2
"""Absolute tolerance of an approximate date ("around 1887", "c. 1890"): 1889 holds, 1925
does not. Chosen on the training sets' date edits (docs/history/verifier.md): the knee
where a wider tolerance stops sparing hedged true years and only misses hedged wrong ones."""
_DOWN, _UP = frozenset(["at most", "before"]), frozenset(["at least", "after"])
"""Bounds that point down and up: "under 30" is not "over 30"."""


def _rounded(value: float, digits: int) -> float:
    if value == 0:
        return 0.0
    return float(f"{value:.{digits}g}")


_KIND_CLASS = {"ordinal": "day", "decade": "year", "century": "year"}
"""Kinds that compare: "on the 8th" and "December 8", "the 1990s" and "1985", "the 20th
century" and "1850"."""


def comparable(a: Quantity, b: Quantity) -> bool:
    """Whether ``b`` is a value of the kind ``a`` is (``_KIND_CLASS``). A spelled ordinal is
    a rank, never a day: "his first novel" has nothing to do with "22 April"."""
    if a.kind == b.kind == "ordinal":
        return True
    if "ordinal" in (a.kind, b.kind) and not (a.text[:1].isdigit() and b.text[:1].isdigit()):
        return False
    return _KIND_CLASS.get(a.kind, a.kind) == _KIND_CLASS.get(b.kind, b.kind)


def same_quantity(claim: Quantity, evidence: Quantity) -> bool:
    """Equal at the claim's precision, or within what the claim's bound allows ("over 5
    billion" and 5.54 billion; "about 100" and 98, either side approximate). An evidence
    bound does not support a number beyond it ("more than 3 million" is not 6 million)."""
    c, e = claim.value, evidence.value
    if claim.kind == "decade":  # "the 1990s" holds 1994, not 1985; "the 1800s" all of them
        return c <= e < c + (claim.years or (100 if c % 100 == 0 and c < 2000 else 10))
    if claim.kind == "century":  # the 21st holds 2000 to 2100, either way of counting
        if evidence.kind in ("century", "ordinal"):
            return e == c
        return (c - 1) * 100 <= e <= c * 100
    if evidence.kind in ("decade", "century"):
        return False  # "in the 1990s" does not state 1994: the claim says more
    if {claim.bound, evidence.bound} & _DOWN and {claim.bound, evidence.bound} & _UP:
        return False  # "under 30" is not "over 30"
    if claim.bound in _DOWN | _UP and not comparable(claim, evidence):
        return False  # "before 2002" says nothing of the day "2" nor "less than 100,000" of "200"
    if claim.bound in ("before", "after"):  # "released before 2005": 2001, not 2005
        return e < c if claim.bound == "before" else e > c
    rounded = claim.kind != "year" and _rounded(e, claim.digits) == c
    if claim.bound in ("at least", "at most"):
        rounded = False  # "over 400" is not 389, though 389 rounds to 400
    if c == e or (rounded and abs(c - e) <= APPROXIMATE * abs(e)):
        return True
    if "about" in (claim.bound, evidence.bound):
        if _KIND_CLASS.get(claim.kind, claim.kind) in ("year", "day"):
            return abs(c - e) <= APPROXIMATE_DATE  # "around 1925" is not 1889 (10% is 190 years)
        return abs(c - e) <= APPROXIMATE * max(abs(c), abs(e))
    return (claim.bound == "at least" and e >= c) or (claim.bound == "at most" and e <= c)
