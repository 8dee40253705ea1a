"""The words around a value (``checks.words``)."""

from __future__ import annotations

import re

import pytest

from ragguard.scoring.checks.words import (
    WORD,
    counts_unit,
    first_words,
    two_words_before,
    unit_after,
)


def test_the_words_before_a_value_are_read_however_far_it_sits():
    long_prefix = "word " * 60
    assert two_words_before(f"{long_prefix}moved to Ulm in 1901", "Ulm") == ("moved", "to")
    assert two_words_before("In 1901", "1901") == ("in",)
    assert two_words_before("income of $ 87,894", "87,894") == ("income", "of")
    assert two_words_before("no such value", "Ulm") == ()


def test_the_unit_after_a_number_is_its_stemmed_noun() -> None:
    assert unit_after("The tower contains 57 elevators.", "57") == "elevator"
    assert unit_after("It cost 57 of them.", "57") == ""
    assert counts_unit("its seventh and final season", "seventh", "season")
    assert not counts_unit("its seventh episode", "seventh", "season")


BACKTRACKING_WORD = re.compile(r"[^\W\d_]+(?=['’]s\b)|[^\W\d_]+(?:['’][^\W\d_]+)?|\d+(?:[.,]\d+)*")
"""``WORD`` as it was before its possessive ``++``: the two must read every text alike."""


@pytest.mark.parametrize(
    "text",
    [
        "John's book, the Smiths' house and its",
        "don't, rock'n'roll, a'b'c'd, l'Arvenia, qu'Émile",
        "8,849 m, 1.5 million, 2018–19, $ 87,894",
        "Zürich's Müller-Brücke, São Paulo’s, O'Brien's",
        "दूसरे स्थान पर, 12th, the 2nd-largest",
    ],
)
def test_the_word_pattern_reads_as_its_backtracking_form(text: str) -> None:
    assert WORD.findall(text) == BACKTRACKING_WORD.findall(text)
    assert [m.span() for m in WORD.finditer(text)] == [
        m.span() for m in BACKTRACKING_WORD.finditer(text)
    ]


def test_the_first_words_of_a_text_are_read_without_the_rest() -> None:
    assert first_words("Weber wrote the novel in 1931.", 2) == ["Weber", "wrote"]
    assert first_words("Weber", 2) == ["Weber"]
    assert first_words("", 2) == []
