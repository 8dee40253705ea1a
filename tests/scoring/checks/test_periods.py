"""Decades, centuries and years in words in each language (``checks.periods``,
``language.numerals``), Hindi's negation before its cue, and an "over" that no rounding
meets (issue 56)."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks.numbers import quantities
from tests.scoring.checks.passages import fired

OPENED = {
    "en": "The Kellan Bridge crosses the river in Riga. It opened in 1942 and is 86 metres long.",
    "de": "Die Kellan-Brücke überquert den Fluss in Riga. Sie wurde 1942 eröffnet.",
    "fr": "Le pont Kellan franchit le fleuve à Riga. Il a été inauguré en 1942.",
    "es": "El puente Kellan cruza el río en Riga. Se inauguró en 1942 y mide 86 metros.",
    "hi": "केलन पुल रीगा में नदी पार करता है। इसे 1942 में खोला गया था।",
}


def kinds(claim: str, passage: str) -> list[str]:
    return [kind for kind, _, _ in fired(claim, passage) if kind != "uncovered"]


@pytest.mark.parametrize(
    ("code", "right", "wrong"),
    [
        ("en", "It opened in the early 1940s.", "It opened in the late 1940s."),
        ("en", "It opened in the 1940s.", "It opened in the 1950s."),
        ("en", "It opened in the 20th century.", "It opened in the 19th century."),
        (
            "de",
            "Sie wurde in den 1940er Jahren eröffnet.",
            "Sie wurde in den 1950er Jahren eröffnet.",
        ),
        ("de", "Sie wurde im 20. Jahrhundert eröffnet.", "Sie wurde im 19. Jahrhundert eröffnet."),
        (
            "fr",
            "Il a été inauguré dans les années 1940.",
            "Il a été inauguré dans les années 1950.",
        ),
        ("fr", "Il a été inauguré au XXe siècle.", "Il a été inauguré au XIXe siècle."),
        ("es", "Se inauguró en la década de 1940.", "Se inauguró en la década de 1950."),
        ("es", "Se inauguró en el siglo XX.", "Se inauguró en el siglo XIX."),
        ("hi", "इसे 1940 के दशक में खोला गया था।", "इसे 1950 के दशक में खोला गया था।"),
        ("hi", "इसे 20वीं सदी में खोला गया था।", "इसे 19वीं सदी में खोला गया था।"),
        # a part of a century holds its own years: 1942 is mid-century, in the first half
        ("en", "It opened in the mid-20th century.", "It opened in the early 20th century."),
        (
            "en",
            "It opened in the first half of the 20th century.",
            "It opened in the late 20th century.",
        ),
        (
            "de",
            "Sie wurde Mitte des 20. Jahrhunderts eröffnet.",
            "Sie wurde Ende des 20. Jahrhunderts eröffnet.",
        ),
        (
            "fr",
            "Il a été inauguré au milieu du XXe siècle.",
            "Il a été inauguré à la fin du XXe siècle.",
        ),
        (
            "es",
            "Se inauguró en la primera mitad del siglo XX.",
            "Se inauguró en la segunda mitad del siglo XX.",
        ),
    ],
)
def test_a_period_holds_the_year_or_conflicts(code: str, right: str, wrong: str) -> None:
    assert kinds(right, OPENED[code]) == []
    assert kinds(wrong, OPENED[code]) == ["date"]


@pytest.mark.parametrize(
    ("code", "text", "years"),
    [
        ("en", "It was held in nineteen oh nine.", [1909.0]),
        ("en", "It was held in nineteen sixty-one and nineteen seventy-two.", [1961.0, 1972.0]),
        (
            "de",
            "Es fand neunzehnhundertvierundneunzig und zweitausendsechs statt.",
            [1994.0, 2006.0],
        ),
        (
            "fr",
            "Elle a eu lieu en mille neuf cent vingt-sept et en mille neuf cent trente-cinq.",
            [1927.0, 1935.0],
        ),
        ("es", "Se celebró en mil ochocientos sesenta y seis.", [1866.0]),
    ],
)
def test_years_in_words_and_in_pairs(code: str, text: str, years: list[float]) -> None:
    assert [q.value for q in quantities(text, code) if q.kind == "year"] == years


def test_a_year_in_words_the_passage_states_is_covered() -> None:
    passage = "The Northern Rally was held in 1961 and again in 1972."
    claim = "The Northern Rally was held in nineteen sixty-one and in nineteen seventy-two."
    assert fired(claim, passage) == []


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Lake Olvey covers over 400 square kilometres.",
            "Lake Olvey covers 389 square kilometres.",
        ),
        (
            "Der See ist mindestens 400 Quadratkilometer groß.",
            "Der See hat eine Fläche von 389 Quadratkilometern.",
        ),
    ],
)
def test_a_bound_is_not_met_by_rounding(claim: str, passage: str) -> None:
    assert kinds(claim, passage) == ["number"]


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("लुकास वेबर वालेंसिया में रहे थे।", "लुकास वेबर कभी वालेंसिया में नहीं रहे।"),
        ("कंपनी का अब भी डबलिन में दफ़्तर है।", "कंपनी का अब डबलिन में कोई दफ़्तर नहीं है।"),
    ],
)
def test_a_hindi_negation_governs_the_words_before_it(claim: str, passage: str) -> None:
    assert kinds(claim, passage) == ["negation"]
    assert kinds(passage, passage) == []


@pytest.mark.parametrize(
    ("passage", "stated", "other"),
    [
        (
            "The Kellan Bridge opened in 1961.",
            "The Kellan Bridge opened in the twentieth century.",
            "The Kellan Bridge opened in the nineteenth century.",
        ),
        (
            "Die Kellan-Brücke wurde 1961 eröffnet.",
            "Die Kellan-Brücke wurde im zwanzigsten Jahrhundert eröffnet.",
            "Die Kellan-Brücke wurde im neunzehnten Jahrhundert eröffnet.",
        ),
        (
            "Le pont Kellan a été inauguré en 1961.",
            "Le pont Kellan a été inauguré au vingtième siècle.",
            "Le pont Kellan a été inauguré au dix-neuvième siècle.",
        ),
        (
            "केलन पुल 1961 में खोला गया था।",
            "केलन पुल बीसवीं सदी में खोला गया था।",
            "केलन पुल उन्नीसवीं सदी में खोला गया था।",
        ),
    ],
)
def test_a_centurys_rank_in_words_is_read_as_its_number(
    passage: str, stated: str, other: str
) -> None:
    """ "the nineteenth century" is the 19th (``[periods] ordinal_endings``)."""
    assert "date" not in [kind for kind, _, _ in fired(stated, passage)]
    assert ("date", "19", "1961") in [(k, c[:2], e) for k, c, e in fired(other, passage)]


@pytest.mark.parametrize(
    ("claim", "conflicts"),
    [
        ("The Kellan Bridge opened in the first half of the 1920s.", True),
        ("The Kellan Bridge opened in the second half of the 1920s.", False),
    ],
)
def test_a_half_of_a_decade_holds_its_five_years(claim: str, conflicts: bool) -> None:
    passage = "The Kellan Bridge in Riga opened in 1927. It is 455 metres long."
    assert ("date" in {kind for kind, _, _ in fired(claim, passage)}) is conflicts
