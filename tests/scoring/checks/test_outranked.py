"""A comparison that puts a thing above one the passage ranks higher."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check


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
    ],
)
def test_a_comparison_the_ranking_allows_or_does_not_rank_fires_nothing(
    passage: str, claim: str
) -> None:
    """The passage ranks it lower, among others (no rank), or by another measure."""
    assert "superlative" not in {r.check for r in check(claim, passage)}
