"""A ranking after another thing of its kind puts its subject second."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.parse import parse
from ragguard.scoring.checks.rankings import cues_of, split_rank
from ragguard.scoring.checks.runners_up import second_to_another

PASSAGES = {
    "en": "Lake Tessel is the largest lake in Latvia after Lake Vorna.",
    "de": "Nach dem Vorna-See ist der Tessel-See der größte See von Lettland.",
    "fr": "Le lac Tessel est le plus grand lac de Lettonie après le lac Vorna.",
    "es": "Después del lago Vorna, el lago Tessel es el lago más grande de Letonia.",
    "hi": "वोर्ना झील के बाद टेसल झील लातविया की सबसे बड़ी झील है।",
}
TOPS = {
    "en": "Lake Tessel is the largest lake in Latvia.",
    "de": "Der Tessel-See ist der größte See von Lettland.",
    "fr": "Le lac Tessel est le plus grand lac de Lettonie.",
    "es": "El lago Tessel es el lago más grande de Letonia.",
    "hi": "टेसल झील लातविया की सबसे बड़ी झील है।",
}


@pytest.mark.parametrize("language", sorted(PASSAGES))
def test_the_top_is_denied_by_a_ranking_after_another(language: str) -> None:
    assert "superlative" in {r.check for r in check(TOPS[language], PASSAGES[language])}


@pytest.mark.parametrize(
    ("claim", "language"),
    [
        ("Lake Tessel is the second-largest lake in Latvia.", "en"),
        ("Lake Vorna is the largest lake in Latvia.", "en"),  # the thing put first
        ("Der Tessel-See ist der zweitgrößte See von Lettland.", "de"),
        ("Le lac Tessel est le deuxième plus grand lac de Lettonie.", "fr"),
    ],
)
def test_the_second_rank_and_the_first_thing_are_stated(claim: str, language: str) -> None:
    assert "superlative" not in {r.check for r in check(claim, PASSAGES[language])}


def test_a_runner_up_word_with_no_thing_of_the_kind_puts_nothing_first() -> None:
    passage = "After the war, Lake Tessel was the largest lake in Latvia."
    assert check("Lake Tessel was the largest lake in Latvia.", passage) == ()


def test_the_reason_names_what_the_passage_puts_first() -> None:
    cues = cues_of("en")
    assert cues is not None
    sentence = parse(PASSAGES["en"])
    found = second_to_another(sentence, ("largest",), frozenset({"lake", "tessel"}), cues)
    assert found == "the largest after lake vorna"
    assert second_to_another(sentence, ("largest",), frozenset({"lake", "vorna"}), cues) is None


def test_rank_values() -> None:
    en, de = cues_of("en"), cues_of("de")
    assert en is not None and de is not None
    assert split_rank(("second", "largest"), en)[0] == 2
    assert split_rank(("largest",), en)[0] is None
    assert split_rank(("zweitgrößte",), de)[0] == 2
