"""A ranking narrowed by a word of its own does not state the plain ranking."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Lake Tessel is the largest natural lake in Latvia.",
            "Lake Tessel is the largest lake in Latvia.",
        ),
        (
            "The Kellan Bridge is the longest wooden bridge in Riga.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Der Tessel-See ist der größte natürliche See von Lettland.",
            "Der Tessel-See ist der größte See von Lettland.",
        ),
        (
            "Le lac Tessel est le plus grand lac naturel de Lettonie.",
            "Le lac Tessel est le plus grand lac de Lettonie.",
        ),
        (
            "El puente Kellan es el puente de madera más largo de Riga.",
            "El puente Kellan es el puente más largo de Riga.",
        ),
        ("टेसल झील लातविया की सबसे बड़ी प्राकृतिक झील है।", "टेसल झील लातविया की सबसे बड़ी झील है।"),
    ],
)
def test_a_narrowed_ranking_does_not_state_the_plain_one(passage: str, claim: str) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Lake Tessel is the largest natural lake in Latvia.",
            "Lake Tessel is the largest natural lake in Latvia.",
        ),
        ("Lake Tessel is Latvia's largest lake.", "Lake Tessel is the largest lake in Latvia."),
        (
            "The Kellan Bridge is the longest bridge in Riga.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Le lac Tessel est le plus grand lac de Lettonie.",
            "Le lac Tessel est le plus grand lac de Lettonie.",
        ),
    ],
)
def test_the_same_words_or_a_name_narrow_nothing(passage: str, claim: str) -> None:
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Bridge was the longest bridge in Riga until 1960.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Die Kellan-Brücke war einst die längste Brücke in Riga.",
            "Die Kellan-Brücke ist die längste Brücke in Riga.",
        ),
        (
            "Le pont Kellan a été le plus long pont de Riga jusqu'en 1960.",
            "Le pont Kellan est le plus long pont de Riga.",
        ),
        (
            "El puente Kellan fue en su día el puente más largo de Riga.",
            "El puente Kellan es el puente más largo de Riga.",
        ),
        ("केलन पुल 1960 तक रीगा का सबसे लंबा पुल था।", "केलन पुल रीगा का सबसे लंबा पुल है।"),
    ],
)
def test_a_ranking_bounded_in_time_does_not_hold_now(passage: str, claim: str) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Bridge was the longest bridge in Riga until 1960.",
            "The Kellan Bridge was the longest bridge in Riga.",
        ),
        (
            "Once it opened in 1931, the Kellan Bridge became the longest bridge in Riga.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "El 21 de junio es el día más largo del año.",
            "El 21 de junio es el día más largo del año.",
        ),
    ],
)
def test_a_past_claim_or_a_bound_far_from_the_ranking_is_stated(passage: str, claim: str) -> None:
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Tower is the tallest building in the old town of Riga.",
            "The Kellan Tower is the tallest building in Riga.",
        ),
        (
            "Lake Orvel is the largest lake in the north of Arvenia.",
            "Lake Orvel is the largest lake in Arvenia.",
        ),
        (
            "Der Kellan-Turm ist das höchste Gebäude in der Altstadt von Riga.",
            "Der Kellan-Turm ist das höchste Gebäude in Riga.",
        ),
        (
            "La tour Kellan est le plus haut bâtiment de la vieille ville de Riga.",
            "La tour Kellan est le plus haut bâtiment de Riga.",
        ),
        (
            "La torre Kellan es el edificio más alto del casco antiguo de Riga.",
            "La torre Kellan es el edificio más alto de Riga.",
        ),
        (
            "केलन टावर रीगा के पुराने शहर की सबसे ऊँची इमारत है।",
            "केलन टावर रीगा की सबसे ऊँची इमारत है।",
        ),
    ],
)
def test_a_ranking_within_part_of_a_place_is_none_within_the_whole(
    passage: str, claim: str
) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Tower is the tallest building in the old town of Riga.",
            "The Kellan Tower is the tallest building in the old town of Riga.",
        ),
        (
            "The Kellan Tower is the tallest building in the city of Riga.",
            "The Kellan Tower is the tallest building in Riga.",
        ),
        (
            "Of all the bridges in Riga, the Kellan Bridge is the longest.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "रोवन पुल रीगा का सबसे लंबा और सबसे पुराना पुल है।",
            "रोवन पुल रीगा का सबसे पुराना पुल है।",
        ),
        (
            "रीगा के सभी पुलों में केलन पुल सबसे लंबा है।",
            "केलन पुल रीगा का सबसे लंबा पुल है।",
        ),
        (  # the place as the ranking's possessor: a later "Arvenia" is another name's
            "The Tessel flows past Orvel, Arvenia's fifth longest, which links the town to "
            "the Arvenia Gulf.",
            "The Tessel is the fifth longest river in Arvenia.",
        ),
        (  # no function word before the claim's word after the ranking: no place
            "The first building was designed by Anna Brandt, included a stage and was "
            "closed in 2006.",
            "The theatre's first building included a stage.",
        ),
        (
            "El primer edificio fue diseñado por Anna Brandt, incluía un escenario.",
            "El primer edificio del teatro incluía un escenario.",
        ),
    ],
)
def test_a_place_named_by_its_kind_or_another_build_narrows_nothing(
    passage: str, claim: str
) -> None:
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "In 1900, the Kellan Tower was the tallest building in Riga.",
            "The Kellan Tower is the tallest building in Riga.",
        ),
        (
            "Als er 1900 eröffnet wurde, war der Kellan-Turm das höchste Gebäude in Riga.",
            "Der Kellan-Turm ist das höchste Gebäude in Riga.",
        ),
        (
            "En 1900, la tour Kellan était le plus haut bâtiment de Riga.",
            "La tour Kellan est le plus haut bâtiment de Riga.",
        ),
        (
            "Cuando se inauguró en 1900, la torre Kellan fue el edificio más alto de Riga.",
            "La torre Kellan es el edificio más alto de Riga.",
        ),
        (
            "1900 में केलन टावर रीगा की सबसे ऊँची इमारत थी।",
            "केलन टावर रीगा की सबसे ऊँची इमारत है।",
        ),
    ],
)
def test_a_ranking_held_in_a_past_year_is_no_present_one(passage: str, claim: str) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "In 1900, the Kellan Tower was the tallest building in Riga.",
            "The Kellan Tower was the tallest building in Riga in 1900.",
        ),
        (
            "The Kellan Tower, which was built in 1900, is the tallest building in Riga.",
            "The Kellan Tower is the tallest building in Riga.",
        ),
    ],
)
def test_a_past_claim_or_a_past_clause_beside_a_present_ranking_is_stated(
    passage: str, claim: str
) -> None:
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Bridge is the longest bridge in Riga built before 1900.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "The Kellan Bridge is the only bridge in Riga that carries trains.",
            "The Kellan Bridge is the only bridge in Riga.",
        ),
        (
            "Le pont Kellan est le seul pont de Riga construit en pierre.",
            "Le pont Kellan est le seul pont de Riga.",
        ),
        (
            "El puente Kellan es el puente más largo de Riga construido antes de 1900.",
            "El puente Kellan es el puente más largo de Riga.",
        ),
        (
            "Vanta Station is the busiest station in Riga with a glass roof.",
            "Vanta Station is the busiest station in Riga.",
        ),
        (
            "Die Kellan-Brücke ist die einzige Brücke in Riga mit zwei Decks.",
            "Die Kellan-Brücke ist die einzige Brücke in Riga.",
        ),
        (  # German writes a comma before every relative clause; this one ends in its verb
            "Die Kellan-Brücke ist die einzige Brücke in Riga, die Züge trägt.",
            "Die Kellan-Brücke ist die einzige Brücke in Riga.",
        ),
        (  # the place before the ranking, the restriction after its noun and verb
            "केलन पुल रीगा का एकमात्र पुल है जिसमें दो डेक हैं।",
            "केलन पुल रीगा का एकमात्र पुल है।",
        ),
    ],
)
def test_a_ranking_restricted_after_its_place_is_none_of_the_whole(
    passage: str, claim: str
) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (  # a comma: more of the same bridge
            "The Kellan Bridge is the longest bridge in Riga, built in 1931.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (  # an apposition to the place, not a relative clause: it ends in a noun
            "Die Kellan-Brücke ist die längste Brücke in Riga, der Hauptstadt Lettlands.",
            "Die Kellan-Brücke ist die längste Brücke in Riga.",
        ),
        (
            "The Kellan Bridge is the only bridge in Riga with two decks.",
            "The Kellan Bridge is the only bridge in Riga with two decks.",
        ),
        (
            "केलन पुल रीगा का एकमात्र पुल है जिसमें दो डेक हैं।",
            "केलन पुल रीगा का एकमात्र पुल है जिसमें दो डेक हैं।",
        ),
    ],
)
def test_a_comma_an_apposition_or_the_same_restriction_restricts_nothing(
    passage: str, claim: str
) -> None:
    assert "superlative" not in {r.check for r in check(claim, passage)}
