"""Reading numbers (``checks.numbers``) and the number rules: parsing, and the regression cases
whose reason is a number."""

from __future__ import annotations

import pytest

from ragguard.language.numerals import WORD_NUMBERS
from ragguard.scoring.checks import check, in_passage_digits
from ragguard.scoring.checks.numbers import quantities
from ragguard.scoring.checks.quantity_match import same_quantity
from ragguard.scoring.checks.ranges import ranges
from ragguard.scoring.lexical.vocabulary import ORDINAL_WORDS
from tests.scoring.checks.passages import Case, assert_first_reason


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("8849", "8,849"),
        ("1.5 million", "1,520,000"),
        ("ten", "10"),
        ("50%", "50 percent"),
        ("$8.2m", "$8,200,000"),
        ("5bn", "5 billion"),
        ("$3B", "3 billion"),
        ("25", "twenty - five"),
    ],
)
def test_quantities_are_normalized(claim, evidence):
    (a,), (b,) = quantities(claim), quantities(evidence)
    assert same_quantity(a, b)


def test_every_number_word_reads_whole_and_alone():
    """The number words are scanned as a trie: each reads as one value, a compound before
    its first word ("seventy-two", not "seventy"), and no word inside another word."""
    for word, value in WORD_NUMBERS.items():
        (found,) = quantities(f"They counted {word} boats.")
        assert (found.text, found.value) == (word, value)
    for word, value in ORDINAL_WORDS.items():
        (found,) = quantities(f"It was the {word} attempt.")
        assert (found.text, found.value) == (word, value)
    assert quantities("Seventeenth-century tenants were oneself and fivefold.") == ()


def test_a_capitalized_number_word_inside_a_name_is_no_quantity():
    assert [q.text for q in quantities("The Hundred Years' War had three phases.")] == ["three"]
    assert [q.text for q in quantities("Four people watched Ocean's Eleven.")] == ["Four"]


def test_a_one_letter_scale_needs_a_currency_sign():
    (metres,) = quantities("The pole is 5m tall.")
    assert metres.value == 5


def test_an_approximate_date_has_its_own_tolerance():
    (about,) = quantities("about 1925")
    assert about.kind == "year" and about.bound == "about"
    assert same_quantity(about, quantities("in 1923")[0])
    assert not same_quantity(about, quantities("in 1889")[0])
    (count,) = quantities("about 300 metres")
    assert same_quantity(count, quantities("330 metres")[0])  # quantities keep 10%


@pytest.mark.parametrize("space", [" ", "\u00a0", "\u202f"])
def test_thousands_grouped_by_spaces(space):
    (q,) = quantities(f"It is 3{space}300 metres tall.")
    assert q.value == 3300 and q.kind == "number"
    assert [x.value for x in quantities("in 1887 330 people")] == [1887, 330]


def test_years_and_decades():
    (year,) = quantities("It opened in 1889.")
    assert year.kind == "year" and not same_quantity(year, quantities("in 1899")[0])
    decades = quantities("in the 1960s, 1970's and 1980 's")
    assert [(d.kind, d.value) for d in decades] == [("decade", v) for v in (1960, 1970, 1980)]
    sixties, (century,) = decades[0], quantities("in the 1800s")
    assert same_quantity(sixties, quantities("in 1969")[0])
    assert not same_quantity(sixties, quantities("in 1970")[0])
    assert not same_quantity(quantities("in 1969")[0], sixties)  # the claim would say more
    assert same_quantity(century, quantities("in 1860")[0])


@pytest.mark.parametrize(
    ("written", "years"), [("2018–19", (2018, 2019)), ("1999/00", (1999, 2000))]
)
def test_a_season_ends_in_a_year(written, years):
    assert tuple(q.value for q in quantities(f"the {written} season")) == years
    assert all(q.kind == "year" for q in quantities(f"the {written} season"))


def test_an_iso_date_is_no_season_and_no_range():
    assert [q.value for q in quantities("updated 2017-11-07")] == [2017, 11, 7]
    assert ranges("updated 2017-11-07") == ()


NUMBERS_CASES: list[Case] = [
    (
        "The tower was built around 1925.",
        "The tower was built in 1889.",
        ("date", "1925", "1889"),
        "an approximate year is within two years, not 10% (190 years)",
    ),
    ("The tower was built circa 1887.", "The tower was built in 1889.", (), "circa: 2 years"),
    ("The tower was built c. 1890.", "The tower was built in 1889.", (), '"c." before a year'),
    (
        "The tower was built approximately 1884.",
        "The tower was built in 1889.",
        ("date", "1884", "1889"),
        "five years off is not approximately",
    ),
    (
        "The tower was built in 1889.",
        "The tower was built around 1925.",
        ("date", "1889", "1925"),
        "an approximate year in the passage holds as narrowly",
    ),
    ("The tower is about 300 metres tall.", "The tower is 330 metres tall.", (), "quantities: 10%"),
    (
        "The tower is 3 300 metres tall.",
        "The tower is 330 metres tall.",
        ("number", "3 300", "330"),
        "thousands grouped by a space",
    ),
    (
        "The tower is three hundred and thirty metres tall.",
        "The tower is 330 metres tall.",
        (),
        "a number in words is its value",
    ),
    (
        "The tower is three hundred and twenty metres tall.",
        "The tower is 330 metres tall.",
        ("number", "three hundred and twenty", "330"),
        "a wrong number in words",
    ),
    (
        "The tower was finished in nineteen twenty-eight.",
        "The tower was finished in 1889.",
        ("date", "nineteen twenty-eight", "1889"),
        "a year in words is a year",
    ),
    (
        "The town has 1,500,000 people.",
        "The town has 1.5 million people.",
        (),
        "1,500,000 is 1.5 million",
    ),
    ("The town has about 100 parks.", "The town has 98 parks.", (), "about 100 holds for 98"),
    (
        "The earth is more than 4 billion years old.",
        "The earth is 4.54 billion years old.",
        (),
        "more than 4 billion holds for 4.54 billion",
    ),
    (
        "It finished third in the race.",
        "It finished 3rd in the race.",
        (),
        "a spelled ordinal is its digits (third, 3rd)",
    ),
    (
        "Seventy-two churches are named for him.",
        "72 churches are named for him.",
        (),
        "a compound number word is one value (seventy-two)",
    ),
    (
        "Two people stand outside the shop.",
        "A man and a woman stand outside the shop.",
        (),
        "a small count the passage never states is no contradiction",
    ),
    (
        "Superconductors conduct electricity with 100% efficiency.",
        "Superconductors conduct electricity without any loss of energy.",
        (),
        "a whole share the passage says in words is no contradiction (100%)",
    ),
    (
        "The machine runs at 100% of its rated power.",
        "The machine runs at 80% of its rated power.",
        ("number", "100%", "80%"),
        "a whole share against another share is still a wrong number",
    ),
    (
        "Revenues and earnings grew by 19% and 38%.",
        "Revenues grew 19%, EBITDA was up 21% and earnings per share increased 38%.",
        (),
        "the clause of another value of the claim is no rival",
    ),
    (
        "Smith checked in for Flight 77.",
        "At 7:15, Smith checked in at the counter for Flight 77, bound for Los Angeles.",
        (),
        "a number that ends a title is left to the anchor rule",
    ),
    (
        "The bridge over the river is 300 m long.",
        "The bridge over the river is 300 metres long.",
        (),
        "m is metres: the same unit",
    ),
    (
        "The town has 1.5 million people.",
        "The town has 1,520,000 people.",
        (),
        "1.5 million holds 1,520,000 at its precision",
    ),
    (
        "Water freezes at 0 degrees Celsius.",
        "Water freezes at 32 degrees Fahrenheit, or 0 degrees Celsius.",
        (),
        "a value stated in the claim's unit beside a conversion",
    ),
    (
        "Earnings grew by 17% despite the impact of COVID-19.",
        "Earnings grew 17% from last year, the company said.",
        (),
        "a number hyphenated to a name is no quantity (COVID-19)",
    ),
    (
        "Record earnings were roughly two-fold the prior-year levels.",
        "Record earnings were roughly double the prior-year levels of $64.2 million.",
        (),
        "a number before fold is a ratio",
    ),
    (
        "The final season was its seventh season.",
        "The series began its seventh and final season, having finished its sixth season.",
        (),
        "a number that opens a list counts for the list's noun",
    ),
    (
        "The tower contains 8 elevators.",
        "The tower contains a total of 57 elevators and 8 escalators.",
        ("number", "8", "57"),
        "a count of another unit is no support (8 escalators)",
    ),
    (
        "That night the army lost 14 helicopters full of soldiers.",
        "Over one long night, three Sea King helicopters were shot down, 61 soldiers were"
        " wounded and 14 were killed.",
        ("number", "14", "three"),
        "a name between a number and its unit (three Sea King helicopters) counts helicopters",
    ),
    (
        "That night the army lost three helicopters full of soldiers.",
        "Over one long night, three Sea King helicopters were shot down, 61 soldiers were"
        " wounded and 14 were killed.",
        (),
        "the number of a unit a name stands before is stated (three Sea King helicopters)",
    ),
    (
        "The airline agreed to speed up deliveries of 12 737 MAX 9 aircraft.",
        "The airline agreed to accelerate the delivery of 12 737 MAX 9 jets, and the other 10"
        " aircraft will follow from 2023.",
        (),
        "a number that ends a name counts no unit (the 9 of 737 MAX 9 aircraft)",
    ),
    (
        "The airline agreed to speed up deliveries of 15 737 MAX 9 aircraft.",
        "The airline agreed to accelerate the delivery of 12 737 MAX 9 jets, and the other 10"
        " aircraft will follow from 2023.",
        ("number", "15 737", "12 737"),
        "the count before such a name is still read",
    ),
    (
        "The town reported a median income of $62,527 in 2012.",
        "The town reported a median income of $ 87,894, above the average of $ 62,527.",
        ("number", "62,527", "87,894"),
        "a currency sign apart from its number; the anchor's rival",
    ),
    (
        "The show aired on the 9th.",
        "The show aired on December 8, 2015.",
        ("number", "9th", "8"),
        "an ordinal day against the date's day",
    ),
    (
        "Cuthbert has over 35 churches named after him.",
        "Seventy-two churches in Britain were named for Cuthbert.",
        (),
        "over 35 holds for 72",
    ),
    (
        "The film sold 6 million copies.",
        "The film sold more than 3 million copies.",
        ("number",),
        "more than 3 million does not support 6 million",
    ),
    (
        "He scored 19 goals in the season.",
        "In the 2018–19 season he scored 30 goals.",
        ("number", "19", "30"),
        "a season's closing digits are a year, not the count 19",
    ),
    (
        "The bridge over the river is 300 meters long.",
        "The bridge over the river is 300 feet long.",
        ("number", "300", "300 feet"),
        "the same number in another unit of length",
    ),
    (
        "The renovation of the museum took 5 years.",
        "The renovation of the museum took 5 months.",
        ("number", "5", "5 months"),
        "the same number in another unit of time",
    ),
    (
        "The product launched in the second quarter of 2021.",
        "The product launched in the third quarter of 2021.",
        ("number", "second", "third"),
        "a rank the anchor names differently",
    ),
    (
        "The policy applies to employees under 30.",
        "The policy applies to employees over 30.",
        ("number", "30", "30"),
        "under 30 is not over 30",
    ),
    (
        "The country's population is 2 million.",
        "The country's population is 2.5 million.",
        ("number", "2 million", "2.5 million"),
        "a scaled number against another at its precision",
    ),
    (
        "Four puppies play in the yard.",
        "Two puppies play in the yard.",
        ("number", "Four", "Two"),
        "a spelled count against another of the same noun",
    ),
    (
        "The album sold less than 100,000 copies.",
        "It debuted at number one on the Billboard 200 with sales of 258,000 copies.",
        ("number", "100,000", "258,000"),
        "less than 100,000 is no Billboard 200 and fails for 258,000",
    ),
]


@pytest.mark.parametrize(
    ("claim", "passage", "expected", "why"), NUMBERS_CASES, ids=[c[3] for c in NUMBERS_CASES]
)
def test_number_rules(claim: str, passage: str, expected: tuple[str, ...], why: str) -> None:
    assert_first_reason(claim, passage, expected, why)


@pytest.mark.parametrize(
    ("text", "language", "kind"),
    [
        ("El lago tiene unos 1300 kilómetros cuadrados.", "es", "number"),
        ("Le lac couvre 1310 km².", "fr", "number"),
        ("La empresa se fundó en 1950 en Madrid.", "es", "year"),
    ],
)
def test_a_number_a_measure_follows_is_no_year(text: str, language: str, kind: str) -> None:
    assert [q.kind for q in quantities(text, language)] == [kind]


def test_a_bound_after_the_number_may_follow_its_unit() -> None:
    (q,) = quantities("झील का क्षेत्रफल 4,000 वर्ग किलोमीटर से ज़्यादा है।", "hi")
    assert (q.value, q.bound) == (4000, "at least")


@pytest.mark.parametrize(
    ("claim", "passage", "language", "read"),
    [
        (
            "The rally was held from eighteen sixty-six to eighteen seventy-seven.",
            "The rally was held from 1866 to 1877.",
            "en",
            "The rally was held from 1866 to 1877.",
        ),
        (
            "Er ist circa 120 km² groß.",
            "Er hat eine Fläche von 118 km².",
            "de",
            "Er ist circa 118 km² groß.",
        ),
        (
            "It has more than 4,000 staff.",
            "It has 4,620 staff.",
            "en",
            "It has more than 4,620 staff.",
        ),
        (
            "It has more than 5,000 staff.",
            "It has 4,620 staff.",
            "en",
            "It has more than 5,000 staff.",
        ),
        (
            "The album sold less than 100,000 copies.",
            "It debuted on the Billboard 200 with sales of 258,000 copies.",
            "en",
            "The album sold less than 100,000 copies.",
        ),
        ("It has two staff.", "It has 2 staff.", "en", "It has two staff."),
        (
            "Willow Press has some 2,200 employees.",
            "It was started in 1980. It now has 4,730 employees.",
            "en",
            "Willow Press has some 2,200 employees.",
        ),
    ],
)
def test_a_claims_numbers_are_read_as_the_passage_writes_them(
    claim: str, passage: str, language: str, read: str
) -> None:
    """Several words or a bound the passage's value meets (within a factor of two, the
    one such value): as the passage writes it; a bound not met, and one word, as written."""
    assert in_passage_digits(claim, passage, language) == read


def test_a_range_in_words_meets_the_same_range_in_digits() -> None:
    claim = "The rally was held every year from eighteen sixty-six to eighteen seventy-seven."
    assert check(claim, "The rally was held every year from 1866 to 1877.") == ()


@pytest.mark.parametrize(
    ("code", "claim", "passage", "fires"),
    [
        (
            "en",
            "The bridge is between 100 and 200 metres long.",
            "The bridge is 142 metres long.",
            False,
        ),
        (
            "en",
            "The bridge is between 300 and 350 metres long.",
            "The bridge is 142 metres long.",
            True,
        ),
        (
            "de",
            "Die Brücke ist zwischen 100 und 200 Meter lang.",
            "Die Brücke ist 142 Meter lang.",
            False,
        ),
        (
            "es",
            "Willow tiene entre 2.000 y 2.500 empleados.",
            "Willow tiene hoy 2.150 empleados.",
            False,
        ),
        (
            "es",
            "Willow tiene entre 3.000 y 3.500 empleados.",
            "Willow tiene hoy 2.150 empleados.",
            True,
        ),
        # a span joined by a word, with nothing before it, in each language
        ("de", "Die Brücke ist 100 bis 200 Meter lang.", "Die Brücke ist 142 Meter lang.", False),
        ("de", "Die Brücke ist 300 bis 350 Meter lang.", "Die Brücke ist 142 Meter lang.", True),
        ("fr", "Le pont mesure de 100 à 200 mètres.", "Le pont mesure 142 mètres.", False),
        ("es", "El puente mide de 100 a 200 metros.", "El puente mide 142 metros.", False),
        ("hi", "पुल 100 से 200 मीटर लंबा है।", "पुल 142 मीटर लंबा है।", False),
        ("hi", "पुल 300 से 350 मीटर लंबा है।", "पुल 142 मीटर लंबा है।", True),
        # a year stays a year of its own
        (
            "es",
            "El programa se desarrolló entre 1951 y 1972.",
            "El programa se desarrolló de 1961 a 1972.",
            True,
        ),
    ],
)
def test_a_span_of_values_is_met_by_a_value_inside(
    code: str, claim: str, passage: str, fires: bool
) -> None:
    kinds = {r.check for r in check(claim, passage)}
    assert bool(kinds & {"number", "date"}) is fires, code


@pytest.mark.parametrize(
    ("code", "claim", "passage", "fires"),
    [
        ("en", "The bridge opened in the twenties.", "The bridge opened in 1922.", False),
        ("en", "The bridge opened in the thirties.", "The bridge opened in 1922.", True),
        ("en", "The bridge opened in the twenties.", "The bridge opened in 2022.", False),
        ("en", "The bridge opened in the twenty first century.", "It opened in 2022.", False),
        ("en", "The bridge opened in the twenty first century.", "It opened in 1922.", True),
        (
            "de",
            "Die Brücke wurde in den Zwanzigerjahren eröffnet.",
            "Sie wurde 1922 eröffnet.",
            False,
        ),
        (
            "de",
            "Die Brücke wurde in den dreißiger Jahren eröffnet.",
            "Sie wurde 1922 eröffnet.",
            True,
        ),
        (
            "fr",
            "Le pont a été inauguré dans les années vingt.",
            "Il a été inauguré en 1922.",
            False,
        ),
        (
            "fr",
            "Le pont a été inauguré dans les années trente.",
            "Il a été inauguré en 1922.",
            True,
        ),
        ("es", "El puente se inauguró en los años veinte.", "Se inauguró en 1922.", False),
        ("es", "El puente se inauguró en el siglo veinte.", "Se inauguró en 1922.", False),
        ("es", "El puente se inauguró en el siglo diecinueve.", "Se inauguró en 1922.", True),
    ],
)
def test_a_decade_or_century_in_words(code: str, claim: str, passage: str, fires: bool) -> None:
    kinds = {r.check for r in check(claim, passage)}
    assert bool(kinds & {"number", "date"}) is fires, code


@pytest.mark.parametrize(
    ("claim", "fires"),
    [
        ("Lake Vorna covers about thirteen hundred square kilometres.", False),
        ("Lake Vorna covers about sixteen hundred square kilometres.", True),
        ("Lake Vorna covers more than a thousand square kilometres.", False),
        ("Lake Vorna covers no more than 1,300 square kilometres.", False),
        ("Lake Vorna covers no less than 1,300 square kilometres.", True),
        ("Lake Vorna covers no fewer than 1,200 square kilometres.", False),
    ],
)
def test_numbers_in_words_and_bounds_after_no(claim: str, fires: bool) -> None:
    """ "thirteen hundred" before a unit is a quantity, no year; "a thousand" keeps the bound
    before its article; "no fewer than" bounds from below, "no more than" negates nothing."""
    passage = "Lake Vorna lies in the north of Arvenia. It covers 1,284 square kilometres."
    kinds = {r.check for r in check(claim, passage)} - {"uncovered"}
    assert (kinds == {"number"}) if fires else not kinds


def test_a_german_number_glued_into_one_word_is_read_in_the_passages_digits() -> None:
    """ "neunzehnhunderteinundsiebzig" is one word, but read as far from "1971" as several."""
    passage = "Das Rennen fand 1971 und erneut 1983 statt."
    claim = "Das Rennen fand neunzehnhunderteinundsiebzig und neunzehnhundertdreiundachtzig statt."
    assert in_passage_digits(claim, passage, "de") == "Das Rennen fand 1971 und 1983 statt."


@pytest.mark.parametrize(
    "claim",
    [
        "The Kellan Bridge opened in the early 20th century.",
        "The Kellan Bridge opened in the first half of the twentieth century.",
        "The Kellan Bridge opened in the second half of the 1920s.",
    ],
)
def test_a_period_that_holds_the_passages_year_is_read_as_that_year(claim: str) -> None:
    passage = "The Kellan Bridge crosses the river in Riga. It opened in 1927."
    assert in_passage_digits(claim, passage, "en") == "The Kellan Bridge opened in 1927."


def test_a_period_that_does_not_hold_the_year_is_left_as_written() -> None:
    passage = "The Kellan Bridge crosses the river in Riga. It opened in 1927."
    claim = "The Kellan Bridge opened in the 19th century."
    assert in_passage_digits(claim, passage, "en") == claim


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "The Harlow Quartet recorded albums in the 20th century.",
            "The Harlow Quartet recorded most of its albums in the 1960s. "
            "A 1964 review praised them.",
        ),
        (
            "Norvik Steel entered the shipping trade in the late 20th century.",
            "Norvik Steel entered the shipping trade in the late 1960s. "
            "Since 1990 it has grown abroad.",
        ),
    ],
)
def test_a_period_beside_a_decade_of_the_passage_is_left_as_written(
    claim: str, passage: str
) -> None:
    """A century holds the passage's one year, but the passage gives a decade too, which the
    claim's period may be about: it is left as written, and nothing conflicts."""
    assert in_passage_digits(claim, passage, "en") == claim
    assert not {r.check for r in check(claim, passage)} & {"date", "number"}


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Three and a Half Rooms won the prize.", []),
        ("Nineteen Eighty-Four is a novel.", []),
        ("Nineteen sixty-one was a dry year.", ["Nineteen sixty-one"]),
        ("Twenty-one people came.", ["Twenty-one"]),
    ],
)
def test_a_number_in_title_case_opening_a_text_is_a_title(text: str, read: list[str]) -> None:
    """A number in words whose later words are capitalized too is written as a title; one
    capitalized only where it opens the sentence is a number."""
    assert [q.text for q in quantities(text)] == read


def test_a_german_number_in_words_beside_a_capitalized_noun_is_a_number() -> None:
    """German capitalizes every noun ("drei Komma vier", "viereinhalb Millionen"), so its
    capitals make no number a title."""
    passage = "Der Vatna-See liegt in Norwegen. Er hat eine Fläche von 3,4 Quadratkilometern."
    claim = "Der Vatna-See hat eine Fläche von sechs Komma sieben Quadratkilometern."
    assert "number" in {r.check for r in check(claim, passage)}
