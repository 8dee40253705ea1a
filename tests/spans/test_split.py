"""Sentence splitting: boundaries, abbreviations, lists, markers and exact offsets."""

from __future__ import annotations

import pytest

from ragguard.spans import locate_spans, split_sentences
from ragguard.spans.split import never_final


def texts(response: str) -> list[str]:
    spans = split_sentences(response)
    for span in spans:
        assert response[span.start : span.end] == span.text
    return [span.text for span in spans]


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (
            "Dr. Smith met Mrs. Jones at 5 p.m. The talk was long.",
            ["Dr. Smith met Mrs. Jones at 5 p.m.", "The talk was long."],
        ),
        (
            "J. K. Rowling wrote it, e.g. the first book. It sold well.",
            ["J. K. Rowling wrote it, e.g. the first book.", "It sold well."],
        ),
        (
            "She moved to the U.S. in 1990. Apple Inc. It sells phones.",
            ["She moved to the U.S. in 1990.", "Apple Inc.", "It sells phones."],
        ),
        (
            "It opened on Jan. 5 after approx. two years. See Fig. 3 for details.",
            ["It opened on Jan. 5 after approx. two years.", "See Fig. 3 for details."],
        ),
        (
            "No. 5 won. No. It did not.",
            ["No. 5 won.", "No.", "It did not."],
        ),
        (
            "Pi is 3.14 and v2.0 cost $1.5 million. Done.",
            ["Pi is 3.14 and v2.0 cost $1.5 million.", "Done."],
        ),
        (
            "Wait... then it ended. It was over… Really?! Yes!",
            ["Wait... then it ended.", "It was over…", "Really?!", "Yes!"],
        ),
        (
            'He said "It works." Then he left.',
            ['He said "It works."', "Then he left."],
        ),
    ],
)
def test_sentence_boundaries(response: str, expected: list[str]) -> None:
    assert texts(response) == expected


def test_citation_marker_after_the_period_stays_with_its_sentence() -> None:
    assert texts("Paris is big. [1] It is old. [2][3]") == [
        "Paris is big. [1]",
        "It is old. [2][3]",
    ]
    assert texts("Paris is big [1]. It is old [2, 3].") == [
        "Paris is big [1].",
        "It is old [2, 3].",
    ]


def test_list_items_and_heading_are_their_own_spans_without_bullets() -> None:
    response = "Key facts:\n- Paris is the capital\n* It has 2 million people.\n• Old.\n"
    response += "1. First. Second sentence.\n2) Last item\n(3) Third"
    assert texts(response) == [
        "Key facts:",
        "Paris is the capital",
        "It has 2 million people.",
        "Old.",
        "First.",
        "Second sentence.",
        "Last item",
        "Third",
    ]


def test_newlines_are_hard_boundaries_and_blank_spans_are_dropped() -> None:
    response = "  A title without a stop\n\n\n   Body text here.  \r\n  \n"
    spans = split_sentences(response)
    assert [span.text for span in spans] == ["A title without a stop", "Body text here."]
    assert (spans[0].start, spans[1].end) == (2, response.index(".") + 1)
    assert split_sentences(" \n\t ") == []


def test_locate_given_spans_sequentially() -> None:
    response = "It is big. It is big. Gone."
    spans = locate_spans(response, ["It is big.", " It is big. ", "", "Gone."])
    # one span per entry: the blank entry is kept, empty, where the previous one ended
    assert [(s.start, s.end) for s in spans] == [(0, 10), (11, 21), (21, 21), (22, 27)]
    assert spans[1].text == "It is big."
    with pytest.raises(ValueError, match=r"entry 2 \('Missing.'\) is not in the response"):
        locate_spans(response, ["It is big.", "Gone.", "Missing."])


def test_hindi_sentences_end_at_the_danda() -> None:
    response = "भारत की राजधानी नई दिल्ली है। इसकी आबादी लगभग 3 करोड़ है॥ यह यमुना के किनारे है।"
    assert texts(response) == [
        "भारत की राजधानी नई दिल्ली है।",
        "इसकी आबादी लगभग 3 करोड़ है॥",
        "यह यमुना के किनारे है।",
    ]


def test_spanish_questions_and_exclamations_open_sentences() -> None:
    response = "¿Dónde está el Prado? Está en Madrid. ¡Abrió en 1819!"
    assert texts(response) == ["¿Dónde está el Prado?", "Está en Madrid.", "¡Abrió en 1819!"]


@pytest.mark.parametrize(
    "text",
    [
        "La biblioteca fue fundada por la Dra. Vaskell en 1810.",
        "La bibliothèque a été fondée par Mme. Vaskell en 1810.",
        "The bridge was designed by Rev. Vaskell in 1810.",
    ],
)
def test_every_languages_titles_end_no_sentence(text: str) -> None:
    assert [s.text for s in split_sentences(text)] == [text]


def test_an_abbreviation_that_may_close_a_sentence_still_does() -> None:
    spans = split_sentences("John Smith Sr. died in 1810. He was old.")
    assert [s.text for s in spans] == ["John Smith Sr. died in 1810.", "He was old."]
    assert never_final() >= {"dr", "dra", "mme"} and "sr" not in never_final()
