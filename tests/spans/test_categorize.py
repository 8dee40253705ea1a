"""Subjective/objective categorization: opinions without checkable content are subjective,
hedged claims objective with their hedges recorded; the lexicon's guards and overrides."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ragguard.language import kinds_off, lexicon
from ragguard.spans import LEXICON, Categorizer
from ragguard.spans.categorize import RAG_CHECK_RULE, SubjectivityRule


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
        ("The old bridge is preferable.", "comparisons_preferences"),
        ("The view is breathtaking.", "evaluative"),
    ],
)
def test_each_lexicon_class_fires(categorizer: Categorizer, text: str, lexicon_class: str) -> None:
    assert categorizer.matched_classes(text) == [lexicon_class]
    assert categorizer.categorize(text).classes == [lexicon_class]


# (text, expected kind, expected hedges, why)
KINDS_AND_HEDGES = [
    ("I think it is the most beautiful tower.", "subjective", [], "first-person taste"),
    ("In my opinion, the bridge is old.", "subjective", [], "stated opinion, no fact named"),
    ("The bridge is an important link.", "subjective", [], "judgement, nothing checkable"),
    ("The new bridge is better than the old one.", "subjective", [], "comparison of taste"),
    ("I think it might be the best option.", "subjective", ["might"], "hedged opinion"),
    ("You should try the local bakery, it is wonderful.", "subjective", ["should"], "advice"),
    (
        "The Eiffel Tower was likely completed in 1925.",
        "objective",
        ["likely"],
        "hedged date claim: a wrong year must be scored",
    ),
    (
        "Some sources say it is 2,000 km long.",
        "objective",
        ["some sources say"],
        "reported figure: the frame is one hedge, 'some' inside it is not another",
    ),
    (
        "It may have been built by the Romans.",
        "objective",
        ["may"],
        "modal on a checkable builder",
    ),
    ("Several bridges are old.", "objective", ["several"], "quantifier on a fact"),
    ("The bridge is usually closed.", "objective", ["usually"], "frequency on a fact"),
    ("It is possible that the bridge is old.", "objective", ["it is possible that"], "conjecture"),
    (
        "Paris has many famous museums such as the Louvre.",
        "objective",
        ["many"],
        "judgemental word beside a checkable name",
    ),
    ("Toyota is a popular brand with 3 factories.", "objective", [], "opinion word, a number"),
    ("The Eiffel Tower is in Paris.", "objective", [], "plain fact"),
]


@pytest.mark.parametrize(("text", "kind", "hedges", "why"), KINDS_AND_HEDGES)
def test_only_opinions_are_subjective_and_hedges_are_recorded(
    categorizer: Categorizer, text: str, kind: str, hedges: list[str], why: str
) -> None:
    result = categorizer.categorize(text)
    assert (result.kind, result.hedges) == (kind, hedges), why


def test_rag_check_rule_exempts_any_cue() -> None:
    literal = Categorizer(rule=RAG_CHECK_RULE)
    hedged = literal.categorize("The Eiffel Tower was likely completed in 1925.")
    assert (hedged.kind, hedged.hedges) == ("subjective", ["likely"])


def test_unknown_checkable_content_raises() -> None:
    with pytest.raises(ValueError, match="'colour'"):
        Categorizer(rule=SubjectivityRule(checkable=("colour",)))


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
    assert categorizer.categorize(text) == ("objective", [], [], ())


def test_several_classes_are_reported(categorizer: Categorizer) -> None:
    kind, classes, *_ = categorizer.categorize("I think it might be the best option.")
    assert kind == "subjective"
    assert classes == ["modal_verbs", "opinion_indicators", "judgmental_adjectives", "evaluative"]


def test_cues_match_case_insensitively_on_word_boundaries(categorizer: Categorizer) -> None:
    assert categorizer.matched_classes("MAYBE it rained.") == ["conjectures"]
    assert categorizer.matched_classes("Somebody mayor handsome.") == []


def test_add_and_remove_overrides() -> None:
    custom = Categorizer(
        add={"hedges": ["Kinda"], "judgmental_adjectives": ["cute"]},
        remove=["very", "uncertain_quantifiers", "beautiful"],
    )
    assert custom.categorize("It is kinda red.") == ("objective", ["hedges"], ["kinda"], ())
    assert custom.categorize("It is very red.") == ("objective", [], [], ())
    assert custom.categorize("Many are red.") == ("objective", [], [], ())
    assert custom.categorize("It is cute.").kind == "subjective"
    assert custom.categorize("It is beautiful.").kind == "objective"
    assert "uncertain_quantifiers" not in custom.lexicon
    assert "very" in LEXICON["frequency_degree_adverbs"]


def test_unknown_class_or_removal_raises() -> None:
    with pytest.raises(ValueError, match="unknown lexicon class 'hedging'"):
        Categorizer(add={"hedging": ["kinda"]})
    with pytest.raises(ValueError, match="'veeery'"):
        Categorizer(remove=["veeery"])


@pytest.mark.parametrize(
    ("text", "language", "kind", "hedges"),
    [
        ("Creo que es un museo precioso.", "es", "subjective", []),
        ("El museo abrió en 1819 y es precioso.", "es", "objective", []),
        ("Probablemente abrió en 1819.", "es", "objective", ["probablemente"]),
        ("Je pense que c'est une belle ville.", "fr", "subjective", []),
        ("La ville compte peut-être 2 millions d'habitants.", "fr", "objective", ["peut-être"]),
        # German and Hindi: an evaluative predicate is set aside though names cannot be found
        # by their capitals; an opinion cue alone is not (it needs names); hedges recorded
        ("Ich denke, Berlin ist wunderschön.", "de", "subjective", []),
        ("Ich denke, Berlin hat drei Flughäfen.", "de", "objective", []),
        ("Berlin ist wahrscheinlich die größte Stadt.", "de", "objective", ["wahrscheinlich"]),
        ("शायद यह सबसे सुंदर शहर है।", "hi", "subjective", ["शायद"]),
        ("शायद इसका निर्माण 1889 में हुआ।", "hi", "objective", ["शायद"]),
    ],
)
def test_each_language_uses_its_own_cues(
    categorizer: Categorizer, text: str, language: str, kind: str, hedges: list[str]
) -> None:
    found = categorizer.categorize(text, language)
    assert (found.kind, found.hedges) == (kind, hedges)


def test_english_cues_do_not_fire_in_another_language(categorizer: Categorizer) -> None:
    # "personally" is an English opinion cue; "Personal" in a German span is a noun
    assert categorizer.categorize("Das Personal ist freundlich.", "de").classes == []


OPINION_SETS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "opinions"


def _seeded() -> list[tuple[str, str, str]]:
    """(language, text, kind) of the per-language opinion suite: at least 20 evaluative
    opinions and 20 opinion-cued checkable claims per language, as test cases."""
    rows = []
    for code in ("en", "de", "es", "fr", "hi"):
        with (OPINION_SETS / f"{code}.jsonl").open(encoding="utf-8") as handle:
            rows += [(code, r["text"], r["kind"]) for r in map(json.loads, handle)]
    return rows


@pytest.mark.parametrize(("language", "text", "kind"), _seeded())
def test_evaluative_opinions_are_subjective_and_opinion_cued_facts_objective(
    categorizer: Categorizer, language: str, text: str, kind: str
) -> None:
    expected = "subjective" if kind == "opinion" else "objective"
    assert categorizer.categorize(text, language).kind == expected


def test_the_suite_holds_twenty_of_each_kind_per_language() -> None:
    counts = Counter((code, kind) for code, _, kind in _seeded())
    assert len(counts) == 10 and min(counts.values()) >= 20


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I find Brazilian coffee more pleasant than Colombian coffee.", "subjective"),
        ("In my view the Apollo program was humanity's greatest adventure.", "subjective"),
        ("Paris is the most beautiful city in Europe.", "subjective"),
        ("I believe it opened in 1937.", "objective"),
        ("I think Fleming discovered it.", "objective"),
        ("I think he discovered it.", "objective"),
        ("Brazil produces more coffee than Colombia.", "objective"),
        ("I think the Eiffel Tower was completed in 1925.", "objective"),
        ("He is best known for his novels.", "objective"),
        ("The tower is probably the most beautiful in Paris.", "subjective"),
        ("The tower was probably completed in 1925.", "objective"),
    ],
)
def test_the_predicate_decides_not_the_names(
    categorizer: Categorizer, text: str, kind: str
) -> None:
    assert categorizer.categorize(text).kind == kind


@pytest.mark.parametrize("code", ["de", "es", "fr", "hi"])
def test_each_language_lists_evaluative_and_factual_cues_as_data(code: str) -> None:
    found = lexicon(code)
    assert found is not None and found.factual and found.subjective["evaluative"]
    assert "subjective" not in kinds_off(code)
