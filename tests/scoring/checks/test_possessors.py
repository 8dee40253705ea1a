"""A one-word name as the owner of a thing the passage names ("el puente Kellan de
Oldecott", "तावरिन का केलन पुल"), against the passage's one full name: one person put for
another (``name_frames.only_other_person``, ``marked_names``)."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

PASSAGES = {
    "es": "El puente Kellan de Riga fue diseñado por la arquitecta Elena Marsh. Se inauguró en"
    " 1950.",
    "hi": "रीगा के केलन पुल को वास्तुकार एलेना मार्श ने डिज़ाइन किया था। यह 1950 में खुला।",
}
CLAIMS = {
    "es": ("El puente Kellan de {} se inauguró en 1950.", "Oldecott", "Elena Marsh"),
    "hi": ("{} का केलन पुल 1950 में खुला।", "तावरिन", "एलेना मार्श"),
}


def entities(claim: str, passage: str) -> list[tuple[str, str]]:
    return [(r.claim, r.evidence) for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize("code", sorted(CLAIMS))
def test_a_one_word_owner_against_the_passages_one_person(code: str) -> None:
    claim, other, person = CLAIMS[code]
    found = entities(claim.format(other), PASSAGES[code])
    assert [c for c, _ in found] == [other]
    assert person in found[0][1]
    assert not entities(claim.format(person), PASSAGES[code])


def test_two_people_in_the_passage_leave_a_one_word_owner_unread() -> None:
    passage = (
        "El puente Kellan fue diseñado por Elena Marsh y construido por David Okoye. Se"
        " inauguró en 1950."
    )
    assert not entities("El puente Kellan de Oldecott se inauguró en 1950.", passage)
