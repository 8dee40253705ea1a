"""A sentence parsed once (``checks.parse``)."""

from __future__ import annotations

import importlib

import pytest

parse_module = importlib.import_module("ragguard.scoring.checks.parse")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The Eiffel Tower", "en"),
        ("the world No.", "en"),
        ("Kellan-Brücke am Rhein", "de"),
        ("le 2e pont de l'Arvenia", "fr"),
        ("दूसरे स्थान पर", "hi"),
    ],
)
def test_content_of_a_phrase_is_the_content_its_parse_reads(text: str, language: str) -> None:
    """The entity rules take a name's words from ``content_of``, not from a whole parse:
    the two must read the same words."""
    assert parse_module.content_of(text, language) == parse_module.parse(text, language).content


def test_a_word_written_twice_is_read_as_written_once() -> None:
    twice = parse_module.parse("Paris is in France and Paris is large.", "en")
    once = parse_module.parse("Paris is in France and is large.", "en")
    assert twice.words.count("paris") == 2
    assert (twice.content, twice.keys) == (once.content, once.keys)
