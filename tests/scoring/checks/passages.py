"""Passages the check tests share, and the assertion the per-kind regression tables use."""

from __future__ import annotations

from ragguard.scoring.checks import check

PARIS = "The Eiffel Tower is a lattice tower in Paris, France."
BOILING = "Water boils at 100 degrees Celsius at sea level."
DRUG = "The drug was not approved by the FDA in 2020; the agency asked for more trials."
EINSTEIN = (
    "Albert Einstein was born in Ulm in March 1879 and moved to Munich with 2 sisters. About "
    "1.5 million people live in Munich."
)
LIFESPAN = (
    "Albert Einstein (14 March 1879 – 18 April 1955) was a German-born theoretical physicist."
)
SHOOTING = "Shooting took place in India and London, from September 1994 to August 1995."

Case = tuple[str, str, tuple[str, ...], str]
"""A claim, its passage, the first contradiction expected as (kind, claim says, passage
says), or a prefix of it (empty: nothing may fire), and why: the rule the case pins."""


def fired(claim: str, passage: str) -> list[tuple[str, str, str]]:
    return [(r.check, r.claim, r.evidence) for r in check(claim, passage)]


def assert_first_reason(claim: str, passage: str, expected: tuple[str, ...], why: str) -> None:
    """Uncovered content aside, nothing fires when ``expected`` is empty, else the first
    reason starts with ``expected``."""
    reasons = [r for r in fired(claim, passage) if r[0] != "uncovered"]
    if not expected:
        assert reasons == [], why
    else:
        assert reasons and reasons[0][: len(expected)] == expected, why
