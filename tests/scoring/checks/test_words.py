"""The words around a value (``checks.words``)."""

from __future__ import annotations

from ragguard.scoring.checks.words import counts_unit, two_words_before, unit_after


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
