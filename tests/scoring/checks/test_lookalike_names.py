"""Names that look like the passage's: the same first name and the opening of the surname,
or the same initials, are other names (``checks.entities``: ``holds_name``,
``_spelt_alike``); one name spelt two ways and an acronym written out stay one name."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.proper_names import spelled_out_acronym

BUILT = {
    "en": "The Kellan Bridge in Riga was built by {} and opened in 1931.",
    "de": "Die Kellan-Brücke in Riga wurde von {} gebaut und 1931 eröffnet.",
    "fr": "Le pont Kellan à Riga a été construit par {} et inauguré en 1931.",
    "es": "El puente Kellan de Riga fue construido por {} e inaugurado en 1931.",
}
CLAIM = {
    "en": "{} built the Kellan Bridge.",
    "de": "{} hat die Kellan-Brücke gebaut.",
    "fr": "{} a construit le pont Kellan.",
    "es": "{} construyó el puente Kellan.",
}


def _entity_reasons(claim: str, passage: str) -> list[tuple[str, str]]:
    return [(r.claim, r.evidence) for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize("language", sorted(BUILT))
@pytest.mark.parametrize(
    ("stated", "claimed"),
    [
        ("Lukas Weber", "Lukas Wegener"),
        ("Emil Durand", "Emil Dupont"),
        ("Lukas Weber", "Li Wei"),
        ("Tomas Keller", "Tina Kovac"),
    ],
    ids=["surname opening", "surname opening 2", "initials, short name", "initials"],
)
def test_a_name_that_looks_like_the_passage_one_is_another_name(
    language: str, stated: str, claimed: str
) -> None:
    passage = BUILT[language].format(stated)
    claim = CLAIM[language].format(claimed)
    assert _entity_reasons(claim, passage) == [(claimed, stated)]


@pytest.mark.parametrize(
    ("stated", "claimed"),
    [
        ("Lukas Weber", "Lukas Webber"),
        ("Stephen Brandt", "Steven Brandt"),
        ("Alexander Brandt", "Aleksandr Brandt"),
        ("Alexander Brandt", "Alex Brandt"),
        ("Lukas Weber", "L. Weber"),
    ],
    ids=["a letter doubled", "two letters", "a transliteration", "a short form", "an initial"],
)
def test_one_name_spelt_two_ways_stays_one_name(stated: str, claimed: str) -> None:
    passage = BUILT["en"].format(stated)
    assert _entity_reasons(CLAIM["en"].format(claimed), passage) == []


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("The United Nations was founded in 1945.", "The UN was founded in 1945."),
        ("The UN was founded in 1945.", "The United Nations was founded in 1945."),
        ("The U.N. was founded in 1945.", "The United Nations was founded in 1945."),
        ("The United Nations was founded in 1945.", "The U.N. was founded in 1945."),
    ],
    ids=["words, acronym", "acronym, words", "stops, words", "words, stops"],
)
def test_an_acronym_and_its_words_stay_one_name(passage: str, claim: str) -> None:
    assert _entity_reasons(claim, passage) == []


def test_two_names_of_many_words_with_one_acronym_are_two_names() -> None:
    reasons = _entity_reasons(
        "The Urban Network was founded in 1945.", "The United Nations was founded in 1945."
    )
    assert reasons == [("Urban Network", "United Nations")]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Lukas Weber", "lw"), ("United Nations", "un"), ("U.N.", ""), ("Weber", "")],
)
def test_only_a_name_of_whole_words_spells_out_an_acronym(name: str, expected: str) -> None:
    assert spelled_out_acronym(name) == expected
