"""A passage that names the claim's subject only for another thing, in another sentence
(Hindi too, where no capital marks a name: ``marked_names``)."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Lukas Weber designed the Kellan Bridge. His student Anna Sorensen designed the "
            "Rowan Bridge.",
            "Anna Sorensen designed the Kellan Bridge.",
        ),
        (
            "Anna Sorensen designed the Rowan Bridge. Lukas Weber designed the Kellan Bridge.",
            "Anna Sorensen designed the Kellan Bridge.",
        ),
        (
            "Lukas Weber entwarf die Kellan-Brücke. Anna Sorensen entwarf die Rowan-Brücke.",
            "Anna Sorensen entwarf die Kellan-Brücke.",
        ),
        (
            "Lukas Weber a conçu le pont Kellan. Anna Sorensen a conçu le pont Rowan.",
            "Anna Sorensen a conçu le pont Kellan.",
        ),
        (
            "Lukas Weber diseñó el puente Kellan. Anna Sorensen diseñó el puente Rowan.",
            "Anna Sorensen diseñó el puente Kellan.",
        ),
        (
            "लुकास वेबर ने केलन पुल का डिज़ाइन बनाया। अन्ना सोरेनसेन ने रोवन पुल का डिज़ाइन बनाया।",
            "अन्ना सोरेनसेन ने केलन पुल का डिज़ाइन बनाया।",
        ),
        (
            "अन्ना सोरेनसेन ने रोवन पुल का डिज़ाइन बनाया। लुकास वेबर ने केलन पुल का डिज़ाइन बनाया।",
            "अन्ना सोरेनसेन ने केलन पुल का डिज़ाइन बनाया।",
        ),
    ],
)
def test_a_sentence_that_says_the_same_of_another_thing_does_not_join(
    passage: str, claim: str
) -> None:
    """The sentence naming the claim's subject puts another name where the claim's other
    name stands; the sentence about the claim's thing gives it to another person."""
    assert "entity" in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Anna Sorensen designed the Rowan Bridge. Lukas Weber designed the Kellan Bridge.",
            "Lukas Weber designed the Kellan Bridge.",
        ),
        (
            "Anna Sorensen is an architect from Oslo. She designed the Kellan Bridge with "
            "Lukas Weber.",
            "Anna Sorensen designed the Kellan Bridge.",
        ),
        (
            "Grey Harbour is a 1998 film directed by Paul Fischer. It stars Elena Marsh and "
            "David Okoye.",
            "Elena Marsh starred in Grey Harbour.",
        ),
        (
            "लुकास वेबर ने केलन पुल का डिज़ाइन बनाया। उन्होंने रोवन पुल का भी डिज़ाइन बनाया।",
            "लुकास वेबर ने रोवन पुल का डिज़ाइन बनाया।",
        ),
        (
            "लुकास वेबर एक वास्तुकार हैं। उन्होंने केलन पुल का डिज़ाइन बनाया।",
            "लुकास वेबर ने केलन पुल का डिज़ाइन बनाया।",
        ),
    ],
)
def test_a_sentence_naming_the_subject_beside_others_still_joins(passage: str, claim: str) -> None:
    assert "entity" not in {r.check for r in check(claim, passage)}
