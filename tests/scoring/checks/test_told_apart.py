"""A passage that states two values of one kind tells them apart by the words after each
("$ 20.3 million on its opening day and $ 60.2 million on its opening weekend"): a claim
that puts one value before the other's words states the wrong one, though the passage
writes it ("quantity_rules._told_rival")."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

FILLERS = [
    ("Kung Fu Panda", "grossing", "took", "$ 20.3 million", "$ 60.2 million", "opening day"),
    ("The museum", "welcoming", "welcomed", "41,000 visitors", "52,000 visitors", "first month"),
    ("The new line", "carrying", "carried", "8,500 riders", "14,200 riders", "first week"),
]
"""Subject, the passage's verb, the claim's, a value of the first period, one of a year."""


def _passage(subject: str, verb: str, first: str, second: str, period: str) -> str:
    year = f"{second} over the whole year"
    return f"{subject} opened in May , {verb} {first} in its {period} and {year} ."


def _claim(subject: str, verb: str, value: str, period: str) -> str:
    return f"{subject} {verb} {value.replace('$ ', '$')} {period}, as reported."


def _reported(value: str) -> str:
    """The value as the check reports it: its number and scale, no currency or unit."""
    words = value.replace("$ ", "").split(" ")
    return " ".join(words[:2]) if words[1:2] == ["million"] else words[0]


@pytest.mark.parametrize(("subject", "verb", "said", "first", "second", "period"), FILLERS)
def test_a_value_put_before_the_other_values_words_is_flagged(
    subject: str, verb: str, said: str, first: str, second: str, period: str
) -> None:
    passage = _passage(subject, verb, first, second, period)
    found = [
        (r.check, r.evidence)
        for r in check(_claim(subject, said, first, "over the whole year"), passage)
    ]
    assert ("number", _reported(second)) in found


@pytest.mark.parametrize(("subject", "verb", "said", "first", "second", "period"), FILLERS)
def test_each_value_with_its_own_words_is_no_contradiction(
    subject: str, verb: str, said: str, first: str, second: str, period: str
) -> None:
    passage = _passage(subject, verb, first, second, period)
    for value, words in ((first, f"in its {period}"), (second, "over the whole year")):
        assert "number" not in [
            r.check for r in check(_claim(subject, said, value, words), passage)
        ]


def test_ranks_are_left_to_their_own_rules() -> None:
    """Words after a rank say little: "the fifth largest island in Indonesia" is no wrong
    rank against "the 13th largest island, and the fifth largest in Indonesia"."""
    passage = "Java is the world's 13th largest island, and the fifth largest in Indonesia."
    claim = "Java is the fifth largest island in Indonesia."
    assert "number" not in [r.check for r in check(claim, passage)]
