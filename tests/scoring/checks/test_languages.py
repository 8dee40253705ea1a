"""The typed checks in German, Spanish, French and Hindi: each language's numbers, months,
weekdays and negations, the checks it switches off, and no check across languages."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check, checked_language
from tests.scoring.checks.passages import Case, assert_first_reason, fired

BERLIN = (
    "Berlin hat 3,5 Millionen Einwohner. Die Stadt wurde im März 1237 erstmals erwähnt. "
    "Das Museum ist montags geöffnet und kostet 1.000 Euro im Jahr."
)
MADRID = (
    "Madrid tiene 3,3 millones de habitantes. El museo del Prado abre los lunes desde 1819. "
    "La entrada cuesta 15 euros."
)
PARIS = (
    "La tour Eiffel mesure 330 mètres. Elle a été achevée en mars 1889. "
    "Le musée est ouvert le lundi et reçoit 1 000 visiteurs par jour."
)
AGRA = (
    "ताजमहल का निर्माण 1632 में शुरू हुआ था। इसे बनाने में लगभग 20,000 मजदूर लगे थे। "
    "यह संग्रहालय सोमवार को खुला रहता है।"
)

CASES: list[Case] = [
    ("Berlin hat 3,5 Millionen Einwohner.", BERLIN, (), "the same decimal comma agrees"),
    ("Berlin hat 3.500.000 Einwohner.", BERLIN, (), "German thousands dots: 3.5 million"),
    (
        "Berlin hat 4,5 Millionen Einwohner.",
        BERLIN,
        ("number", "4.5 Millionen", "3.5 Millionen"),
        "4,5 Millionen is not 3,5 Millionen",
    ),
    ("Das Museum kostet 1000 Euro im Jahr.", BERLIN, (), '"1.000" is a thousand in German'),
    (
        "Die Stadt wurde im Mai 1237 erstmals erwähnt.",
        BERLIN,
        ("date", "May", "March"),
        "German months",
    ),
    (
        "Das Museum ist montags nicht geöffnet.",
        BERLIN,
        ("negation", "nicht geöffnet", ""),
        "nicht denies what the passage says",
    ),
    ("Madrid tiene 3,3 millones de habitantes.", MADRID, (), "Spanish decimal comma"),
    (
        "Madrid tiene 4,3 millones de habitantes.",
        MADRID,
        ("number", "4.3 millones", "3.3 millones"),
        "Spanish numbers differ",
    ),
    (
        "El museo del Prado abre los martes desde 1819.",
        MADRID,
        ("date", "Tuesday", "Monday"),
        "Spanish weekdays",
    ),
    (
        "El museo del Prado no abre los lunes.",
        MADRID,
        ("negation",),
        "no denies what the passage says",
    ),
    ("La tour Eiffel mesure 330 mètres.", PARIS, (), "French, supported"),
    ("Le musée reçoit 1000 visiteurs par jour.", PARIS, (), 'French "1 000" is a thousand'),
    (
        "Elle a été achevée en mai 1889.",
        PARIS,
        ("date", "May", "March"),
        "French months in lower case",
    ),
    (
        "Le musée n'est pas ouvert le lundi.",
        PARIS,
        ("negation", "pas ouvert le lundi", ""),
        "ne ... pas",
    ),
    ("ताजमहल का निर्माण 1632 में शुरू हुआ था।", AGRA, (), "Hindi, supported"),
    (
        "ताजमहल का निर्माण 1640 में शुरू हुआ था।",
        AGRA,
        ("date", "1640", "1632"),
        "a Hindi year",
    ),
    (
        "इसे बनाने में लगभग ५०,००० मजदूर लगे थे।",
        AGRA,
        ("number", "50,000", "20,000"),
        "Devanagari digits read as ASCII",
    ),
    (
        "यह संग्रहालय सोमवार को खुला नहीं रहता है।",
        AGRA,
        ("negation",),
        "नहीं denies what the passage says",
    ),
]


@pytest.mark.parametrize(("claim", "passage", "expected", "why"), CASES)
def test_checks_read_each_language(
    claim: str, passage: str, expected: tuple[str, ...], why: str
) -> None:
    assert_first_reason(claim, passage, expected, why)


def test_german_capitals_alone_are_no_names() -> None:
    passage = "Die Kirche hat einen Turm. Der Turm ist 90 Meter hoch."
    claim = "Die Kirche hat einen Glockenturm."  # a noun, capitalized, not a name
    assert [r for r in fired(claim, passage) if r[0] == "entity"] == []


GERMAN_TOWER = (
    "Der Eiffelturm ist ein schmiedeeiserner Gitterturm auf dem Champ de Mars in Paris, "
    "Frankreich. Er wurde 1889 fertiggestellt."
)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Der Eiffelturm steht in Berlin.", [("entity", "Berlin", "Paris")]),
        ("In Rom steht der Eiffelturm.", [("entity", "Rom", "Paris")]),
        ("Der Eiffelturm steht in Paris.", []),
        ("Der Eiffelturm steht in Paris, Frankreich.", []),
        ("Der Eiffelturm liegt in Frankreich.", []),
    ],
)
def test_german_names_a_place_after_a_bare_preposition(claim, expected) -> None:
    assert [r for r in fired(claim, GERMAN_TOWER) if r[0] == "entity"] == expected


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Das Gesetz ist seit 1990 in Kraft.", "Das Gesetz trat 1990 in Berlin in Kraft."),
        ("Der Turm ist aus Holz gebaut.", "Der Turm in Ulm ist aus Stein gebaut."),
        ("Die Anlage ist in Betrieb.", "Die Anlage in Köln ist seit 1990 in Betrieb."),
        ("Die Brücke wurde in Zusammenarbeit gebaut.", "Die Brücke wurde in Hamburg gebaut."),
    ],
)
def test_german_nouns_written_bare_after_a_preposition_are_no_names(claim, passage) -> None:
    assert [r for r in fired(claim, passage) if r[0] == "entity"] == []


def test_spanish_names_are_still_compared() -> None:
    passage = "El museo del Prado está en Madrid y abrió en 1819."
    assert fired("El museo del Prado está en Sevilla y abrió en 1819.", passage)[0][0] == "entity"


def test_no_check_reads_across_languages() -> None:
    german, english = "Berlin hat 4,5 Millionen Einwohner.", "Berlin has 3.5 million inhabitants."
    assert checked_language(german, english) is None
    assert check(german, english) == ()
    assert check("Москва — столица России.", "Москва — крупнейший город России.") == ()


def test_an_undetermined_claim_is_read_in_the_passages_language() -> None:
    assert checked_language("Einwohner: 4,5 Mio.", BERLIN) == "de"
    assert checked_language("Paris.", "Paris.") == "en"


def test_two_undetermined_texts_are_read_in_the_fallback_language() -> None:
    claim, passage = "Elena Marsh wohnte nie in Oslo.", "Elena Marsh wohnte 1920 in Oslo."
    assert checked_language(claim, passage) == "en"
    assert checked_language(claim, passage, "de") == "de"
    assert [r.check for r in check(claim, passage, "de")] == ["negation"]


TOWERS = {
    "de": "Der Eiffelturm steht in Paris. Er wurde 1889 fertiggestellt. Er ist 330 Meter hoch.",
    "fr": "La tour Eiffel se trouve à Paris. Elle a été achevée en 1889. Elle mesure 330 mètres.",
    "es": "La torre Eiffel está en París. Se terminó en 1889. Mide 330 metros de altura.",
    "hi": "एफिल टावर पेरिस में है। यह 1889 में बना था। यह 330 मीटर ऊँचा है।",
}
NUMBER_WORDS = [
    ("de", "Er ist dreihundertdreißig Meter hoch.", "Er ist dreihundertzwanzig Meter hoch."),
    ("fr", "Elle mesure trois cent trente mètres.", "Elle mesure trois cent vingt mètres."),
    (
        "es",
        "Mide trescientos treinta metros de altura.",
        "Mide trescientos veinte metros de altura.",
    ),
    ("hi", "यह तीन सौ तीस मीटर ऊँचा है।", "यह तीन सौ बीस मीटर ऊँचा है।"),
]


@pytest.mark.parametrize(("code", "right", "wrong"), NUMBER_WORDS)
def test_numbers_in_words_in_each_language(code: str, right: str, wrong: str) -> None:
    passage = TOWERS[code]
    assert checked_language(right, passage) == code
    assert [r for r in fired(right, passage) if r[0] == "number"] == []
    (number,) = [r for r in fired(wrong, passage) if r[0] == "number"]
    assert number[2] == "330" and number[1] in wrong  # both values named


@pytest.mark.parametrize(
    ("code", "claim", "year"),
    [
        (
            "de",
            "Er wurde neunzehnhundertachtundzwanzig fertiggestellt.",
            "neunzehnhundertachtundzwanzig",
        ),
        ("fr", "Elle a été achevée en mille neuf cent vingt-huit.", "mille neuf cent vingt-huit"),
        ("es", "Se terminó en mil novecientos veintiocho.", "mil novecientos veintiocho"),
        ("hi", "यह उन्नीस सौ अट्ठाईस में बना था।", "उन्नीस सौ अट्ठाईस"),
    ],
)
def test_years_in_words_in_each_language(code: str, claim: str, year: str) -> None:
    assert [r[:2] for r in fired(claim, TOWERS[code]) if r[0] == "date"] == [("date", year)]
    right = claim.replace(year, "1889")
    assert [r for r in fired(right, TOWERS[code]) if r[0] == "date"] == []


@pytest.mark.parametrize(
    ("claim", "code", "written"),
    [
        ("Der Eiffelturm ist 3 300 Meter hoch.", "de", "3 300"),
        ("La tour Eiffel mesure 3 300 mètres.", "fr", "3,300"),  # French: rewritten English
        ("La torre Eiffel mide 3 300 metros.", "es", "3 300"),
    ],
)
def test_thousands_grouped_by_a_space_in_each_language(claim: str, code: str, written: str) -> None:
    assert [r for r in fired(claim, TOWERS[code]) if r[0] == "number"] == [
        ("number", written, "330")
    ]
