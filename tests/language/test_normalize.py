"""Text normalisation (``ragguard.language.normalize``): format characters out, the listed
folds, NFC, and nothing of NFKC beyond them; the checks and the lite support score read the
normalised text, while spans keep the answer's own text and offsets."""

from __future__ import annotations

import pytest

from ragguard.language import normalized
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
