"""Claims the passages never make (``checks.superlatives``): a ranking ("the tallest", "the
most visited", "the only", "the first") no passage states is a ``superlative`` reason, which
lowers support through the head's contradiction feature (it vetoes nothing: the shipped heads
were trained before it existed); one a passage states is none."""

from __future__ import annotations

import pytest

from ragguard.config import JudgeConfig
from ragguard.language import lexicon
from ragguard.schema.check_kinds import CONFLICTS
from ragguard.scoring.checks import CONTRADICTIONS, check
from ragguard.scoring.checks.superlatives import rankings
from ragguard.scoring.lite.scorers import check_features
from tests.scoring.checks.passages import fired

TOWER = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was completed in 1889. It is 330 metres tall."
)
RECORD = (
    "The Eiffel Tower was the tallest man-made structure in the world until 1930. "
    "It is the most visited paid monument in the world."
)


def superlatives(claim: str, passage: str) -> list[str]:
    return [claim_says for kind, claim_says, _ in fired(claim, passage) if kind == "superlative"]


@pytest.mark.parametrize(
    ("claim", "phrase"),
    [
        ("The Eiffel Tower is the most visited monument in the world.", "the most visited"),
        ("The Eiffel Tower is the tallest structure in Paris.", "the tallest"),
        ("The Eiffel Tower is the only tower in Paris.", "the only"),
        ("The Eiffel Tower was the first iron tower.", "the first"),
        ("It is the second-largest tower in France.", "the second largest"),
        ("It is France's largest tower.", "s largest"),
    ],
)
def test_a_ranking_no_passage_states_is_a_superlative_reason(claim: str, phrase: str) -> None:
    assert superlatives(claim, TOWER) == [phrase]


@pytest.mark.parametrize(
    "claim",
    [
        "The Eiffel Tower was the tallest structure in the world.",
        "The Eiffel Tower is the most visited monument.",
        "The Eiffel Tower is a lattice tower in the forest of Paris.",  # "forest" ranks nothing
        "The tower was last painted in 2019.",  # "last" is left out: mostly time
        "At first the tower was criticised.",  # "first" counts after "the" only
    ],
)
def test_a_ranking_a_passage_states_or_no_ranking_is_no_reason(claim: str) -> None:
    assert superlatives(claim, RECORD) == []


def test_the_superlative_check_lowers_support_and_vetoes_nothing() -> None:
    assert "superlative" not in CONTRADICTIONS  # no cap, no check_fired for the judge
    assert "superlative" in CONFLICTS  # the head's contradiction feature reads it
    reasons = check("The Eiffel Tower is the tallest structure in Paris.", TOWER)
    assert [r.check for r in reasons] == ["superlative"]
    assert check_features(reasons) == (1.0, 0.0)
    with pytest.raises(ValueError):
        JudgeConfig(may_overrule=["superlative"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("code", "claim", "passage", "phrase"),
    [
        (
            "de",
            "Der Eiffelturm ist das höchste Gebäude in Paris.",
            "Der Eiffelturm steht in Paris. Er ist 330 Meter hoch.",
            "das höchste",
        ),
        (
            "fr",
            "La tour Eiffel est le monument le plus visité du monde.",
            "La tour Eiffel se trouve à Paris. Elle mesure 330 mètres.",
            "le plus visité",
        ),
        (
            "es",
            "La torre Eiffel es el monumento más visitado del mundo.",
            "La torre Eiffel está en París. Mide 330 metros.",
            None,  # "más" after a noun, not after an article: Spanish writes it so too
        ),
        (
            "es",
            "La torre Eiffel es la más alta de París.",
            "La torre Eiffel está en París. Mide 330 metros.",
            "la más alta",
        ),
        (
            "hi",
            "एफिल टावर पेरिस की सबसे ऊँची इमारत है।",
            "एफिल टावर पेरिस में है। यह 330 मीटर ऊँचा है।",
            "सबसे ऊँची",
        ),
    ],
)
def test_rankings_in_each_language(code: str, claim: str, passage: str, phrase: str | None) -> None:
    assert superlatives(claim, passage) == ([phrase] if phrase else [])
    assert superlatives(claim, passage + " " + claim) == []  # a passage stating it


def test_the_cues_are_data_per_language() -> None:
    for code in ("en", "de", "fr", "es", "hi"):
        found = lexicon(code)
        assert found is not None and (found.superlatives.words or found.superlatives.analytic)
    english = lexicon("en")
    assert english is not None
    assert rankings(("the", "tallest", "tower"), english.superlatives) == [
        ("the tallest", ("tallest",))
    ]


@pytest.mark.parametrize("subject", ["The Danube", "Lake Tessel", "The Rhine", "Mount Kell"])
@pytest.mark.parametrize(
    ("ranked", "stated", "fires"),
    [
        ("the longest", "the second-longest", True),  # a rank is not the top
        ("the largest", "the sixth-largest", True),
        ("the second-longest", "the longest", True),
        ("the third-largest", "the sixth-largest", True),
        ("the second-longest", "the second-longest", False),
        ("the longest", "the longest", False),
    ],
)
def test_a_rank_keeps_its_ordinal(subject: str, ranked: str, stated: str, fires: bool) -> None:
    claim = f"{subject} is {ranked} feature of the region."
    passage = f"{subject} is {stated} feature of the region. It was mapped in 1850."
    assert bool(superlatives(claim, passage)) is fires


@pytest.mark.parametrize("after", ["with", "of", "in", "for"])
@pytest.mark.parametrize("subject", ["The Danube", "The museum", "Lake Tessel"])
def test_an_analytic_cue_before_a_function_word_ranks_nothing(subject: str, after: str) -> None:
    claim = f"{subject} is the place that has the most {after} visitors each year."
    assert superlatives(claim, f"{subject} has many visitors each year.") == []


@pytest.mark.parametrize("subject", ["Lake Vorna", "The Danube", "Mount Kell"])
@pytest.mark.parametrize("ranked", ["the largest", "the first", "the most visited"])
def test_a_denied_ranking_claims_no_rank(subject: str, ranked: str) -> None:
    passage = f"{subject} is the sixth-largest site of the region. It was mapped in 1850."
    assert superlatives(f"{subject} is not {ranked} site of the region.", passage) == []
