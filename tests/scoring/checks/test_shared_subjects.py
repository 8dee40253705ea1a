"""Clauses that share a subject ("The old bridge was built in 1862, closed in 1931, and
later demolished"), a day read with its month and year, a year read with the word after it,
and an ordinal that names an item of a series: each in every language whose lists allow it."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.clauses import clauses
from ragguard.scoring.checks.dates import days_and_months_before
from ragguard.scoring.checks.parse import sentences_of
from ragguard.scoring.checks.words import two_words_after
from ragguard.spans.split import split_sentences

# (language, passage, a claim it supports, the same claim with the other clause's value)
SHARED_SUBJECTS = [
    (
        "en",
        "The old harbour bridge in Riga was built in 1862, closed in 1931, and later demolished.",
        "The old harbour bridge closed in 1931.",
        "The old harbour bridge closed in 1862.",
    ),
    (
        "en",
        "The first season premiered on October 2, 2016, concluded on December 4, 2016, and "
        "had ten episodes.",
        "The first season concluded on December 4, 2016.",
        "The first season concluded on October 2, 2016.",
    ),
    (
        "de",
        "Die alte Hafenbrücke in Riga wurde 1862 gebaut, 1931 geschlossen und später abgerissen.",
        "Die alte Hafenbrücke wurde 1931 geschlossen.",
        "Die alte Hafenbrücke wurde 1862 geschlossen.",
    ),
    (
        "de",
        "Die erste Staffel der Serie begann am 3. März 1950, endete am 21. Juni 1950 und "
        "hatte zehn Folgen.",
        "Die erste Staffel endete am 21. Juni 1950.",
        "Die erste Staffel endete am 3. März 1950.",
    ),
    (
        "fr",
        "Le vieux pont du port de Riga a été construit en 1862, fermé en 1931, puis démoli.",
        "Le vieux pont du port a été fermé en 1931.",
        "Le vieux pont du port a été fermé en 1862.",
    ),
    (
        "es",
        "La primera temporada de la serie comenzó el 28 de agosto de 1950, terminó el 2 de "
        "enero de 1951 y tuvo diez episodios.",
        "La primera temporada terminó el 2 de enero de 1951.",
        "La primera temporada terminó el 28 de agosto de 1950.",
    ),
    (
        "hi",
        "रीगा का पुराना बंदरगाह पुल 1862 में बना, 1931 में बंद हुआ और बाद में तोड़ दिया गया।",
        "पुराना बंदरगाह पुल 1931 में बंद हुआ।",
        "पुराना बंदरगाह पुल 1862 में बंद हुआ।",
    ),
]


@pytest.mark.parametrize(("code", "passage", "right", "wrong"), SHARED_SUBJECTS)
def test_a_clause_with_no_subject_of_its_own_is_about_the_sentences(
    code: str, passage: str, right: str, wrong: str
) -> None:
    assert [r for r in check(right, passage, code) if r.check != "uncovered"] == []
    assert "date" in {r.check for r in check(wrong, passage, code)}


def test_a_continuing_clause_holds_the_subjects_words_and_a_clause_of_its_own_does_not() -> None:
    _, closed, demolished = clauses(
        "The old bridge was built in 1862, closed in 1931, and was demolished in 1990."
    )
    assert {"old", "bridg", "clos"} <= closed.content and closed.own == {"clos"}
    assert {"old", "bridg"} <= demolished.content
    _, museum = clauses("The station opened in 1900, and the museum opened in 1950.")
    assert "station" not in museum.content  # "the museum" is a subject of its own
    _, adjusted = clauses("Revenues were up 19%, adjusted EBITDA was up 21%.")
    assert "revenu" not in adjusted.content  # a lower-case subject before its verb


def test_a_clause_is_about_a_value_only_by_a_word_of_its_own() -> None:
    """ "ended in divorce in 1977" shares the subject "first marriage" but says nothing of
    when it started."""
    passage = (
        "Harrison 's first marriage , to model Pattie Boyd in 1966 , ended in divorce in 1977 ."
    )
    assert check("George Harrison's first marriage started in 1966.", passage) == ()


def test_a_span_of_years_is_one_clause() -> None:
    passage = "The first building was designed by Ralph Rapson and was operated from 1963 -- 2006 ."
    assert check("The first building stopped operating in 2006.", passage) == ()


DATES_READ_WITH_THEIR_WORDS = [
    # a day with its month and year
    ("Not a thing before May 8, 1915.", "Not a thing before May 7, 1915.", "7"),
    (
        "The first season concluded on December 2, 2016.",
        "The first season premiered on October 2, 2016, concluded on December 4, 2016.",
        "4",
    ),
    ("The first season concluded on December 4, 2016.", SHARED_SUBJECTS[1][1], None),
    # a name past a comma is no unit of a year
    (
        "In the 1960's, Samsung entered the electronics industry.",
        "Samsung entered the electronics industry in the late 1960s. Since 1990 , Samsung "
        "has increasingly globalised its activities.",
        None,
    ),
    # the word right after a year says what it dates
    (
        "Victor Frankenstein is a 1818 American film.",
        "Victor Frankenstein is a 2015 American science fiction film.",
        "2015",
    ),
]


@pytest.mark.parametrize(("claim", "passage", "rival"), DATES_READ_WITH_THEIR_WORDS)
def test_a_date_is_read_with_its_own_words(claim: str, passage: str, rival: str | None) -> None:
    """A day by its month and year; a year by the word right after it, not by a name or
    number past a comma."""
    found = [r.evidence for r in check(claim, passage) if r.check == "date"]
    assert found == ([rival] if rival else [])


def test_the_days_a_passage_writes_with_a_year() -> None:
    text = "premiered on October 2, 2016, concluded on December 4, 2016"
    assert days_and_months_before(text, "2016") == [(2, "october"), (4, "december")]


@pytest.mark.parametrize(
    ("code", "passage", "claim"),
    [
        (
            "en",
            "The first album was recorded in 1912 and released in 1931.",
            "The first album was released in 1931.",
        ),
        (
            "fr",
            "Le premier album a été enregistré en 1912, est sorti en 1931 et réédité en 2004.",
            "Le premier album est sorti en 1931.",
        ),
        (
            "es",
            "El primer álbum fue grabado en 1912, publicado en 1931 y reeditado en 2004.",
            "El primer álbum fue publicado en 1931.",
        ),
        (
            "de",
            "Das erste Album wurde 1912 aufgenommen und 1931 veröffentlicht.",
            "Das erste Album wurde 1931 veröffentlicht.",
        ),
    ],
)
def test_an_ordinal_naming_an_item_of_a_series_ranks_nothing(
    code: str, passage: str, claim: str
) -> None:
    """ "The first album was released" claims no ranking by release: the verb after "was" is
    no place the ranking is narrowed to, and a claim with a year says nothing holds now."""
    assert [r for r in check(claim, passage, code) if r.check != "uncovered"] == []


def test_a_day_before_its_month_ends_no_sentence() -> None:
    text = "Die erste Staffel begann am 28. August 1822, endete am 21. Juni 1822."
    assert sentences_of(text, "de") == [text]
    assert [s.text for s in split_sentences("Sie endete am 21. Juni 1822. Sie war kurz.")] == [
        "Sie endete am 21. Juni 1822.",
        "Sie war kurz.",
    ]


def test_the_words_after_a_value_past_its_date() -> None:
    assert two_words_after("पुराना पुल 1838 में बंद हुआ।", "1838") == ("में", "बंद")
    months = frozenset({"märz"})
    assert two_words_after("am 3. März 1881 geboren.", "3", months) == ("geboren",)
