"""Ranks written in digits (``checks.digit_ranks``): read as a rank, never a count, by the
number checks, and as the language's rank word by the superlative check, in the five
languages with rank tables."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks.digit_ranks import ranks_as_words
from ragguard.scoring.checks.numbers import quantities
from ragguard.scoring.checks.parse import parse
from tests.scoring.checks.passages import fired

RANKED = {
    "en": "Lake Vorna lies in the north of Arvenia. It is the {rank} largest lake in Arvenia.",
    "de": "Der Vorna-See liegt im Norden von Arvenia. Er ist der {rank} größte See von Arvenia.",
    "fr": "Le lac Vorna se situe au nord de l'Arvenia. C'est le {rank} plus grand lac du pays.",
    "es": "El lago Vorna está en el norte de Arvenia. Es el {rank} lago más grande de Arvenia.",
    "hi": "वोर्ना झील आर्वेनिया के उत्तर में है। यह आर्वेनिया की {rank} सबसे बड़ी झील है।",
}
TOP = {
    "en": "Lake Vorna is the largest lake in Arvenia.",
    "de": "Der Vorna-See ist der größte See von Arvenia.",
    "fr": "Le lac Vorna est le plus grand lac de l'Arvenia.",
    "es": "El lago Vorna es el lago más grande de Arvenia.",
    "hi": "वोर्ना झील आर्वेनिया की सबसे बड़ी झील है।",
}
RANK_CLAIM = {
    "en": "Lake Vorna is the {rank} largest lake in Arvenia.",
    "de": "Der Vorna-See ist der {rank} größte See von Arvenia.",
    "fr": "Le lac Vorna est le {rank} plus grand lac de l'Arvenia.",
    "es": "El lago Vorna es el {rank} lago más grande de Arvenia.",
    "hi": "वोर्ना झील आर्वेनिया की {rank} सबसे बड़ी झील है।",
}
# (digits, the same rank in words, another rank in words); German writes its rank words
# into the superlative ("zweitgrößte"), so its claim templates take the word glued
SAME_AND_OTHER = {
    "en": ("2nd", "second", "third"),
    "de": ("2.", "zweit", "dritt"),
    "fr": ("2e", "deuxième", "troisième"),
    "es": ("2.º", "segundo", "tercer"),
    "hi": ("2री", "दूसरी", "तीसरी"),
}


def _filled(template: str, code: str, rank: str) -> str:
    if code == "de" and not rank[0].isdigit():
        return template.replace("{rank} ", rank)
    return template.format(rank=rank)


def _claim(code: str, rank: str) -> str:
    return _filled(RANK_CLAIM[code], code, rank)


def _passage(code: str, rank: str) -> str:
    return _filled(RANKED[code], code, rank)


def _vetoes(claim: str, passage: str, code: str) -> set[str]:
    return {kind for kind, _, _ in fired(claim, passage) if kind != "uncovered"}


@pytest.mark.parametrize("code", list(RANKED))
def test_a_rank_in_digits_in_the_passage_is_not_the_top(code: str) -> None:
    digits = SAME_AND_OTHER[code][0]
    assert "superlative" in _vetoes(TOP[code], _passage(code, digits), code)


@pytest.mark.parametrize("code", list(RANKED))
def test_a_rank_in_digits_states_the_same_rank_in_words(code: str) -> None:
    digits, same, other = SAME_AND_OTHER[code]
    assert _vetoes(_claim(code, same), _passage(code, digits), code) == set()
    assert _vetoes(_claim(code, digits), _passage(code, same), code) == set()
    assert _vetoes(_claim(code, other), _passage(code, digits), code)


@pytest.mark.parametrize("code", list(RANKED))
def test_a_rank_in_digits_is_no_count(code: str) -> None:
    (rank,) = quantities(_claim(code, SAME_AND_OTHER[code][0]), code)
    assert (rank.kind, rank.value) == ("ordinal", 2.0)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("the 2nd-largest lake", "en", ("the", "second", "largest", "lake")),
        ("der 2. größte See", "de", ("der", "zweitgrößte", "see")),
        ("la 6.ª estación más concurrida", "es", ("la", "sexto", "estación", "más", "concurrida")),
    ],
)
def test_a_rank_in_digits_reads_as_its_word(text: str, code: str, words: tuple[str, ...]) -> None:
    assert parse(text, code).words == words


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Die Brücke wurde am 2. Mai eröffnet.", "de"),  # a day: its noun is capitalized
        ("Sie wurde 1931. Dann kam der Krieg.", "de"),  # a sentence ending in a year
        ("It ranks 21st in the league.", "en"),  # no word for the rank: left as written
    ],
)
def test_only_a_rank_the_language_has_a_word_for_is_rewritten(text: str, code: str) -> None:
    assert ranks_as_words(text, code) == text


def test_a_day_after_its_german_number_stays_a_day() -> None:
    assert [q.kind for q in quantities("Die Brücke wurde am 2. Mai 1931 eröffnet.", "de")] == [
        "day",
        "year",
    ]


def test_a_german_rank_written_apart_is_joined() -> None:
    """ "der vierte größte See" is "der viertgrößte See", not a rank-less superlative."""
    assert (
        ranks_as_words("Der See ist der vierte größte See.", "de")
        == "Der See ist der viertgrößte See."
    )
    assert (
        ranks_as_words("Der dritte Versuch scheiterte.", "de") == "Der dritte Versuch scheiterte."
    )
    passage = "Der Vesi-See ist der drittgrößte See von Norland."
    claim = "Der Vesi-See ist der vierte größte See von Norland."
    assert "superlative" in [kind for kind, _, _ in fired(claim, passage)]


@pytest.mark.parametrize(
    ("text", "code", "read"),
    [
        ("the 14th largest lake", "en", "the fourteenth largest lake"),
        ("el 14.º lago más grande", "es", "el decimocuarto lago más grande"),
        ("la 14e plus grande ville", "fr", "la quatorzième plus grande ville"),
        ("the 20th century", "en", "the 20th century"),  # past ten: only before a ranking
        ("It ranks 14th in the league.", "en", "It ranks 14th in the league."),
    ],
)
def test_a_rank_past_ten_is_read_as_a_word_before_a_ranking_only(
    text: str, code: str, read: str
) -> None:
    assert ranks_as_words(text, code) == read


@pytest.mark.parametrize(
    ("passage", "claim", "code"),
    [
        (
            "Lake Tessel is the eleventh-largest lake in Latvia.",
            "Lake Tessel is the largest lake in Latvia.",
            "en",
        ),
        (
            "Lake Tessel is the 17th largest lake in Latvia.",
            "Lake Tessel is the largest lake in Latvia.",
            "en",
        ),
        (
            "El lago Tessel es el undécimo lago más grande de Letonia.",
            "El lago Tessel es el lago más grande de Letonia.",
            "es",
        ),
        ("टेसल झील लातविया की चौदहवीं सबसे बड़ी झील है।", "टेसल झील लातविया की सबसे बड़ी झील है।", "hi"),
    ],
)
def test_a_rank_past_ten_is_not_the_top(passage: str, claim: str, code: str) -> None:
    assert "superlative" in {kind for kind, _, _ in fired(claim, passage)}
