"""A comparison of two things the passage measures (``checks.measured``): "A is longer than
B" against the lengths the passage gives each, "A is older than B" against their years."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

CASES = [
    (
        "The Kellan Bridge is 820 metres long. The Orlen Bridge is 460 metres long.",
        "The Orlen Bridge is longer than the Kellan Bridge.",
        "The Kellan Bridge is longer than the Orlen Bridge.",
    ),
    (
        "The Kellan Bridge is 820 metres long. The Orlen Bridge is 460 metres long.",
        "The Kellan Bridge is shorter than the Orlen Bridge.",
        "The Orlen Bridge is shorter than the Kellan Bridge.",
    ),
    (
        "The Kellan Bridge opened in 1862. The Orlen Bridge opened in 1931.",
        "The Orlen Bridge is older than the Kellan Bridge.",
        "The Kellan Bridge is older than the Orlen Bridge.",
    ),
    (
        "Die Kellan-Brücke ist 820 Meter lang. Die Orlen-Brücke ist 460 Meter lang.",
        "Die Orlen-Brücke ist länger als die Kellan-Brücke.",
        "Die Kellan-Brücke ist länger als die Orlen-Brücke.",
    ),
    (
        "Le pont Kellan mesure 820 mètres. Le pont Orlen mesure 460 mètres.",
        "Le pont Orlen est plus long que le pont Kellan.",  # "plus" names neither side
        "Le pont Kellan est plus long que le pont Orlen.",
    ),
    (
        "El puente Kellan se inauguró en 1862. El puente Orlen se inauguró en 1931.",
        "El puente Orlen es más antiguo que el puente Kellan.",
        "El puente Kellan es más antiguo que el puente Orlen.",
    ),
    (
        "केलन पुल 820 मीटर लंबा है। ओर्लेन पुल 460 मीटर लंबा है।",
        "ओर्लेन पुल केलन पुल से लंबा है।",
        "केलन पुल ओर्लेन पुल से लंबा है।",
    ),
]


def kinds(claim: str, passage: str) -> set[str]:
    return {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(("passage", "false", "true"), CASES)
def test_a_comparison_the_numbers_deny_fires(passage: str, false: str, true: str) -> None:
    assert "superlative" in kinds(false, passage)
    assert "superlative" not in kinds(true, passage)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        # another unit: the numbers are not compared
        (
            "The Kellan Bridge is 820 feet long. The Orlen Bridge is 460 metres long.",
            "The Orlen Bridge is longer than the Kellan Bridge.",
        ),
        # one sentence names both: whose number is whose is not read
        (
            "The Kellan Bridge is 820 metres long and the Orlen Bridge 460 metres.",
            "The Orlen Bridge is longer than the Kellan Bridge.",
        ),
        # a measure the numbers do not give: lengths say nothing of age
        (
            "The Kellan Bridge is 820 metres long. The Orlen Bridge is 460 metres long.",
            "The Orlen Bridge is older than the Kellan Bridge.",
        ),
    ],
)
def test_numbers_it_cannot_pair_fire_nothing(passage: str, claim: str) -> None:
    assert "superlative" not in kinds(claim, passage)
