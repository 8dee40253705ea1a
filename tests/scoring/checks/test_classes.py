"""A short claim that gives a name a class (``checks.classes``): "Tamil Nadu is a composer."
against a passage that gives the class to another name, its subject. Nothing fires where a
sentence gives the class to the claim's name, in its subject, right after the class, or in a
clause of its own."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

JAYARAJ = (
    "Harris Jayaraj (born 8 January 1975) is an Indian film composer from Chennai, Tamil Nadu. "
    "He composes scores for Tamil films."
)


def entities(claim: str, passage: str) -> list[tuple[str, str]]:
    return [(r.claim, r.evidence) for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        ("Tamil Nadu is a composer.", JAYARAJ, ("Tamil Nadu", "Harris Jayaraj")),
        (
            "The Orlen Museum is a castle.",
            "Kellan Castle is a castle complex near the Orlen Museum. It dates from 1210.",
            ("Orlen Museum", "Kellan Castle"),
        ),
        (
            "Lukas Weber est un architecte.",
            "Anna Brandt est une architecte de Riga, amie de Lukas Weber.",
            ("Lukas Weber", "Anna Brandt"),
        ),
        (
            "Lukas Weber es un arquitecto.",
            "Anna Brandt es un arquitecto de Riga, amigo de Lukas Weber.",
            ("Lukas Weber", "Anna Brandt"),
        ),
        (
            "Lukas Weber ist ein Architekt.",
            "Anna Brandt ist ein Architekt aus Riga, wie Lukas Weber.",
            ("Lukas Weber", "Anna Brandt"),
        ),
        (  # a hyphenated class word; a passive after "was" gives no class
            "Harbour Lights is a plus-size label.",
            "Anna Brandt is an American label. She was interviewed by Harbour Lights about "
            "plus-size labels.",
            ("Harbour Lights", "Anna Brandt"),
        ),
    ],
)
def test_a_class_the_passage_gives_another_name_fires(
    claim: str, passage: str, found: tuple[str, str]
) -> None:
    assert found in entities(claim, passage)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Harris Jayaraj is a composer.", JAYARAJ),
        (  # the claim's name in the subject
            "Cary Elwes is a writer.",
            "Ivan Simon Cary Elwes (born 26 October 1962), known professionally as Cary Elwes, "
            "is an English actor and writer.",
        ),
        (  # right after the class
            "Eric Church is an artist.",
            "The Outsiders is the fifth studio album by American country music artist Eric Church.",
        ),
        (  # in a clause of its own
            "Lukas Weber is an architect.",
            "Anna Brandt is an architect who worked in Riga with Lukas Weber for ten years.",
        ),
    ],
)
def test_a_class_the_passage_gives_the_claims_name_fires_nothing(claim: str, passage: str) -> None:
    name = claim.split(" is ")[0]
    assert all(found[0] != name for found in entities(claim, passage))


def test_a_short_word_ending_like_a_participle_still_gives_a_class() -> None:
    """ "king" is no participle of "k"."""
    passage = "Anna Brandt was king of Riga. Lukas Weber was a painter there."
    assert ("Lukas Weber", "Anna Brandt") in entities("Lukas Weber is a king.", passage)
