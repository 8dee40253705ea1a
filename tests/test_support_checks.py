"""The typed contradiction checks, the edits built from them, and the veto in the lite scorer."""

import numpy as np
import pytest

from ragguard.scoring.checks import (
    check,
    quantities,
    ranges,
    same_quantity,
)
from ragguard.scoring.checks.numbers import SPELLED_VALUES as _WORD_VALUES
from ragguard.scoring.checks.words import two_words_before as _lead
from ragguard.scoring.lexicon import ORDINAL_WORDS as _ORDINAL_WORDS
from ragguard.scoring.lite import vetoed
from ragguard.scoring.protocols import Reason
from ragguard.train.datasets import Pair
from ragguard.train.perturb import edit, edits, hard_negatives

PARIS = "The Eiffel Tower is a lattice tower in Paris, France."
BOILING = "Water boils at 100 degrees Celsius at sea level."
DRUG = "The drug was not approved by the FDA in 2020; the agency asked for more trials."
EINSTEIN = (
    "Albert Einstein was born in Ulm in March 1879 and moved to Munich with 2 sisters. "
    "About 1.5 million people live in Munich."
)

LIFESPAN = (
    "Albert Einstein (14 March 1879 – 18 April 1955) was a German-born theoretical physicist."
)
SHOOTING = "Shooting took place in India and London, from September 1994 to August 1995."


def fired(claim, passage):
    return [(r.check, r.claim, r.evidence) for r in check(claim, passage)]


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
    for word, value in _WORD_VALUES.items():
        (found,) = quantities(f"They counted {word} boats.")
        assert (found.text, found.value) == (word, value)
    for word, value in _ORDINAL_WORDS.items():
        (found,) = quantities(f"It was the {word} attempt.")
        assert (found.text, found.value) == (word, value)
    assert quantities("Seventeenth-century tenants were oneself and fivefold.") == ()


def test_the_words_before_a_value_are_read_however_far_it_sits():
    long_prefix = "word " * 60
    assert _lead(f"{long_prefix}moved to Ulm in 1901", "Ulm") == ("moved", "to")
    assert _lead("In 1901", "1901") == ("in",)
    assert _lead("income of $ 87,894", "87,894") == ("income", "of")
    assert _lead("no such value", "Ulm") == ()


def test_a_capitalized_number_word_inside_a_name_is_no_quantity():
    assert [q.text for q in quantities("The Hundred Years' War had three phases.")] == ["three"]
    assert [q.text for q in quantities("Four people watched Ocean's Eleven.")] == ["Four"]


def test_a_one_letter_scale_needs_a_currency_sign():
    (metres,) = quantities("The pole is 5m tall.")
    assert metres.value == 5


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


@pytest.mark.parametrize(
    ("claim", "passage", "expected"),
    [
        ("Water boils at 50 degrees Celsius at sea level.", BOILING, ("number", "50", "100")),
        ("The Eiffel Tower is in Berlin [2].", PARIS, ("entity", "Berlin", "Paris")),
        (
            "The drug was approved by the FDA in 2020.",
            DRUG,
            ("negation", "", "not approved by the fda"),
        ),
        ("Einstein was born in Ulm in 1890.", EINSTEIN, ("date", "1890", "1879")),
        ("Einstein was born in Ulm in May 1879.", EINSTEIN, ("date", "May", "March")),
        ("Einstein moved to Ulm with 2 sisters.", EINSTEIN, ("entity", "Ulm", "Munich")),
        ("The store is closed on Sundays.", "The store is open on Sundays.", ("negation",)),
        ("No participant completed the trial.", "All participants completed the trial.", None),
    ],
)
def test_each_check_fires_with_what_the_evidence_says(claim, passage, expected):
    (reason,) = [r for r in fired(claim, passage) if r[0] != "uncovered"]
    if expected is None:
        assert reason[0] == "negation" and reason[1].startswith("no participant")
    else:
        assert reason[: len(expected)] == expected


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("The Eiffel Tower is in Paris.", PARIS),
        ("Mount Everest is 8849 metres tall.", "Mount Everest is 8,849 metres tall."),
        ("The city has ten parks.", "The city has 10 parks."),
        ("Einstein was born in Ulm and moved to Munich.", EINSTEIN),
        ("The drug was not approved in 2020.", DRUG),
        ("The Eiffel Tower is in Berlin.", "Berlin is the capital of Germany."),
    ],
)
def test_supported_or_unrelated_pairs_fire_nothing(claim, passage):
    assert fired(claim, passage) == []


def test_added_fact_is_uncovered_content():
    claim = "The Eiffel Tower is in Paris and was painted green by Picasso in secret."
    assert ("uncovered", "painted green picasso secret", "") in fired(claim, PARIS)


def test_veto_caps_fired_pairs_below_eta_and_keeps_order():
    scores = np.array([0.9, 0.8, 0.9], dtype=np.float32)
    reasons = [(Reason("number", "50", "100"),), (Reason("uncovered", "x", ""),), ()]
    out = vetoed(scores, reasons, frozenset({"number"}), eta=0.6)
    assert out[0] == pytest.approx(0.3) and out[1:].tolist() == pytest.approx([0.8, 0.9])


def test_edited_ordinals_keep_a_true_suffix():
    made = edit("He came 21st in the race.", "He came 21st in the race.", "number")
    assert made is not None and made.after == "10th"


def test_edits_are_single_and_deterministic():
    claim = "Albert Einstein was born in Ulm in 1879."
    made = {e.kind: e for e in edits(claim, EINSTEIN, seed=3)}
    assert set(made) == {"date", "negation", "entity", "antonym"}
    assert made["entity"].text == "Albert Einstein was born in Munich in 1879."
    assert made["negation"].text == "Albert Einstein was not born in Ulm in 1879."
    assert made["antonym"].text == "Albert Einstein died in Ulm in 1879."
    assert edits(claim, EINSTEIN, seed=3) == list(made.values())
    number = edit("About 1.5 million people live in Munich.", EINSTEIN, "number")
    assert number is not None and number.before == "1.5 million" and number.after != "1.5 million"
    assert edit("Water boils.", BOILING, "number") is None


def test_hard_negatives_share_the_evidence_and_count_kinds():
    pairs = [Pair(EINSTEIN, "Einstein was born in Ulm in 1879.", 1, "s"), Pair(PARIS, "x", 0, "s")]
    out, kinds = hard_negatives(pairs, share=1.0, seed=0)
    (extra,) = out[2:]
    assert extra.context == EINSTEIN and extra.label == 0 and sum(kinds.values()) == 1
    assert hard_negatives(pairs, share=1.0, seed=0) == (out, kinds)


class _Plain:
    """A support scorer with fixed low scores and no reasons, like ``nli``."""

    threshold = 0.5

    def support(self, claims, evidence):
        return np.full(len(claims), 0.2, dtype=np.float32)


class _Explaining(_Plain):
    """The same scores, with the same reasons for every pair, like the lite scorer."""

    def __init__(self, reasons):
        self.reasons = reasons

    def support_with_reasons(self, claims, evidence):
        return self.support(claims, evidence), [self.reasons for _ in claims]


def test_engine_gives_each_reason_once_with_its_item_and_none_without_them(guard):
    from ragguard.engine import Evaluator
    from ragguard.schema import Trace

    def run(scorer):
        evaluator = Evaluator(
            support=scorer,
            relevance=guard.evaluator.relevance_scorer,
            embedder=guard.evaluator.embedder,
        )
        items = [{"id": "d1", "text": PARIS}, {"id": "d2", "text": BOILING}]
        (span,) = evaluator.evaluate_batch(
            [Trace.parse({"trace_id": "t", "query": "q", "items": items, "response": "It is."})]
        )[0].spans
        return span

    reason = Reason("number", "50", "100")
    span = run(_Explaining((reason,)))
    assert span.supported is False
    assert [(r.check, r.claim, r.evidence, r.item) for r in span.reasons] == [
        ("number", "50", "100", "d1")
    ]
    assert run(_Plain()).reasons == []


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Jack Falahee is from America.", "Jack Falahee is an American actor."),
        ("Kenya won the race.", "The Kenyan team won the race."),
        ("J. Smith founded the firm in Ohio.", "John Smith founded the firm in Ohio."),
        (
            "The Ukrainian SSR was a member of the UN.",
            "The Ukrainian SSR joined the United Nations as a member.",
        ),
        ("Yesterday John Smith won the final.", "John Smith won the final."),
        ("The Smiths released the album.", "The album was released by Smith."),
        ("Mick Thomson was born in Iowa.", "Mick Thomson was born in Des Moines, Iowa."),
        ("The town has 1,500,000 people.", "The town has 1.5 million people."),
        ("The town has about 100 parks.", "The town has 98 parks."),
        ("The earth is more than 4 billion years old.", "The earth is 4.54 billion years old."),
        ("It finished third in the race.", "It finished 3rd in the race."),
        ("Seventy-two churches are named for him.", "72 churches are named for him."),
        ("The war began in 1916.", "The war lasted 1914 -- 1918 across Europe and began then."),
        ("The film was shot on Jan. 5, 2015.", "The film was shot on January 5, 2015."),
        ("Two people stand outside the shop.", "A man and a woman stand outside the shop."),
        ("The show aired on the 8th.", "The show aired on December 8, 2015."),
        (
            "The firm was founded in 1994.",
            "The firm was founded in 1994, and acquired by Activision in January 2002.",
        ),
        (
            "Revenues and earnings grew by 19% and 38%.",
            "Revenues grew 19%, EBITDA was up 21% and earnings per share increased 38%.",
        ),
        (
            "Smith checked in for Flight 77.",
            "At 7:15, Smith checked in at the counter for Flight 77, bound for Los Angeles.",
        ),
        (
            "The name change takes place during the 2018–19 academic year.",
            "The new name is used from the 2018–19 academic year.",
        ),
        ("The club won the league in 2019.", "The club won the league in the 2018-19 season."),
        (
            "The museum does not charge for entry.",
            "Entry to the museum is free; it does not charge visitors.",
        ),
        (
            "The film Café Society stars Sheryl Lee.",
            "Sheryl Lee stars in the film Cafe\u0301 Society, directed by Woody Allen.",
        ),
        (
            "The net interest margin was higher than in Q2.",
            "The net interest margin was higher than in Q2, the bank said.",
        ),
        (
            "The company did not get the balance right when it raised prices.",
            "The boss admitted that the company failed to get the balance right when it "
            "raised prices.",
        ),
        ("Animal cells do not have cell walls.", "Animal cells lack cell walls and chloroplasts."),
        ("Einstein died in 1955.", LIFESPAN),
        ("Einstein was born in March 1879.", LIFESPAN),
        ("Shooting began in India in September 1994.", SHOOTING),
        ("The museum was built in the 1990s by the city.", "The city built the museum in 1994."),
        (
            "The bridge over the river is 300 m long.",
            "The bridge over the river is 300 metres long.",
        ),
        ("The town has 1.5 million people.", "The town has 1,520,000 people."),
        ("The store is open on Sundays.", "The store is open on Sundays and Mondays."),
        ("The discovery was made in 1990.", "Researchers discovered the cover in 1990."),
        ("The castle was built in the 14th century.", "The castle was built in 1350."),
        ("Smoking is not allowed in the park.", "Smoking is prohibited in the park."),
        (
            "Water freezes at 0 degrees Celsius.",
            "Water freezes at 32 degrees Fahrenheit, or 0 degrees Celsius.",
        ),
        ("Python was created by Guido van Rossum.", "Python was created by Guido van Rossum."),
        (
            "The drug was ineffective against the virus.",
            "The drug was not effective against the virus.",
        ),
        ("The cause of the fire is not known.", "The cause of the fire is unknown."),
        ("He directed plays in the 20th century.", "He (January 8, 1912 – 1992) directed plays."),
        (
            "Earnings grew by 17% despite the impact of COVID-19.",
            "Earnings grew 17% from last year, the company said.",
        ),
        (
            "Record earnings were roughly two-fold the prior-year levels.",
            "Record earnings were roughly double the prior-year levels of $64.2 million.",
        ),
        ("The album was released before 2005.", "The album was released in 2001."),
        ("The album was released in or before 2005.", "The album was released in 2001."),
        (
            "They expect revenue for the full year 2020 to be between $11.1 and $11.3 billion.",
            "We now expect 2020 revenue for the full year to be between $11.1 and $11.3 billion.\n"
            "For the full year 2021, we expect revenue of $12.3 billion.",
        ),
        ("The plan is important, whether we like it or not.", "The plan is important."),
        (
            "The final product will be more costly for buyers, no matter what method of "
            "customization was used.",
            "Regardless of how customization was done in the past, consumers paid more for "
            "the end product.",
        ),
        (
            "The matter of whether or not the Mass is a sacrifice for the remission of sins is "
            "controversial.",
            "As for the divisive issue of whether the Mass is a sacrifice for the remission of "
            "sins, the statement affirms that Christ's death upon the cross ...",
        ),
        (
            "The final season was its seventh season.",
            "The series began its seventh and final season, having finished its sixth season.",
        ),
    ],
)
def test_former_false_alarms_fire_nothing(claim, passage):
    assert [r for r in fired(claim, passage) if r[0] != "uncovered"] == []


@pytest.mark.parametrize(
    ("claim", "passage", "expected"),
    [
        (
            "The tower contains 8 elevators.",
            "The tower contains a total of 57 elevators and 8 escalators.",
            ("number", "8", "57"),
        ),
        (
            "The town reported a median income of $62,527 in 2012.",
            "The town reported a median income of $ 87,894, above the average of $ 62,527.",
            ("number", "62,527", "87,894"),
        ),
        (
            "The show aired on the 9th.",
            "The show aired on December 8, 2015.",
            ("number", "9th", "8"),
        ),
        (
            "Cuthbert has over 35 churches named after him.",
            "Seventy-two churches in Britain were named for Cuthbert.",
            None,
        ),
        (
            "The film sold 6 million copies.",
            "The film sold more than 3 million copies.",
            ("number",),
        ),
        (
            "In 2002, the firm was founded.",
            "The firm was founded in 1994, and acquired by Activision in January 2002.",
            ("date", "2002", "1994"),
        ),
        (
            "Shomu Mukherjee died on April 19, 2008.",
            "Shomu Mukherjee (19 June, 1943 -- 10 April 2008) was a director. "
            "He died of a heart attack on 10 April 2008 at the age of 64.",
            ("date", "19", "10"),
        ),
        (
            "He scored 19 goals in the season.",
            "In the 2018–19 season he scored 30 goals.",
            ("number", "19", "30"),
        ),
        (
            "Astronomers have not used the telescope to peer inside spiral galaxies.",
            "Astronomers have used the telescope to peer inside spiral galaxies. "
            "Nobody expected the pictures to be so sharp.",
            ("negation", "not used the telescope", ""),
        ),
        ("Einstein was born in 1955.", LIFESPAN, ("date", "1955", "1879")),
        ("Einstein died in 1879.", LIFESPAN, ("date", "1879", "1955")),
        ("Einstein was born in April 1879.", LIFESPAN, ("date", "April", "March")),
        ("Shooting began in India in August 1994.", SHOOTING, ("date", "August", "September")),
        ("Shooting ended in India in 1994.", SHOOTING, ("date", "1994", "1995")),
        (
            "The bridge over the river is 300 meters long.",
            "The bridge over the river is 300 feet long.",
            ("number", "300", "300 feet"),
        ),
        (
            "The renovation of the museum took 5 years.",
            "The renovation of the museum took 5 months.",
            ("number", "5", "5 months"),
        ),
        (
            "The museum was built in the 1990s by the city.",
            "The museum was built in 1985 by the city.",
            ("date", "1990s", "1985"),
        ),
        (
            "The board meets on Tuesday in the town hall.",
            "The board meets on Thursday in the town hall.",
            ("date", "Tuesday", "Thursday"),
        ),
        (
            "The product launched in the second quarter of 2021.",
            "The product launched in the third quarter of 2021.",
            ("number", "second", "third"),
        ),
        (
            "The policy applies to employees under 30.",
            "The policy applies to employees over 30.",
            ("number", "30", "30"),
        ),
        (
            "The country's population is 2 million.",
            "The country's population is 2.5 million.",
            ("number", "2 million", "2.5 million"),
        ),
        (
            "Sales of the phone grew by 20% in 2023.",
            "Sales of the phone fell by 20% in 2023.",
            ("negation", "grew", "fell"),
        ),
        (
            "Python was created by James Gosling.",
            "Python was created by Guido van Rossum in 1991.",
            ("entity", "James Gosling", "Guido van Rossum"),
        ),
        (
            "Four puppies play in the yard.",
            "Two puppies play in the yard.",
            ("number", "Four", "Two"),
        ),
        (
            "Jamie Murray is not a Davis Cup champion.",
            "Jamie Murray is a Davis Cup champion, currently the world No. 5 doubles player.",
            ("negation", "not a davis cup", ""),
        ),
        (
            "The castle was built in the 12th century.",
            "The castle was built in 1350 by the duke.",
            ("date", "12th", "1350"),
        ),
        (
            "The cause of the fire in the mill is known.",
            "The cause of the fire in the mill is unknown.",
            ("negation", "known", "unknown"),
        ),
        (
            "The company got the balance right when it raised prices.",
            "The boss admitted that the company failed to get the balance right when it "
            "raised prices.",
            ("negation", "", "failed to get the balance"),
        ),
        (
            "The album was released before 2001.",
            "The album was released in 2001.",
            ("date", "before 2001", "2001"),
        ),
        (
            "The album was released after 2003.",
            "The album was released in 2001.",
            ("date", "after 2003", "2001"),
        ),
        (
            "Filming began before 2002.",
            "Filming began in 2015; the film premiered on September 2, 2016.",
            ("date", "before 2002", "2015"),
        ),
        (
            "The album sold less than 100,000 copies.",
            "It debuted at number one on the Billboard 200 with sales of 258,000 copies.",
            ("number", "100,000", "258,000"),
        ),
    ],
)
def test_new_catches(claim, passage, expected):
    reasons = [r for r in fired(claim, passage) if r[0] != "uncovered"]
    if expected is None:
        assert reasons == []  # "over 35" holds for 72
    else:
        assert reasons and reasons[0][: len(expected)] == expected
