"""A one-word name read by the words beside it: a title before the passage's name, the same
side of the verb, a person for a person."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.name_frames import words_beside
from ragguard.scoring.checks.parse import parse


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "The Kellan Bridge was designed by the architect Lukas Weber and opened in 1921.",
            "The Kellan Bridge was designed by Sorensen.",
            "Lukas Weber",
        ),
        (
            "The Kellan Bridge in Oslo was designed by the architect Lukas Weber.",
            "The Kellan Bridge was designed by Sorensen.",
            "Lukas Weber",
        ),
        (
            "Le pont Kellan a été conçu par l'architecte Lukas Weber et inauguré en 1921.",
            "Le pont Kellan a été conçu par Sorensen.",
            "Lukas Weber",
        ),
        (
            "El puente Kellan fue diseñado por el arquitecto Lukas Weber y se inauguró en 1921.",
            "El puente Kellan fue diseñado por Sorensen.",
            "Lukas Weber",
        ),
        (
            "Le pont Kellan a été conçu par le célèbre architecte Lukas Weber.",
            "Le pont Kellan a été conçu par Sorensen.",
            "Lukas Weber",
        ),
        (
            "El puente Kellan fue diseñado por el arquitecto alemán Lukas Weber.",
            "El puente Kellan fue diseñado por Sorensen.",
            "Lukas Weber",
        ),
        (
            "The Kellan Bridge was designed by the famous architect Lukas Weber.",
            "The Kellan Bridge was designed by Sorensen.",
            "Lukas Weber",
        ),
        (
            "Die Kellan-Brücke in Oslo wurde von dem Architekten Lukas Weber entworfen.",
            "Die Kellan-Brücke wurde von Sorensen entworfen.",
            "Architekten Lukas Weber",
        ),
    ],
)
def test_a_surname_against_a_titled_name(passage: str, claim: str, rival: str) -> None:
    """The title ("the architect") stands between the verb and the passage's name; the
    claim's one-word name stands right after the verb."""
    found = [(r.check, r.claim, r.evidence) for r in check(claim, passage)]
    assert ("entity", "Sorensen", rival) in found


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Bridge was designed by the architect Lukas Weber and opened in 1921.",
            "The Kellan Bridge was designed by Weber.",
        ),
        (
            "Le pont Kellan a été conçu par l'architecte Lukas Weber et inauguré en 1921.",
            "Le pont Kellan a été conçu par Lukas Weber.",
        ),
        (
            "El puente Kellan fue diseñado por el arquitecto Lukas Weber.",
            "El puente Kellan fue diseñado por Weber.",
        ),
    ],
)
def test_the_titled_name_itself_is_no_rival(passage: str, claim: str) -> None:
    assert check(claim, passage) == ()


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "Lukas Weber founded Norvik Foods in Bergen in 1950.",
            "Sorensen founded Norvik Foods in 1950.",
            "Lukas Weber",
        ),
        (
            "Lukas Weber fonda Norvik Foods à Bergen en 1950.",
            "Sorensen fonda Norvik Foods en 1950.",
            "Lukas Weber",
        ),
        (
            "Lukas Weber fundó Norvik Foods en Bergen en 1950.",
            "Sorensen fundó Norvik Foods en 1950.",
            "Lukas Weber",
        ),
        (
            "Lukas Weber gründete Norvik Foods 1950 in Bergen.",
            "Sorensen gründete Norvik Foods 1950.",
            "Lukas Weber",
        ),
    ],
)
def test_a_lone_opening_name_beside_a_dropped_place(passage: str, claim: str, rival: str) -> None:
    """The place the claim drops is nearest the claim's other name too; the word beside the
    subject ("founded") settles which name it stands for."""
    assert ("entity", "Sorensen", rival) in [
        (r.check, r.claim, r.evidence) for r in check(claim, passage)
    ]


def test_a_verb_in_another_inflection_stands_beside_the_same_slot() -> None:
    """French participles agree ("créée" after "créé"); the passive's agent is the active
    subject."""
    passage = "Lukas Weber a créé l'entreprise Norvik à Bergen en 1950."
    claim = "L'entreprise Norvik a été créée par Sorensen."
    assert ("entity", "Sorensen", "Lukas Weber") in [
        (r.check, r.claim, r.evidence) for r in check(claim, passage)
    ]


def test_words_beside_pass_over_a_title() -> None:
    sentence = parse("The bridge was designed by the architect Lukas Weber in 1921.", "en")
    before, after = words_beside(sentence, "Lukas Weber")
    assert before == {"architect", "designed"}
    assert after == {"1921"}


def test_words_beside_pass_over_a_described_title() -> None:
    sentence = parse("Le pont a été conçu par l'architecte allemand Lukas Weber.", "fr")
    assert words_beside(sentence, "Lukas Weber")[0] == {"allemand", "l'architecte", "conçu"}


def test_words_beside_keep_a_name_after_a_plain_word() -> None:
    """A lower-case word with no function word before it is no title: only it is beside."""
    sentence = parse("Critics praised Lukas Weber in 1921.", "en")
    assert words_beside(sentence, "Lukas Weber")[0] == {"praised"}
