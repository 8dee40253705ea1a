"""A span the claim states is read against the passage's spans: one end alike and the other
not is a wrong end ("between 1973 and 1976" against "from 1945 to 1976"), though the wrong
end falls inside the passage's span ("quantity_rules._range_end_rival")."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

SPANS = [
    (
        "North Vietnam was a state in Southeast Asia",
        "from {} to {}",
        "in {}",
        "1945",
        "1976",
        "1973",
    ),
    ("Ann Richards served as Governor of Texas", "from {} to {}", "in {}", "1991", "1995", "1993"),
    ("The company expects net sales to grow by", "{}-{}%", "{}%", "4", "7", "5"),
    ("Deliveries should reach", "between {} and {} units", "{} units", "2,400", "2,600", "2,500"),
]
"""What a passage says, how it writes a span and one value, the span's ends, a value inside."""


@pytest.mark.parametrize(("said", "span", "one", "low", "high", "inside"), SPANS)
def test_a_wrong_end_is_flagged_with_the_passages_end(
    said: str, span: str, one: str, low: str, high: str, inside: str
) -> None:
    passage = f"{said} {span.format(low, high)}."
    for claim, wrong, right in (
        (f"{said} {span.format(inside, high)}.", inside, low),
        (f"{said} {span.format(low, inside)}.", inside, high),
        (f"{said} {span.format(low, low)}.", low, high),
    ):
        found = [
            (r.claim.rstrip("%"), r.evidence.rstrip("%"))
            for r in check(claim, passage)
            if r.check in ("date", "number")
        ]
        assert (wrong, right) in found, claim


@pytest.mark.parametrize(("said", "span", "one", "low", "high", "inside"), SPANS)
def test_the_same_span_or_a_value_inside_it_is_no_contradiction(
    said: str, span: str, one: str, low: str, high: str, inside: str
) -> None:
    passage = f"{said} {span.format(low, high)}."
    for claim in (f"{said} {span.format(low, high)}.", f"{said} {one.format(inside)}."):
        assert not [r for r in check(claim, passage) if r.check in ("date", "number")], claim


@pytest.mark.parametrize(
    ("language", "claim", "passage"),
    [
        (
            "de",
            "Die Brücke war zwischen {} und 1976 geöffnet.",
            "Die Brücke war von 1945 bis 1976 geöffnet.",
        ),
        ("fr", "Le pont était ouvert entre {} et 1976.", "Le pont était ouvert de 1945 à 1976."),
        (
            "es",
            "El puente estuvo abierto entre {} y 1976.",
            "El puente estuvo abierto de 1945 a 1976.",
        ),
        ("hi", "पुल {} से 1976 तक खुला था।", "पुल 1945 से 1976 तक खुला था।"),
    ],
)
def test_spans_in_other_languages(language: str, claim: str, passage: str) -> None:
    found = [(r.claim, r.evidence) for r in check(claim.format(1973), passage, language)]
    assert ("1973", "1945") in found
    assert not check(claim.format(1945), passage, language)
