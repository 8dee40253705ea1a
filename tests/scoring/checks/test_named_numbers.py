"""A number that ends a name ("Despicable Me 2", "Flight 77") names one thing among its
kind: the passage that writes the same name with another number only names another thing,
whatever the number's size ("named_numbers.named_rival")."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.named_numbers import name_before
from ragguard.scoring.checks.parse import parse

TITLES = [
    (
        "Despicable Me",
        "2",
        "3",
        "was written by Cinco Paul",
        "written by Cinco Paul and Ken Daurio",
    ),
    ("Team Fortress", "2", "5", "was developed by Valve", "developed by Valve"),
    ("Apollo", "11", "13", "landed on the Moon in 1969", "landed on the Moon in July 1969"),
    ("United", "93", "11", "crashed in Pennsylvania", "crashed in Pennsylvania at 10:03"),
    ("Chapter", "8", "6", "covers the sewing room", "covers the sewing room"),
]


@pytest.mark.parametrize(("name", "stated", "other", "claimed", "passage"), TITLES)
def test_another_number_after_the_same_name_is_flagged(
    name: str, stated: str, other: str, claimed: str, passage: str
) -> None:
    evidence = f"{name} {stated} . It was {passage} ."
    wrong = [(r.check, r.claim, r.evidence) for r in check(f"{name} {other} {claimed}.", evidence)]
    assert ("number", other, stated) in wrong
    right = [r.check for r in check(f"{name} {stated} {claimed}.", evidence)]
    assert "number" not in right


@pytest.mark.parametrize(("name", "stated", "other", "claimed", "passage"), TITLES)
def test_a_passage_naming_both_is_no_contradiction(
    name: str, stated: str, other: str, claimed: str, passage: str
) -> None:
    evidence = f"{name} {stated} and {name} {other} were both {passage} ."
    assert "number" not in [r.check for r in check(f"{name} {other} {claimed}.", evidence)]


@pytest.mark.parametrize(
    ("claim", "value", "name"),
    [
        ("The IPhone 7 is a telephone.", "7", ("iphone",)),  # an opening article is no name
        ("Despicable Me 3 was a hit.", "3", ("despicable", "me")),  # a function word inside is
        ("125 miles from DC, United 11 crashed.", "11", ("united",)),  # a comma ends a name
        ("Nearly 40 people died.", "40", ()),  # a bound is no name
        ("The team won 3 games.", "3", ()),
        ("He was born on May 4.", "4", ()),  # a month is no name
    ],
)
def test_the_name_a_number_ends(claim: str, value: str, name: tuple[str, ...]) -> None:
    sentence = parse(claim)
    q = next(q for q in sentence.quantities if q.text == value)
    assert name_before(sentence, q) == name


def test_names_are_matched_in_any_case() -> None:
    passage = "The iPhone 4 is a smartphone designed and marketed by Apple."
    found = [
        (r.check, r.claim, r.evidence) for r in check("The IPhone 7 is a smartphone.", passage)
    ]
    assert ("number", "7", "4") in found


def test_a_bounded_number_at_the_start_is_a_count_not_a_name() -> None:
    """ "Almost 25 percent" opens the sentence: its capital is the sentence's, so the clause
    rule still reads it against the passage's own clause of the same share."""
    claim = "Almost 25 percent of the value of shipments for men's shirts comes from transport."
    passage = (
        "Transport costs are almost 50 percent of the value of shipments for men's shirts, and"
        " 25 percent for trousers."
    )
    sentence = parse(claim)
    assert name_before(sentence, sentence.quantities[0]) == ()
    found = [(r.check, r.claim, r.evidence) for r in check(claim, passage)]
    assert ("number", "25 percent", "50 percent") in found


@pytest.mark.parametrize(
    ("language", "claim", "passage"),
    [
        (
            "de",
            "Apollo {} landete 1969 auf dem Mond.",
            "Apollo 11 landete im Juli 1969 auf dem Mond.",
        ),
        (
            "fr",
            "Apollo {} s'est posé sur la Lune en 1969.",
            "Apollo 11 s'est posé sur la Lune en 1969.",
        ),
        (
            "es",
            "Apollo {} aterrizó en la Luna en 1969.",
            "Apollo 11 aterrizó en la Luna en julio de 1969.",
        ),
    ],
)
def test_names_that_end_in_a_number_in_other_languages(
    language: str, claim: str, passage: str
) -> None:
    wrong = [(r.check, r.claim, r.evidence) for r in check(claim.format(12), passage, language)]
    assert ("number", "12", "11") in wrong
    assert not check(claim.format(11), passage, language)


def test_a_script_with_no_case_writes_no_name() -> None:
    """Devanagari has no capitals: the word before a year is no name ("पुल 1838"), and the
    bridge's other year in the passage is no rival of the claim's."""
    claim = "पुराना बंदरगाह पुल 1838 में बंद हुआ।"
    passage = "हेलसिंकी का पुराना बंदरगाह पुल 1942 में बना, 1838 में बंद हुआ।"
    sentence = parse(claim, "hi")
    assert name_before(sentence, sentence.quantities[0]) == ()
    assert not check(claim, passage, "hi")


def test_a_german_noun_before_a_stated_year_is_no_name() -> None:
    """German capitalises every noun: "im Jahr 1912" names no thing, so the passage's "im
    Jahr 1937" is no rival of a year it states elsewhere."""
    claim = "Die Brücke wurde im Jahr 1912 gebaut."
    passage = "Die Brücke wurde 1912 gebaut und im Jahr 1937 erweitert."
    assert "date" not in [r.check for r in check(claim, passage, "de")]
