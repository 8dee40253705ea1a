"""A value is weighed by its own clause: in a claim of several clauses, which passage
sentence talks of a year or a number is judged by the words of the value's clause (and the
sentence's subject), not by the whole claim, whose other clause may match another sentence
better ("clauses.topic_words")."""

from __future__ import annotations

import pytest

from ragguard.runtime.caches import clear_caches
from ragguard.scoring.checks import check, clauses
from ragguard.scoring.checks.parse import parse

ENGLISH = [
    ("Harlow Motors", "U.K.", "2021", "2019", "adjusted earnings per share were up sharply"),
    ("Brightwater", "German", "2022", "2018", "net revenue per store grew strongly"),
    ("Keller Foods", "Canadian", "2019", "2016", "operating margins in every segment improved"),
]


def _english(company: str, unit: str, year: str, other: str, second: str) -> tuple[str, str]:
    passage = (
        f"This gives us a high level of confidence in our {unit} business during the remainder"
        f" of {year}. {second[0].upper()}{second[1:]} against both the prior year and the"
        f" pre-pandemic first quarter of {other}."
    )
    claim = (
        f"{company}'s {unit} business is expected to perform well for the remainder of {year},"
        f" and {second} against the prior year and the pre-pandemic first quarter."
    )
    return claim, passage


def _dates(claim: str, passage: str) -> set[tuple[str, str]]:
    return {(r.claim, r.evidence) for r in check(claim, passage) if r.check == "date"}


@pytest.mark.parametrize("filler", ENGLISH, ids=lambda f: f[0])
def test_a_year_stated_for_its_own_clause_is_not_held_against_another_clause(filler):
    claim, passage = _english(*filler)
    assert _dates(claim, passage) == set()


@pytest.mark.parametrize("filler", ENGLISH, ids=lambda f: f[0])
def test_a_wrong_year_is_named_against_the_year_of_its_own_clause(filler):
    _, _, year, _, _ = filler
    claim, passage = _english(*filler)
    wrong = str(int(year) + 3)
    assert _dates(claim.replace(year, wrong), passage) == {(wrong, year)}


GERMAN_PASSAGE = (
    "Das gibt uns großes Vertrauen in unser britisches Geschäft für den Rest des Jahres 2021."
    " Der bereinigte Gewinn je Aktie stieg kräftig gegenüber dem Vorjahr und dem ersten"
    " Quartal 2019 vor der Pandemie."
)
GERMAN_CLAIM = (
    "Das britische Geschäft dürfte sich im Rest des Jahres 2021 gut entwickeln, und der"
    " bereinigte Gewinn je Aktie stieg kräftig gegenüber dem Vorjahr und dem ersten Quartal"
    " vor der Pandemie."
)


def test_the_same_reading_in_german():
    assert _dates(GERMAN_CLAIM, GERMAN_PASSAGE) == set()
    assert _dates(GERMAN_CLAIM.replace("2021", "2024"), GERMAN_PASSAGE) == {("2024", "2021")}


def test_a_one_clause_claim_is_weighed_whole():
    claim = "the tower was completed in 1889 and opened to the public in 1889"
    parsed = parse(claim)
    value = parsed.quantities[0]
    assert clauses.topic_words(parsed, value, frozenset()) == parsed.content


def test_each_clause_is_read_once_however_many_values_ask(monkeypatch):
    """Issue 45's bound: the clauses' words are read in time linear in the claim."""
    read = [0]
    original = clauses.content_of

    def counting(text: str, language: str = "en") -> frozenset[str]:
        read[0] += len(text)
        return original(text, language)

    monkeypatch.setattr(clauses, "content_of", counting)
    clear_caches("ragguard.scoring")
    one = "the tower had 300 rooms and 40 halls and 12 gates and 9 towers, "
    claim = (one * 200).rstrip(", ") + "."
    check(claim, "It has 300 rooms.")
    assert read[0] <= 3 * len(claim), (read[0], len(claim))
