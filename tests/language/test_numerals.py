"""Numbers in words (``ragguard.language.numerals.spelled_numbers``): cardinals and years in
the five languages, read by one grammar from each language's ``[numbers]`` table."""

from __future__ import annotations

import pytest

from ragguard.language import lexicon
from ragguard.language.numerals import WORD_NUMBERS, spelled_numbers


def read(text: str, code: str) -> list[tuple[str, float, bool]]:
    return [(text[n.start : n.end], n.value, n.year) for n in spelled_numbers(text, code)]


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("It is three hundred and thirty metres tall.", "en", ("three hundred and thirty", 330)),
        ("Er ist dreihundertdreißig Meter hoch.", "de", ("dreihundertdreißig", 330)),
        ("Elle mesure trois cent trente mètres.", "fr", ("trois cent trente", 330)),
        ("Mide trescientos treinta metros.", "es", ("trescientos treinta", 330)),
        ("यह तीन सौ तीस मीटर ऊँचा है।", "hi", ("तीन सौ तीस", 330)),
        ("seventy-two and twenty - five", "en", ("seventy-two", 72)),
        ("einundzwanzig Tage", "de", ("einundzwanzig", 21)),
        ("quatre-vingt-dix-sept ans", "fr", ("quatre-vingt-dix-sept", 97)),
        ("vingt et un jours", "fr", ("vingt et un", 21)),
        ("soixante et onze ans", "fr", ("soixante et onze", 71)),
        ("treinta y tres años", "es", ("treinta y tres", 33)),
        ("tres mil millones", "es", ("tres mil millones", 3e9)),
        ("two thousand three hundred people", "en", ("two thousand three hundred", 2300)),
    ],
)
def test_cardinals_in_words(text, code, expected):
    assert read(text, code)[0][:2] == expected


@pytest.mark.parametrize(
    ("text", "code", "written"),
    [
        ("It opened in nineteen twenty-eight.", "en", "nineteen twenty-eight"),
        (
            "It opened in nineteen hundred and twenty-eight.",
            "en",
            "nineteen hundred and twenty-eight",
        ),
        ("Es wurde neunzehnhundertachtundzwanzig eröffnet.", "de", "neunzehnhundertachtundzwanzig"),
        ("Il a ouvert en mille neuf cent vingt-huit.", "fr", "mille neuf cent vingt-huit"),
        ("Abrió en mil novecientos veintiocho.", "es", "mil novecientos veintiocho"),
        ("यह उन्नीस सौ अट्ठाईस में खुला।", "hi", "उन्नीस सौ अट्ठाईस"),
    ],
)
def test_years_in_words(text, code, written):
    assert read(text, code) == [(written, 1928.0, True)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("यह अठारह सौ नवासी में बना था।", ("अठारह सौ नवासी", 1889.0, True)),
        ("यह दो हज़ार तेईस में बना था।", ("दो हज़ार तेईस", 2023.0, True)),
        ("इसमें छप्पन कमरे हैं।", ("छप्पन", 56.0, False)),
    ],
)
def test_hindi_numbers_below_a_hundred_are_each_a_word_and_make_years(text, expected):
    assert read(text, "hi") == [expected]


def test_words_that_join_no_number_are_the_numbers_they_are():
    assert read("two and three", "en") == [("two", 2, False), ("three", 3, False)]
    assert read("two thousand people", "en") == [("two thousand", 2000, False)]  # a count
    assert read("twenty twenty", "en") == [("twenty twenty", 2020, True)]


@pytest.mark.parametrize(
    ("text", "code"),
    [("one of them", "en"), ("eine Stadt", "de"), ("un livre", "fr"), ("una casa", "es")],
)
def test_a_lone_one_is_no_number(text, code):
    assert read(text, code) == []


def test_no_number_word_inside_another_word():
    assert read("The tent is often toned.", "en") == []
    assert read("Die Achtung der Elfenbeinküste.", "de") == []


def test_english_number_words_are_data():
    english = lexicon("en")
    assert english is not None and dict(WORD_NUMBERS) == dict(english.spelled)
    assert WORD_NUMBERS["three"] == 3 and WORD_NUMBERS["hundred"] == 100
    assert "one" not in WORD_NUMBERS  # "one of them" is no count


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("four point five million", "en", 4_500_000),
        ("four point two five", "en", 4.25),
        ("four and a half million", "en", 4_500_000),
        ("one and a half", "en", 1.5),
        ("zwei Komma fünf", "de", 2.5),
        ("viereinhalb Millionen", "de", 4_500_000),
        ("deux virgule cinq", "fr", 2.5),
        ("quatre millions et demi", "fr", 4_500_000),
        ("dos coma cinco", "es", 2.5),
        ("cuatro millones y medio", "es", 4_500_000),
        ("दो दशमलव पाँच", "hi", 2.5),
    ],
)
def test_a_decimal_part_and_a_half_in_words(text: str, code: str, expected: float) -> None:
    (number,) = spelled_numbers(text, code)
    assert number.value == pytest.approx(expected)
    assert (number.start, number.end) == (0, len(text))


@pytest.mark.parametrize(
    ("text", "code"),
    [("at this point five people came", "en"), ("half of them", "en"), ("el medio ambiente", "es")],
)
def test_a_point_or_a_half_alone_is_no_fraction(text: str, code: str) -> None:
    """ "point" opens a decimal part only before a digit's word; a half needs a number."""
    assert all(n.value.is_integer() for n in spelled_numbers(text, code))
