"""Citation markers and references: resolution, stripping, unknown markers, non-citations."""

from __future__ import annotations

import pytest

from ragguard.errors import TraceValidationError
from ragguard.spans import ItemRef, parse_citations

ITEMS = [
    ItemRef("d1"),
    ItemRef("d7"),
    ItemRef("photo-a", "image"),
    ItemRef("3"),
    ItemRef("photo-b", "image"),
]


@pytest.mark.parametrize(
    ("text", "citations", "stripped"),
    [
        ("Paris is big [1].", ("d1",), "Paris is big."),
        ("Paris is big. [2]", ("d7",), "Paris is big."),
        (
            "Paris [2, 1], the capital [2,3], is big.",
            ("d7", "d1", "3"),
            "Paris, the capital, is big.",
        ),
        ("It is old [1-3].", ("d1", "d7", "3"), "It is old."),
        ("[d7] It is old [source: d1].", ("d7", "d1"), "It is old."),
    ],
)
def test_citations_resolve_and_are_stripped(
    text: str, citations: tuple[str, ...], stripped: str
) -> None:
    parse = parse_citations(text, ITEMS)
    assert parse.citations == citations
    assert parse.text == stripped
    assert parse.unknown == ()


def test_exact_id_wins_over_position() -> None:
    assert parse_citations("x [3]", ITEMS).citations == ("3",)
    assert parse_citations("x [4]", ITEMS).citations == ("3",)


def test_image_tags_are_references_to_the_nth_image() -> None:
    parse = parse_citations("<image1> shows a desk; <image2> a chair.", ITEMS)
    assert parse.references == ("photo-a", "photo-b")
    assert parse.citations == ()
    assert parse.text == "image 1 shows a desk; image 2 a chair."


def test_image_tag_falls_back_to_position_without_image_items() -> None:
    assert parse_citations("<image2> is red.", [ItemRef("a"), ItemRef("b")]).references == ("b",)


def test_content_phrases_are_references_and_unresolved_phrases_are_ignored() -> None:
    parse = parse_citations("Document 2 and passage 9 agree, as Image 2 shows.", ITEMS)
    assert parse.references == ("d7", "photo-b")
    assert parse.unknown == ()


@pytest.mark.parametrize(
    "text",
    ["It is big [citation needed].", "He wrote [sic] it.", "The array [a, b] is short."],
)
def test_ordinary_brackets_are_not_citations(text: str) -> None:
    parse = parse_citations(text, ITEMS)
    assert parse.citations == ()
    assert parse.text == text


def test_unknown_marker_raises_with_field_response_and_known_ids() -> None:
    with pytest.raises(TraceValidationError) as raised:
        parse_citations("Paris is big [9].", ITEMS)
    assert raised.value.field == "response"
    assert "[9]" in raised.value.message
    assert "'d1'" in raised.value.message
    with pytest.raises(TraceValidationError, match="<image3>"):
        parse_citations("<image3> is blue.", ITEMS)


def test_unknown_marker_is_flagged_in_flag_mode() -> None:
    parse = parse_citations("Big [doc9] and old [5-6] as <image3> shows.", ITEMS, "flag")
    assert parse.unknown == ("doc9", "6", "<image3>")
    assert parse.citations == ("photo-b",)
    assert parse.text == "Big and old as image 3 shows."
