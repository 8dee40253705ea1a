"""SpanAnalyzer end to end: spans, kinds, citations, context chaining and batched embedding."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
import pytest

from ragguard.config import SpanConfig
from ragguard.errors import TraceValidationError
from ragguard.spans import ItemRef, Span, SpanAnalyzer

ITEMS = [ItemRef("d1"), ItemRef("d2"), ItemRef("img", "image")]


class CountingEmbed:
    """A bag-of-words hashing embedder that counts its calls."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        vectors = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                vectors[row, zlib.crc32(word.encode()) % 64] += 1.0
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def test_analyze_builds_spans_with_offsets_kinds_citations_and_context() -> None:
    response = "The tower is in Paris [1]. It was built in 1889. [2]\n- I think it is beautiful."
    spans = SpanAnalyzer().analyze(response, ITEMS)
    assert spans == [
        Span("The tower is in Paris.", 0, 26, "objective", citations=("d1",), language="en"),
        Span(
            "It was built in 1889.",
            27,
            52,
            "objective",
            ("d2",),
            context="The tower is in Paris.",
            language="en",
        ),
        Span(
            "I think it is beautiful.",
            55,
            79,
            "subjective",
            context="It was built in 1889.",
            language="en",
        ),
    ]
    assert response[spans[1].start : spans[1].end] == "It was built in 1889. [2]"


def test_abstention_is_checked_before_subjectivity() -> None:
    spans = SpanAnalyzer().analyze("I'm not sure, the documents don't say.", ITEMS)
    assert [s.kind for s in spans] == ["abstention"]


def test_given_spans_are_used_as_given() -> None:
    response = "Paris is big. It is old [2]."
    spans = SpanAnalyzer().analyze(response, ITEMS, ["Paris is big. It is", "old [2]."])
    assert [(s.text, s.start, s.end) for s in spans] == [
        ("Paris is big. It is", 0, 19),
        ("old.", 20, 28),
    ]
    assert spans[1].citations == ("d2",)


def test_marker_only_spans_are_dropped() -> None:
    spans = SpanAnalyzer().analyze("Paris is big.\n[1]\n---", ITEMS)
    assert [s.text for s in spans] == ["Paris is big."]


def test_unknown_citation_modes() -> None:
    with pytest.raises(TraceValidationError) as raised:
        SpanAnalyzer().analyze("Paris is big [7].", ITEMS)
    assert raised.value.field == "response"
    spans = SpanAnalyzer(unknown_citations="flag").analyze("Paris is big [7].", ITEMS)
    assert spans[0].unknown_citations == ("7",)
    with pytest.raises(ValueError, match="unknown_citations"):
        SpanAnalyzer(unknown_citations="ignore")  # type: ignore[arg-type]


def test_references_resolve_image_tags() -> None:
    spans = SpanAnalyzer().analyze("<image1> shows a red desk.", ITEMS)
    assert (spans[0].text, spans[0].references) == ("image 1 shows a red desk.", ("img",))


def test_analyze_many_embeds_all_spans_in_one_call() -> None:
    embed = CountingEmbed()
    analyzer = SpanAnalyzer(embed=embed)
    requests = [
        ("Paris is big. It is old.", ITEMS, None),
        ("The Seine flows west. It is long.", ITEMS, None),
        ("Lyon is smaller.", ITEMS, ["Lyon is smaller."]),
    ]
    results = analyzer.analyze_many(requests)
    assert [len(spans) for spans in results] == [2, 2, 1]
    examples = len(analyzer.abstention.examples)
    assert embed.calls == [examples, 5]
    analyzer.analyze_many(requests)
    assert embed.calls == [examples, 5, 5]


def test_cue_hits_are_not_embedded() -> None:
    embed = CountingEmbed()
    spans = SpanAnalyzer(embed=embed).analyze("I don't know.", ITEMS)
    assert [s.kind for s in spans] == ["abstention"]
    assert embed.calls == []


def test_abstention_needs_to_beat_the_nearest_statement_by_the_margin() -> None:
    text = "The answer is not here."
    margin = float(SpanAnalyzer(embed=CountingEmbed()).abstention.margins([text])[0])
    for offset, kind in ((-0.01, "abstention"), (0.01, "objective")):
        config = SpanConfig(abstention_margin=margin + offset)
        spans = SpanAnalyzer(config, embed=CountingEmbed()).analyze(text, ITEMS)
        assert [s.kind for s in spans] == [kind]


def test_each_span_carries_its_language_falling_back_to_the_responses() -> None:
    response = "Berlin hat 3,5 Millionen Einwohner. Paris. Die Stadt ist alt. The tower is tall."
    spans = SpanAnalyzer().analyze(response, ITEMS)
    assert [(s.text, s.language) for s in spans] == [
        ("Berlin hat 3,5 Millionen Einwohner.", "de"),
        ("Paris.", "de"),  # undetermined alone: the response's language
        ("Die Stadt ist alt.", "de"),
        ("The tower is tall.", "en"),
    ]
    assert SpanAnalyzer().analyze("Paris.", ITEMS)[0].language == "en"


def test_pre_split_spans_align_across_unicode_forms_and_spaces() -> None:
    import unicodedata

    response = unicodedata.normalize("NFD", "Le musée ouvre à 9\u202fh. Il ferme\u00a0le lundi.")
    given = ["Le musée ouvre à 9 h.", "Il  ferme le lundi."]  # composed, plain spaces
    spans = SpanAnalyzer().analyze(response, ITEMS, given)
    assert [response[s.start : s.end] for s in spans] == [s.text for s in spans]
    assert [unicodedata.normalize("NFC", s.text) for s in spans] == [
        "Le musée ouvre à 9\u202fh.",
        "Il ferme\u00a0le lundi.",
    ]
    assert [s.language for s in spans] == ["fr", "fr"]


def test_a_span_of_undetermined_language_is_judged_in_every_languages_words() -> None:
    """Too short to tell its language, it is read as English for scoring, but its
    subjectivity is judged with every supported language's articles: an evaluative word on
    a French subject ("Le sublime pont") hides no fact, as on an English one."""
    (french,) = SpanAnalyzer().analyze("Le sublime pont Kellan franchit le fleuve à Nantes.", ITEMS)
    (english,) = SpanAnalyzer().analyze("The sublime Kellan Bridge crosses the river.", ITEMS)
    assert french.language == "en" and french.kind == "objective"
    assert english.kind == "objective"
    (opinion,) = SpanAnalyzer().analyze("The Kellan Bridge is sublime.", ITEMS)
    assert opinion.kind == "subjective"
