"""Subjective/objective categorization with the RAG-Check lexicon, its guards and overrides."""

from __future__ import annotations

import pytest

from ragguard.spans import LEXICON, Categorizer


@pytest.fixture(scope="module")
def categorizer() -> Categorizer:
    return Categorizer()


@pytest.mark.parametrize(
    ("text", "lexicon_class"),
    [
        ("The bridge could collapse.", "modal_verbs"),
        ("In my opinion, the bridge is old.", "opinion_indicators"),
        ("It seems the bridge is old.", "hedges"),
        ("Several bridges are old.", "uncertain_quantifiers"),
        ("The bridge is usually closed.", "frequency_degree_adverbs"),
        ("The bridge is an important link.", "judgmental_adjectives"),
        ("It is possible that the bridge is old.", "conjectures"),
        ("The new bridge is better than the old one.", "comparisons_preferences"),
    ],
)
def test_each_lexicon_class_fires(categorizer: Categorizer, text: str, lexicon_class: str) -> None:
    assert categorizer.categorize(text) == ("subjective", [lexicon_class])


@pytest.mark.parametrize(
    "text",
    [
        "The Eiffel Tower is in Paris.",
        "It opened in May 2020.",
        "May 5 was a holiday.",
        "Tokyo is the most populous city.",
        "He moved to Great Britain.",
        "It was a best-selling album.",
        "The treaty was not signed until 1920.",
    ],
)
def test_objective_sentences_and_guards(categorizer: Categorizer, text: str) -> None:
    assert categorizer.categorize(text) == ("objective", [])


def test_several_classes_are_reported(categorizer: Categorizer) -> None:
    kind, classes = categorizer.categorize("I think it might be the best option.")
    assert kind == "subjective"
    assert classes == ["modal_verbs", "opinion_indicators", "judgmental_adjectives"]


def test_cues_match_case_insensitively_on_word_boundaries(categorizer: Categorizer) -> None:
    assert categorizer.matched_classes("MAYBE it rained.") == ["conjectures"]
    assert categorizer.matched_classes("Somebody mayor handsome.") == []


def test_add_and_remove_overrides() -> None:
    custom = Categorizer(add={"hedges": ["Kinda"]}, remove=["very", "uncertain_quantifiers"])
    assert custom.categorize("It is kinda red.") == ("subjective", ["hedges"])
    assert custom.categorize("It is very red.") == ("objective", [])
    assert custom.categorize("Many are red.") == ("objective", [])
    assert "uncertain_quantifiers" not in custom.lexicon
    assert "very" in LEXICON["frequency_degree_adverbs"]


def test_unknown_class_or_removal_raises() -> None:
    with pytest.raises(ValueError, match="unknown lexicon class 'hedging'"):
        Categorizer(add={"hedging": ["kinda"]})
    with pytest.raises(ValueError, match="'veeery'"):
        Categorizer(remove=["veeery"])
