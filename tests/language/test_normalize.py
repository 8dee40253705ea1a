"""Text normalisation (``ragguard.language.normalize``): format characters out, overrides
applied, the listed folds, NFC, and nothing of NFKC beyond them; the checks and the lite
support score read the normalised text (the checks its skeleton), while spans keep the
answer's own text and offsets."""

from __future__ import annotations

import pytest

from ragguard.language import normalized
from ragguard.language.normalize import UNREADABLE, skeleton, unreadable
from ragguard.scoring.checks import check

TOWER = "The Eiffel Tower was completed in 1889 in Paris."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("n\u200bot", "not"),  # zero-width space
        ("18\u200b89", "1889"),
        ("\ufeffsoft\u00adware\u200d", "software"),  # byte-order mark, soft hyphen, joiner
        ("\u200eParis\u200f", "Paris"),  # bidirectional marks
        ("１８８９ ＡＢＣ！", "1889 ABC!"),  # full-width forms
        ("8\u00a0849\u202fm and 3\u2009km", "8 849 m and 3 km"),  # no-break and thin spaces
        ("\u3000x", " x"),  # the ideographic space
        ("Cafe\u0301", "Café"),  # composed (NFC)
    ],
)
def test_format_characters_go_and_the_listed_forms_fold(text, expected):
    assert normalized(text) == expected


@pytest.mark.parametrize("text", ["10²", "km²", "H₂O", "ﬁnal", "½ cup", "Ⅻ", "x\u2028y"])
def test_what_nfkc_would_rewrite_stays(text):
    assert normalized(text) == text


def test_ascii_is_returned_as_it_is():
    text = "The Eiffel Tower was completed in 1889."
    assert normalized(text) is text


def test_a_zero_width_character_cannot_hide_a_negation_from_the_check():
    hidden = check("The Eiffel Tower was n\u200bot completed in 1889.", TOWER)
    assert [r.check for r in hidden] == ["negation"]


def test_a_zero_width_character_inside_a_year_is_still_the_year():
    assert check("The Eiffel Tower was completed in 18\u200b89.", TOWER) == ()


def test_the_support_score_reads_normalised_text_and_spans_keep_their_offsets(guard):
    response = "\u200bIt opened to the public.\u00a0"
    response += "The Eiffel Tower was n\u200bot completed in 18\u200b89."
    trace = {"trace_id": "zw", "query": "When?", "items": [{"id": "a", "text": TOWER}]}
    evaluation = guard.evaluate({**trace, "response": response})
    last = evaluation.spans[-1]
    assert [response[s.start : s.end] for s in evaluation.spans] == [
        s.text for s in evaluation.spans
    ]
    assert last.text.endswith("n\u200bot completed in 18\u200b89.")  # the answer's own text
    assert [r.check for r in last.reasons] == ["negation"] and last.supported is False
    plain = guard.evaluate({**trace, "response": "The Eiffel Tower was completed in 18\u200b89."})
    assert plain.spans[0].supported and not plain.spans[0].reasons


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no\u3164t no\uffa0t no\u115ft", "not not not"),  # Hangul fillers (Lo, not Cf)
        ("no\ufe0ft n\u034fot", "not not"),  # a variation selector, the grapheme joiner
        ("is \u202eton\u202c in", "is not in"),  # right-to-left override, shown "not"
        ("\u202e(1889)\u202c", "(9881)"),  # reversed, its brackets mirrored
        ("a \u202etxet", "a text"),  # an override with no PDF runs to the paragraph's end
        ("\u202etxet\nnot", "text\nnot"),  # ... and no further
        ("\u202dnot\u202c", "not"),  # left-to-right override over left-to-right text
    ],
)
def test_blank_letters_go_and_overrides_are_applied_as_shown(text, expected):
    assert normalized(text) == expected
    assert unreadable(normalized(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "x \u202e\u05e9\u05dc\u05d5\u05dd\u202c y",  # an override over Hebrew letters
        "x \u202e\u202bab\u202c\u202c y",  # an embedding inside an override
        "x \u202ea\u2067b\u2069\u202c y",  # an isolate inside an override
    ],
)
def test_an_override_that_cannot_be_settled_makes_the_text_unreadable(text):
    assert unreadable(normalized(text)) == UNREADABLE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("n\u043et n\u03bft \u0274\u1d0f\u1d1b n\u00f8t", "not not not not"),  # look-alikes
        ("\U0001d427\U0001d428\U0001d42d \u24dd\u24de\u24e3", "not not"),  # 𝐧𝐨𝐭 ⓝⓞⓣ
        ("nev\u0435r isn'\u0442 \u0131sn't", "never isn't isn't"),
        ("\u2464\u24ea\u24ea \u278e\u24ff\u24ff \u2460\u2468\u2468\u2468", "500 500 1999"),
        ("\u0661\u0668\u0668\u0669 \u0968\u0966\u0968\u0969 \u2469", "1889 2023 10"),
        ("Caf\u00e9 Stra\u00dfe ni\u00f1o \u0153uvre \u00e0 \u00fcber", None),  # kept
        ("10\u00b2 km\u00b2 H\u2082O \u00bd", None),  # superscripts, subscripts, fractions
    ],
)
def test_the_checks_read_a_skeleton(text, expected):
    assert skeleton(normalized(text)) == (text if expected is None else expected)


def test_the_models_read_the_letters_as_written():
    """The skeleton is for the checks: ``normalized`` (what the models read) keeps them."""
    assert normalized("n\u043et \u2464\u24ea\u24ea") == "n\u043et \u2464\u24ea\u24ea"


def test_a_text_the_checks_cannot_read_is_not_folded_into_latin():
    """Russian is not a language the checks read: its letters are never taken for Latin
    ones (the skeleton applies only once the pair's language is one the checks read)."""
    assert check("Эйфелева башня не в Париже.", "Эйфелева башня в Париже.") == ()


def test_a_claim_in_an_unsettled_override_is_left_unscored(guard):
    response = "The Eiffel Tower is \u202e\u05d0ton\u202c in Paris."
    trace = {"trace_id": "bidi", "query": "Where?", "items": [{"id": "a", "text": TOWER}]}
    evaluation = guard.evaluate({**trace, "response": response})
    (span,) = evaluation.spans
    assert span.supported is None and span.unscored_reason == UNREADABLE
    assert span.text == response  # the answer's own text
