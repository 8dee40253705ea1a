"""Names in any case (``checks.casing``): the entity check reads a name typed in lower case
or a claim written in capitals, and reads a common noun in a name's place as no name."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks.casing import recased
from tests.scoring.checks.passages import fired

TOWER = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was completed in 1889. It is 330 metres tall."
)


@pytest.mark.parametrize(
    ("claim", "read"),
    [
        ("The Eiffel Tower is in berlin.", "The Eiffel Tower is in Berlin."),
        ("the eiffel tower is in rome, italy.", "The Eiffel Tower is in Rome, italy."),
        ("THE EIFFEL TOWER IS IN BERLIN.", "The Eiffel Tower is in Berlin."),
        ("the eiffel tower is in paris.", "The Eiffel Tower is in Paris."),
        ("The Eiffel Tower is in Paris.", "The Eiffel Tower is in Paris."),
        ("NASA", "NASA"),  # too short to be shouting: an acronym
    ],
)
def test_names_are_read_in_any_case(claim: str, read: str) -> None:
    assert recased(claim, TOWER, "en") == read


@pytest.mark.parametrize(
    ("claim", "name"),
    [
        ("The Eiffel Tower is in berlin.", "Berlin"),
        ("the eiffel tower is in rome, italy.", "Rome"),
        ("THE EIFFEL TOWER IS IN BERLIN.", "Berlin"),
        ("the eiffel tower is in berlin and i love it.", "Berlin"),
    ],
)
def test_a_wrong_name_in_any_case_fires_the_entity_check(claim: str, name: str) -> None:
    assert fired(claim, TOWER) == [("entity", name, "Paris")]


@pytest.mark.parametrize(
    "claim",
    [
        "the eiffel tower is in paris.",
        "THE EIFFEL TOWER IS IN PARIS, FRANCE.",
        "The Eiffel Tower is the most famous sight in the world.",  # "the" precedes no name
        "The Eiffel Tower appears in movies.",  # a plural
        "The Eiffel Tower was shown in animation.",  # a common noun's ending
        "57 towers stand in paris.",  # a sentence opening with a number
    ],
)
def test_no_entity_reason_for_right_names_or_common_nouns(claim: str) -> None:
    assert [r for r in fired(claim, TOWER) if r[0] == "entity"] == []


def test_a_name_typed_in_lower_case_in_spanish() -> None:
    passage = "La torre Eiffel está en París, Francia."
    assert fired("La torre Eiffel está en berlín.", passage)[:1] == [("entity", "Berlín", "París")]


@pytest.mark.parametrize(
    ("claim", "passage", "name", "rival"),
    [
        (
            "fleming discovered penicillin in paris.",
            "Alexander Fleming discovered penicillin in London in 1928.",
            "Paris",
            "London",
        ),
        (
            "Lukas Weber Started Copperfield Mills In Amsterdam.",
            "Lukas Weber started Copperfield Mills in Bordeaux in 1950.",
            "Amsterdam",
            "Bordeaux",
        ),
        (
            "LUKAS WEBER STARTED BLUE FERN COMPANY.",
            "Mira Chandra started Blue Fern Company in Berlin in 1838.",
            "Lukas Weber",
            "Mira Chandra",
        ),
        (
            "elena marsh a créé l'entreprise blue fern à nantes.",
            "Elena Marsh a créé l'entreprise Blue Fern à Dublin en 1980.",
            "Nantes",
            "Dublin",
        ),
    ],
)
def test_title_case_capitals_and_caseless_claims_are_read(
    claim: str, passage: str, name: str, rival: str
) -> None:
    """A claim in title case is read in lower case; in a caseless claim, the opening words
    before the word the passage writes after a name are a name, and "in paris" no plural."""
    assert ("entity", name, rival) in fired(claim, passage)


def test_a_right_caseless_claim_fires_nothing() -> None:
    passage = "Alexander Fleming discovered penicillin in London in 1928."
    assert fired("fleming discovered penicillin in london.", passage) == []


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Lyme disease is caused by bacteria.",
            "Lyme disease is caused by Borrelia burgdorferi, a corkscrew-shaped bacterium.",
        ),
        (
            "The prize is judged by criteria of merit.",
            "The prize is judged by Anna Berg, on one criterion: merit.",
        ),
    ],
    ids=["bacteria", "criteria"],
)
def test_a_word_the_passage_writes_in_another_inflection_is_no_name(
    claim: str, passage: str
) -> None:
    assert recased(claim, passage, "en") == claim
    assert fired(claim, passage) == []


def test_a_wrong_lower_case_name_near_no_passage_word_still_fires() -> None:
    passage = "Alexander Fleming discovered penicillin in London in 1928."
    claim = "Fleming discovered penicillin in paris."
    assert ("entity", "Paris", "London") in fired(claim, passage)


@pytest.mark.parametrize(
    ("claim", "passage", "name", "rival"),
    [
        (
            "Fleming discovered penicillin in paris.",
            "Alexander Fleming discovered penicillin in London in 1928.",
            "Paris",
            "London",
        ),
        (
            "The Colosseum is in athens.",
            "The Colosseum is an amphitheatre in Rome.",
            "Athens",
            "Rome",
        ),
        (
            "El Coliseo está en atenas.",
            "El Coliseo es un anfiteatro situado en Roma, la capital de Italia.",
            "Atenas",
            "Roma",
        ),
    ],
)
def test_a_place_with_a_common_nouns_ending_in_a_names_slot_is_a_name(
    claim: str, passage: str, name: str, rival: str
) -> None:
    assert ("entity", name, rival) in fired(claim, passage)


def test_a_plural_after_a_name_used_as_an_adjective_stays_common() -> None:
    passage = "Aunt May is a character appearing in American comic books."
    assert fired("Aunt May is a character that appeared in movies.", passage) == []


COMPANY = {
    "en": "David Okoye started Amberline in Vilnius in 1994. It now has 3,200 employees.",
    "fr": "David Okoye a créé l'entreprise Amberline à Vilnius en 1994.",
}


@pytest.mark.parametrize(
    ("code", "claim"),
    [
        ("en", "david okoye started amberline in gdansk in 1994."),
        ("en", "DAVID OKOYE STARTED AMBERLINE IN GDANSK IN 1994."),
        ("en", "David Okoye Started Amberline In Gdansk In 1994."),
        ("fr", "david okoye a créé l'entreprise amberline à gdansk en 1994."),
        ("fr", "DAVID OKOYE A CRÉÉ L'ENTREPRISE AMBERLINE À GDANSK EN 1994."),
    ],
)
def test_a_place_before_a_year_in_a_claim_of_one_case_is_a_name(code: str, claim: str) -> None:
    assert "entity" in {kind for kind, _, _ in fired(claim, COMPANY[code])}


def test_a_lead_after_a_common_noun_in_a_claim_with_capitals_names_nothing() -> None:
    passage = "Ever since the Islamist regime came to power in Khartoum, the West pressed it."
    assert recased("The Islamists were in control in Khartoum.", passage, "en") == (
        "The Islamists were in control in Khartoum."
    )
