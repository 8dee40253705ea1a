"""A comparison that puts a thing above one the passage ranks higher."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check


def kinds(claim: str, passage: str) -> set[str]:
    return {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Orlen Bridge is the longest bridge in Riga. The Kellan Bridge opened in 1931.",
            "The Kellan Bridge is longer than the Orlen Bridge.",
        ),
        (
            "The Orlen Bridge is the second-longest bridge in Riga, and the Kellan Bridge is "
            "the third-longest.",
            "The Kellan Bridge is longer than the Orlen Bridge.",
        ),
        (
            "Die Orlen-Brücke ist die zweitlängste Brücke in Riga, und die Kellan-Brücke ist "
            "die drittlängste.",
            "Die Kellan-Brücke ist länger als die Orlen-Brücke.",
        ),
        (
            "Le pont Orlen est le plus long pont de Riga. Le pont Kellan a été inauguré en 1931.",
            "Le pont Kellan est plus long que le pont Orlen.",
        ),
        (
            "El puente Orlen es el puente más largo de Riga. El puente Kellan se inauguró en 1931.",
            "El puente Kellan es más largo que el puente Orlen.",
        ),
        (
            "ओर्लेन पुल रीगा का सबसे लंबा पुल है। केलन पुल 1931 में खुला था।",
            "केलन पुल ओर्लेन पुल से लंबा है।",
        ),
        (  # the second ranking is the nearer name's: the Orlen Bridge is the oldest
            "The Kellan Bridge is the longest bridge in Riga, and the Orlen Bridge is the oldest.",
            "The Kellan Bridge is older than the Orlen Bridge.",
        ),
        (
            "El puente Kellan es el puente más largo de Riga, y el puente Orlen es el más antiguo.",
            "El puente Kellan es más antiguo que el puente Orlen.",
        ),
    ],
)
def test_a_comparison_above_a_higher_ranked_thing_fires(passage: str, claim: str) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Orlen Bridge is the longest bridge in Riga. The Kellan Bridge opened in 1931.",
            "The Orlen Bridge is longer than the Kellan Bridge.",
        ),
        (
            "The Orlen Bridge is the second-longest bridge in Riga, and the Kellan Bridge is "
            "the third-longest.",
            "The Orlen Bridge is longer than the Kellan Bridge.",
        ),
        (
            "The Orlen Bridge is one of the longest bridges in Riga.",
            "The Kellan Bridge is longer than the Orlen Bridge.",
        ),
        (
            "The Orlen Bridge is the longest bridge in Riga.",
            "The Kellan Bridge is older than the Orlen Bridge.",
        ),
        (
            "The Kellan Bridge is the longest bridge in Riga, and the Orlen Bridge is the oldest.",
            "The Orlen Bridge is older than the Kellan Bridge.",
        ),
    ],
)
def test_a_comparison_the_ranking_allows_or_does_not_rank_fires_nothing(
    passage: str, claim: str
) -> None:
    """The passage ranks it lower, among others (no rank), or by another measure."""
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "above", "below"),
    [
        (
            "The Rowan Bridge is the longest bridge in Riga. The Kellan Bridge is the"
            " second-longest bridge in Riga.",
            "The Rowan Bridge is shorter than the Kellan Bridge.",
            "The Kellan Bridge is shorter than the Rowan Bridge.",
        ),
        (
            "Die Rowan-Brücke ist die längste Brücke in Riga. Die Kellan-Brücke ist die"
            " zweitlängste Brücke in Riga.",
            "Die Rowan-Brücke ist kürzer als die Kellan-Brücke.",  # "kurz" extended as "kürzer"
            "Die Kellan-Brücke ist kürzer als die Rowan-Brücke.",
        ),
        (
            "Le pont Rowan est le plus long pont de Riga. Le pont Kellan est le deuxième plus"
            " long pont de Riga.",
            "Le pont Rowan est plus court que le pont Kellan.",
            "Le pont Kellan est plus court que le pont Rowan.",
        ),
        (
            "El puente Rowan es el puente más largo de Riga. El puente Kellan es el segundo"
            " puente más largo de Riga.",
            "El puente Rowan es más corto que el puente Kellan.",
            "El puente Kellan es más corto que el puente Rowan.",
        ),
        (
            "रोवन पुल रीगा का सबसे लंबा पुल है। केलन पुल रीगा का दूसरा सबसे लंबा पुल है।",
            "रोवन पुल केलन पुल से छोटा है।",
            "केलन पुल रोवन पुल से छोटा है।",
        ),
    ],
)
def test_a_comparison_in_the_opposite_word_is_read_with_its_sides_swapped(
    passage: str, above: str, below: str
) -> None:
    """ "A is shorter than B" says "B is longer than A": false where A ranks first."""
    assert "superlative" in kinds(above, passage)
    assert "superlative" not in kinds(below, passage)
