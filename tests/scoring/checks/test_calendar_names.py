"""A month or weekday as a first name ("June Bishop", "August Lind"): a name, read whole by
``proper_names`` and kept out of the text's dates by ``parse``; a month before a number or
after a day's number stays a date."""

from __future__ import annotations

import pytest

from ragguard.language import detect
from ragguard.scoring.checks import check
from ragguard.scoring.checks.parse import parse
from ragguard.scoring.checks.proper_names import names, names_in

BUILT = {
    "en": (
        "The Kellan Bridge in Riga was built by Anna Brandt in 1931.",
        "{} built the Kellan Bridge.",
    ),
    "de": (
        "Die Kellan-Brücke in Riga wurde 1931 von Anna Brandt gebaut.",
        "{} hat die Kellan-Brücke gebaut.",
    ),
    "fr": (
        "Le pont Kellan à Riga a été construit par Anna Brandt en 1931.",
        "{} a construit le pont Kellan.",
    ),
    "es": (
        "El puente Kellan de Riga fue construido por Anna Brandt en 1931.",
        "{} construyó el puente Kellan.",
    ),
}


@pytest.mark.parametrize("language", sorted(BUILT))
@pytest.mark.parametrize("person", ["June Bishop", "May Chen", "August Lind", "Sunday Adeyemi"])
def test_a_first_name_that_is_a_month_or_weekday_is_a_rival(language: str, person: str) -> None:
    passage, claim = BUILT[language]
    reasons = [(r.check, r.claim) for r in check(claim.format(person), passage)]
    assert reasons[0] == ("entity", person)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It was built by June Bishop.", ("June Bishop",)),
        ("May Chen built it.", ("May Chen",)),
        ("It opened in June 1931.", ()),
        ("On 5 June Bishop Tutu spoke.", ("Bishop Tutu",)),
        ("In June, Bishop Tutu spoke.", ("Bishop Tutu",)),
        ("May I ask who built it?", ()),
    ],
)
def test_a_month_opens_a_name_only_before_a_capitalized_word(
    text: str, expected: tuple[str, ...]
) -> None:
    assert names(text) == expected


def test_a_german_month_opens_a_name_but_not_after_a_day() -> None:
    assert names_in("Die Brücke wurde von August Lind gebaut.", "de") == ("August Lind",)
    assert names_in("Am 5. August Lind traf.", "de") == ()


def test_a_month_that_opens_a_name_is_no_date() -> None:
    assert parse("It was built by April Moss.").months == frozenset()
    assert parse("It was built by April Moss in June.").months == frozenset({"june"})
    passage = "The Kellan Bridge was built by Anna Brandt and opened in June 1931."
    reasons = check("The Kellan Bridge was built by April Moss.", passage)
    assert [r.check for r in reasons] == ["entity"]


def test_a_month_as_a_first_name_is_no_cue_of_english() -> None:
    """ "May" opening "May Chen a construit ..." is a name, not the English modal."""
    assert detect("May Chen a construit le pont Kellan.") != "en"
    assert detect("May I ask who built the bridge?") == "en"
