"""The date rules (years, months, weekdays, decades, centuries, spans of dates): the
regression cases whose reason is a date."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.dates import day_and_month_before
from tests.scoring.checks.passages import LIFESPAN, SHOOTING, Case, assert_first_reason

DATES_CASES: list[Case] = [
    (
        "The war began in 1916.",
        "The war lasted 1914 -- 1918 across Europe and began then.",
        (),
        "a year inside a stated range is stated",
    ),
    (
        "The film was shot on Jan. 5, 2015.",
        "The film was shot on January 5, 2015.",
        (),
        "an abbreviated month is the month (Jan., January)",
    ),
    (
        "The show aired on the 8th.",
        "The show aired on December 8, 2015.",
        (),
        "an ordinal day matches the day of a date",
    ),
    (
        "Lena Voss was born on March 3rd, 2004.",
        "Lena Voss (born March 3, 1971) is a painter who opened her first gallery in 2004.",
        ("date", "2004", "1971"),
        "an ordinal day leads its year as a plain day does: the passage's year of that day",
    ),
    (
        "Lena Voss was born on 3 March 2004.",
        "Lena Voss was born on the 3rd of March 1971 and opened her first gallery in 2004.",
        ("date", "2004", "1971"),
        "a year dated by its day and month, in the other order: the passage's year for that day",
    ),
    (
        "Lena Voss was born on the 3rd of March, 1971.",
        "Lena Voss was born on March 3, 1971 and opened her first gallery in 2004.",
        (),
        "the passage's year for that day, the day written another way",
    ),
    (
        "Lena Voss was born on March 3rd, 1971.",
        "Lena Voss (born March 3, 1971) is a painter who opened her first gallery in 2004.",
        (),
        "an ordinal day with the passage's year",
    ),
    (
        "The firm was founded in 1994.",
        "The firm was founded in 1994, and acquired by Activision in January 2002.",
        (),
        "a value stated in the clause of its predicate",
    ),
    (
        "The name change takes place during the 2018–19 academic year.",
        "The new name is used from the 2018–19 academic year.",
        (),
        "a season's two closing digits are its end year",
    ),
    (
        "The club won the league in 2019.",
        "The club won the league in the 2018-19 season.",
        (),
        "the end year of a season matches the year",
    ),
    ("Einstein died in 1955.", LIFESPAN, (), "died matches the end of a life span"),
    (
        "Einstein was born in March 1879.",
        LIFESPAN,
        (),
        "born matches the start of a life span, with its month",
    ),
    (
        "Shooting began in India in September 1994.",
        SHOOTING,
        (),
        "began matches the start of a span, with its month",
    ),
    (
        "The museum was built in the 1990s by the city.",
        "The city built the museum in 1994.",
        (),
        "a year inside a claimed decade",
    ),
    (
        "The store is open on Sundays.",
        "The store is open on Sundays and Mondays.",
        (),
        "a weekday listed with another is stated",
    ),
    (
        "The castle was built in the 14th century.",
        "The castle was built in 1350.",
        (),
        "a year inside a claimed century",
    ),
    (
        "He directed plays in the 20th century.",
        "He (January 8, 1912 – 1992) directed plays.",
        (),
        "a century holds the years of a life span",
    ),
    (
        "The album was released before 2005.",
        "The album was released in 2001.",
        (),
        "before 2005 holds for 2001",
    ),
    (
        "The album was released in or before 2005.",
        "The album was released in 2001.",
        (),
        "in or before 2005 holds for 2001",
    ),
    (
        "They expect revenue for the full year 2020 to be between $11.1 and $11.3 billion.",
        "We now expect 2020 revenue for the full year to be between $11.1 and $11.3 "
        "billion.\nFor the full year 2021, we expect revenue of $12.3 billion.",
        (),
        "a rival led by the same words in a less on-topic sentence",
    ),
    (
        "In 2002, the firm was founded.",
        "The firm was founded in 1994, and acquired by Activision in January 2002.",
        ("date", "2002", "1994"),
        "a year beside another predicate's clause",
    ),
    (
        "Shomu Mukherjee died on April 19, 2008.",
        "Shomu Mukherjee (19 June, 1943 -- 10 April 2008) was a director. He died of a heart "
        "attack on 10 April 2008 at the age of 64.",
        ("date", "19", "10"),
        "a day of another event is a rival in the predicate's clause",
    ),
    (
        "Einstein was born in 1955.",
        LIFESPAN,
        ("date", "1955", "1879"),
        "born at the end of a life span",
    ),
    (
        "Einstein died in 1879.",
        LIFESPAN,
        ("date", "1879", "1955"),
        "died at the start of a life span",
    ),
    (
        "Einstein was born in April 1879.",
        LIFESPAN,
        ("date", "April", "March"),
        "a month at the other end of a life span",
    ),
    (
        "Shooting began in India in August 1994.",
        SHOOTING,
        ("date", "August", "September"),
        "a month at the other end of a span of filming",
    ),
    (
        "Shooting ended in India in 1994.",
        SHOOTING,
        ("date", "1994", "1995"),
        "ended with the year a span opens",
    ),
    (
        "The museum was built in the 1990s by the city.",
        "The museum was built in 1985 by the city.",
        ("date", "1990s", "1985"),
        "a year outside a claimed decade",
    ),
    (
        "The board meets on Tuesday in the town hall.",
        "The board meets on Thursday in the town hall.",
        ("date", "Tuesday", "Thursday"),
        "a weekday the anchor names differently",
    ),
    (
        "The castle was built in the 12th century.",
        "The castle was built in 1350 by the duke.",
        ("date", "12th", "1350"),
        "a year outside a claimed century",
    ),
    (
        "The album was released before 2001.",
        "The album was released in 2001.",
        ("date", "before 2001", "2001"),
        "before 2001 fails for 2001",
    ),
    (
        "The album was released after 2003.",
        "The album was released in 2001.",
        ("date", "after 2003", "2001"),
        "after 2003 fails for 2001",
    ),
    (
        "Filming began before 2002.",
        "Filming began in 2015; the film premiered on September 2, 2016.",
        ("date", "before 2002", "2015"),
        "before 2002 fails for 2015",
    ),
]


@pytest.mark.parametrize(
    ("claim", "passage", "expected", "why"), DATES_CASES, ids=[c[3] for c in DATES_CASES]
)
def test_date_rules(claim: str, passage: str, expected: tuple[str, ...], why: str) -> None:
    assert_first_reason(claim, passage, expected, why)


DATED_DAYS = [
    ("en", "born on the 3rd of March, 1971", (3, "march")),
    ("en", "born Oct. 16th 1971", (16, "october")),
    ("de", "am 3. März 1971 geboren", (3, "märz")),
    ("fr", "née le 1er mars 1971", (1, "mars")),
    ("es", "nació el 3 de marzo de 1971", (3, "marzo")),
    ("hi", "3 मार्च 1971 को", (3, "मार्च")),
    ("en", "born in 1971", None),
]


@pytest.mark.parametrize(("code", "text", "expected"), DATED_DAYS)
def test_a_years_day_and_month_in_either_order(
    code: str, text: str, expected: tuple[int, str] | None
) -> None:
    assert day_and_month_before(text, "1971", code) == expected


@pytest.mark.parametrize(
    ("code", "passage", "wrong", "right"),
    [
        (
            "fr",
            "Lena Voss est née le 3 mars 1971 et a ouvert sa galerie en 2004.",
            "Lena Voss est née le 3 mars 2004.",
            "Lena Voss est née le 3 mars 1971.",
        ),
        (
            "es",
            "Lena Voss nació el 3 de marzo de 1971 y abrió su galería en 2004.",
            "Lena Voss nació el 3 de marzo de 2004.",
            "Lena Voss nació el 3 de marzo de 1971.",
        ),
    ],
)
def test_the_year_a_passage_gives_a_day_in_each_language(
    code: str, passage: str, wrong: str, right: str
) -> None:
    assert [(r.check, r.evidence) for r in check(wrong, passage, code)][:1] == [("date", "1971")]
    assert not [r for r in check(right, passage, code) if r.check == "date"]


NEWS = (
    "Anna Brandt surrendered to the police late on Thursday. The police on Wednesday "
    "recovered the truck and the shotgun from the lake."
)


@pytest.mark.parametrize(
    ("claim", "passage", "fires"),
    [
        # the claim's words lead to "Wednesday" only in a sentence about something else
        ("Anna Brandt surrendered to the police on Thursday.", NEWS, False),
        ("Anna Brandt handed herself in to the police on Thursday.", NEWS, False),
        # ... and to "Tuesday" in the sentence about her surrender: a rival
        (
            "Anna Brandt surrendered to the police on Thursday.",
            "Anna Brandt surrendered to the police on Tuesday. Thursday was quiet.",
            True,
        ),
        (
            "Anna Brandt surrendered to the police in March.",
            "Anna Brandt surrendered to the police in May. The trial opened in March.",
            True,
        ),
    ],
)
def test_a_calendar_rival_the_claims_words_lead_to_must_be_about_the_claim(
    claim: str, passage: str, fires: bool
) -> None:
    """A weekday or month the claim states is contradicted by another its words lead to
    ("police on Wednesday") only where that sentence is about the same thing."""
    assert ("date" in {r.check for r in check(claim, passage)}) is fires
