"""A name opening the claim, or the agent of its passive (``checks.openings``): read against a
passage sentence that opens with another lone word and goes on as the claim does, or holds
every other word of the claim; a common word in its place ("Thanks", "Difficult") fires
nothing. A function word opening a name is no part of it ("C'est Tavrin qui")."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.parse import parse


def entities(claim: str, passage: str) -> list[tuple[str, str]]:
    return [(r.claim, r.evidence) for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize(
    ("passage", "claim", "found"),
    [
        (
            "Brandt wrote the novel in 1931. It is set in Riga.",
            "Weber wrote the novel in 1931.",
            ("Weber", "Brandt"),
        ),
        (
            "Vorna is the largest lake in Ferrowan. It drains into the Arctic Ocean.",
            "Tessel is the largest lake in Ferrowan.",
            ("Tessel", "Vorna"),
        ),
        (
            "Brandt a écrit le roman en 1931.",
            "Weber a écrit le roman en 1931.",
            ("Weber", "Brandt"),
        ),
        (
            "Brandt fundó la empresa en Riga en 1931.",
            "Weber fundó la empresa en Riga en 1931.",
            ("Weber", "Brandt"),
        ),
        ("Brandt schrieb den Roman 1931.", "Weber schrieb den Roman 1931.", ("Weber", "Brandt")),
        (
            "अन्ना ब्रांट 1931 में रीगा से तालिन चली गईं।",
            "लुकास वेबर 1931 में रीगा से तालिन चले गए।",
            ("लुकास वेबर", "अन्ना ब्रांट"),
        ),
        (
            "Tavrin designed the Kellan Bridge in Riga in 1950. It crosses the harbour.",
            "Anna Sorensen designed the Kellan Bridge in 1950.",
            ("Anna Sorensen", "Tavrin"),
        ),
        (
            "Tavrin, the architect, designed the Kellan Bridge in 1950.",
            "Weber, the architect, designed the Kellan Bridge in 1950.",  # a comma: still a name
            ("Weber", "Tavrin"),
        ),
        (
            "Tavrin a conçu le pont Kellan à Riga en 1950.",
            "Anna Sorensen a conçu le pont Kellan en 1950.",
            ("Anna Sorensen", "Tavrin"),
        ),
        (
            "Tavrin designed the Kellan Bridge in Riga in 1950.",
            "The Kellan Bridge was designed by Oldecott.",
            ("Oldecott", "Tavrin"),
        ),
        (
            "Tavrin diseñó el puente Kellan en Riga en 1950.",
            "El puente Kellan fue diseñado por Oldecott.",  # "diseñado" for "diseñó"
            ("Oldecott", "Tavrin"),
        ),
        (
            "Tavrin a conçu le pont Kellan à Riga en 1950.",
            "Le pont Kellan a été conçu par Oldecott.",
            ("Oldecott", "Tavrin"),
        ),
    ],
)
def test_a_lone_opening_name_in_another_names_place_fires(
    passage: str, claim: str, found: tuple[str, str]
) -> None:
    assert found in entities(claim, passage)
    assert not entities(passage.split(". ")[0].rstrip(".") + ".", passage)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Thank you for the help and support.", "Thanks for the help and support."),
        ("Tough question, that one.", "Difficult question"),
        ("Researchers found the wreck in 1931 off the coast.", "The wreck was found in 1931."),
        ("Brandt wrote the novel in 1931.", "Weber edited a magazine in Riga."),  # not one slot
        # a verb or participle opening the claim, by the word after it
        (
            "All the Eilat activities can be booked through Red Sea Sports.",
            "Book your activities through Red Sea Sports.",
        ),
        ("Around the corner is the huge, domed Pantheon.", "Turn the corner to find the Pantheon."),
        ("Merrion Square West, Dublin 2.", "Located in Dublin."),
        (
            "Toutes les activités d'Eilat se réservent chez Mer Rouge.",
            "Réservez vos activités chez Mer Rouge.",
        ),
    ],
)
def test_common_words_and_other_frames_fire_nothing(passage: str, claim: str) -> None:
    assert not entities(claim, passage)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Tavrin designed the Kellan Bridge in Riga in 1950.",
            "The Kellan Bridge was designed by Tavrin.",
        ),
        ("Tavrin a conçu le pont Kellan à Riga en 1950.", "Le pont Kellan a été conçu par Tavrin."),
        # the agent does other things than the passage says: no sentence holds them all
        (
            "Tavrin designed the Kellan Bridge in Riga in 1950.",
            "The Orlen Tower was painted by Oldecott.",
        ),
    ],
)
def test_the_same_agent_or_another_frame_fires_nothing(passage: str, claim: str) -> None:
    assert not entities(claim, passage)


@pytest.mark.parametrize(
    ("text", "language", "names"),
    [
        ("C'est Tavrin qui a conçu le pont Kellan.", "fr", ("Tavrin", "Kellan")),
        ("Fue Tavrin quien diseñó el puente Kellan.", "es", ("Tavrin", "Kellan")),
        ("La Paz es la sede del gobierno.", "es", ("La Paz",)),  # an article stays
        ("De Gaulle a fondé la République.", "fr", ("De Gaulle", "République")),  # a joiner too
    ],
)
def test_a_function_word_opening_a_name_is_no_part_of_it(
    text: str, language: str, names: tuple[str, ...]
) -> None:
    assert parse(text, language).names == names
