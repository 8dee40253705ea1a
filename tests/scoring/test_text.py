"""The support head's text utilities (``scoring.lexical.text``) in each language: tokens, numbers,
negation and evidence sentences."""

from __future__ import annotations

import pytest

from ragguard.scoring.lexical import text as tx


def test_hindi_has_content_tokens_so_coverage_is_measured() -> None:
    claim = "भारत की राजधानी मुंबई है।"
    passage = "भारत की राजधानी नई दिल्ली है।"
    tokens = tx.content_tokens(claim)
    assert tokens == {"भारत", "राजधानी", "मुंबई"}  # vowel signs kept, "की"/"है" are stopwords
    assert tx.recall(tokens, tx.content_tokens(passage)) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("sentence", "tokens"),
    [
        ("Die Stadt hat 3,5 Millionen Einwohner.", {"stadt", "3.5", "millionen", "einwohner"}),
        ("El museo está en la ciudad de Madrid.", {"museo", "ciudad", "madrid"}),
        ("Le musée est situé à Paris.", {"musée", "situé", "paris"}),
    ],
)
def test_other_languages_use_their_own_stopwords(sentence: str, tokens: set[str]) -> None:
    assert tx.content_tokens(sentence) == tokens


def test_ascii_english_keeps_the_tokens_the_heads_were_trained_on() -> None:
    assert tx.content_tokens("The cats were sitting on 1,000 mats.") == {
        "cat",
        "sit",
        "mat",
        "1,000",
    }
    assert tx.bigrams("The gates closed") == {("the", "gat"), ("gat", "clos")}


def test_a_caller_may_name_the_language_of_a_short_text() -> None:
    short = "Einwohner: 3,5 Mio."  # no cue word: detection says "und"
    assert tx.numbers(short) == {"35"}  # read as English, where "3,5" is no decimal
    assert tx.numbers(short, "de") == {"3.5"}
    assert tx.is_negated("Museo: nunca.") and tx.is_negated("Museo: nunca.", "es")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Berlin hat 3,5 Millionen Einwohner.", "Berlin hat heute 3,5 Millionen Einwohner.", True),
        ("Berlin hat 3,5 Millionen Einwohner.", "Berlin hat 35 Millionen Einwohner.", False),
        ("El edificio costó 1.000 euros.", "El edificio costó 1000 euros.", True),
        ("इसकी आबादी २०२३ में बढ़ी।", "इसकी आबादी 2023 में बढ़ी।", True),
        ("It cost 1,000 dollars.", "It cost 1000 dollars.", True),
    ],
)
def test_numbers_are_read_in_the_texts_notation(a: str, b: str, same: bool) -> None:
    assert (tx.numbers(a) == tx.numbers(b)) is same


@pytest.mark.parametrize(
    ("sentence", "negated"),
    [
        ("Das Museum ist montags nicht geöffnet.", True),
        ("Das Museum ist montags geöffnet.", False),
        ("El museo nunca abre los lunes.", True),
        ("Le musée n'ouvre jamais le lundi.", True),
        ("Le musée ouvre le lundi.", False),
        ("यह संग्रहालय सोमवार को नहीं खुलता है।", True),
        ("यह संग्रहालय सोमवार को खुलता है।", False),
        ("The museum does not open on Mondays.", True),
    ],
)
def test_is_negated_reads_each_languages_cues(sentence: str, negated: bool) -> None:
    assert tx.is_negated(sentence) is negated


def test_evidence_sentences_split_at_the_danda_and_before_spanish_openers() -> None:
    hindi = "भारत एक देश है। इसकी राजधानी दिल्ली है॥ यह बड़ा है।"
    assert tx.evidence_sentences(hindi) == [
        "भारत एक देश है।",
        "इसकी राजधानी दिल्ली है॥",
        "यह बड़ा है।",
    ]
    spanish = "Es un museo. ¿Dónde está? ¡En Madrid! Él vino después."
    assert tx.evidence_sentences(spanish) == [
        "Es un museo.",
        "¿Dónde está?",
        "¡En Madrid!",
        "Él vino después.",
    ]
    assert tx.evidence_sentences("The U.S. army won. It is done.") == [
        "The U.S. army won.",
        "It is done.",
    ]
