"""Names a check cannot read or must read as one (``checks.proper_names``, ``checks.words``,
``checks.entities``, ``checks.name_frames``): a name cut by a letter the text could not
encode, one name in two inflections, and a name set after a copula."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.proper_names import names
from ragguard.scoring.checks.words import written_two_ways


def entities(claim: str, passage: str) -> list[tuple[str, str]]:
    return [(r.claim, r.evidence) for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize("unread", ["??", "\ufffd", "?\u00ad?\u00ad"])
@pytest.mark.parametrize(
    ("written", "claimed"),
    [
        ("Saint-Th{}gonnec", "Saint-Thégonnec"),
        ("Atat{}rk", "Atatürk"),
        ("Mus{}e Brask", "Musée Brask"),
    ],
)
def test_a_name_cut_by_an_unread_letter_is_no_rival(
    unread: str, written: str, claimed: str
) -> None:
    passage = f"The arch at {written.format(unread)} sets the tone for the calvary of 1610."
    cut = written.split("{}")[0].split("-")[-1]  # "Th" of "Saint-Th??gonnec"
    assert cut not in [w for name in names(passage) for w in name.split()]
    assert not entities(f"A triumphal arch stands at {claimed}.", passage)


@pytest.mark.parametrize("first", ["Rome", "TGIF", "Riga"])
def test_a_question_mark_before_a_capital_closes_a_question(first: str) -> None:
    """Chat text drops the space after "?": both names stay names."""
    assert names(f"Are you coming to {first}?Wanna meet Lena Brandt there") == (
        first,
        "Wanna",
        "Lena Brandt",
    )


@pytest.mark.parametrize(
    ("first", "second", "one"),
    [
        ("Girl Scouting", "Girl Scouts", True),
        ("Kellan Bridges", "Kellan Bridge", True),
        ("Orlen Trusts", "Orlen Trust", True),
        ("Hani Hanjour", "Hani Hanji", True),
        ("FAA", "AFA", True),  # a swap
        ("Austria", "Australia", False),  # one word may be another's root
        ("Kellan Bridge", "Millbrook Bridge", False),
        ("Girl Scouts", "Boy Scouts", False),
        ("FAA", "FDA", False),
    ],
)
def test_one_name_may_be_written_two_ways(first: str, second: str, one: bool) -> None:
    assert written_two_ways(first, second) is one


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Girl Scouting benefits parent and child bonds.",
            "Parent and child bonds benefit from the Girl Scouts.",
        ),
        (
            "The Kellan Bridges span the river at Riga.",
            "The Kellan Bridge spans the river at Riga.",
        ),
    ],
)
def test_a_name_in_another_inflection_is_the_same_name(passage: str, claim: str) -> None:
    assert not entities(claim, passage)


def test_a_single_word_root_of_another_name_still_fires() -> None:
    found = entities(
        "The team flew from Australia to Riga in 1931.",
        "The team flew from Austria to Riga in 1931.",
    )
    assert found == [("Australia", "Austria")]


SAID = "{reporter} noted that the finest sculptor of her day was {link}{named}."


@pytest.mark.parametrize("link", ["", "undoubtedly ", "surely "])
@pytest.mark.parametrize(
    ("reporter", "named"),
    [("Nora Quist", "Lena Brandt"), ("Omar Farouk", "Mira Chandra"), ("Paul Fischer", "Hana Sato")],
)
def test_a_name_after_a_copula_is_what_the_subject_is(link: str, reporter: str, named: str) -> None:
    """ "The finest sculptor was Lena Brandt" says "Lena Brandt was the finest sculptor"; the
    reporter who says it is no rival."""
    passage = SAID.format(reporter=reporter, link=link, named=named)
    assert not entities(f"{named} was the finest sculptor of her day.", passage)


@pytest.mark.parametrize(
    ("reporter", "named"), [("Nora Quist", "Lena Brandt"), ("Omar Farouk", "Mira Chandra")]
)
def test_another_subject_with_no_copula_before_the_name_still_fires(
    reporter: str, named: str
) -> None:
    passage = f"{reporter} was the finest sculptor of her day."
    assert entities(f"{named} was the finest sculptor of her day.", passage) == [(named, reporter)]


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Nora Quist a noté que la meilleure sculptrice de son temps était Lena Brandt.",
            "Lena Brandt était la meilleure sculptrice de son temps.",
        ),
        (
            "Nora Quist escribió que la mejor escultora de su tiempo era Lena Brandt.",
            "Lena Brandt era la mejor escultora de su tiempo.",
        ),
        (
            "Nora Quist schrieb, die beste Bildhauerin ihrer Zeit war Lena Brandt.",
            "Lena Brandt war die beste Bildhauerin ihrer Zeit.",
        ),
    ],
    ids=["fr", "es", "de"],
)
def test_each_language_reads_its_own_copulas(passage: str, claim: str) -> None:
    assert not entities(claim, passage)
    rival = f"Nora Quist {claim.split(' ', 2)[2]}"  # the reporter in the subject's place
    assert entities(claim, rival) == [("Lena Brandt", "Nora Quist")]
