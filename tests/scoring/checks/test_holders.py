"""Who holds a ranking (``checks.holders``): a passage that gives the claim's ranking to
another thing it names, and names the claim's subject elsewhere, contradicts the claim, in
every language's word order; a ranking given to the claim's subject, or to a thing the
passage does not tell from it, does not."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

HELD = {
    "en": (
        "The Orlen Bridge is the longest bridge in Riga. The Kellan Bridge crosses the river "
        "there and opened in 1931.",
        "The Kellan Bridge is the longest bridge in Riga.",
        "The Orlen Bridge is the longest bridge in Riga.",
    ),
    "en-reversed": (
        "The Kellan Bridge opened in 1931. The longest bridge in Riga is the Orlen Viaduct.",
        "The Kellan Bridge is the longest bridge in Riga.",
        "The longest bridge in Riga is the Orlen Viaduct.",
    ),
    "de": (
        "Die Orlen-Brücke ist die längste Brücke in Riga. Die Kellan-Brücke überquert dort den "
        "Fluss.",
        "Die Kellan-Brücke ist die längste Brücke in Riga.",
        "Die Orlen-Brücke ist die längste Brücke in Riga.",
    ),
    "fr": (
        "Le pont Orlen est le plus long pont de Riga. Le pont Kellan y franchit aussi le fleuve.",
        "Le pont Kellan est le plus long pont de Riga.",
        "Le pont Orlen est le plus long pont de Riga.",
    ),
    "es": (
        "El puente Orlen es el puente más largo de Riga. El puente Kellan también cruza el río "
        "allí.",
        "El puente más largo de Riga es el puente Kellan.",
        "El puente Orlen es el puente más largo de Riga.",
    ),
    "hi": (
        "ओर्लेन पुल रीगा का सबसे लंबा पुल है। केलन पुल भी वहीं नदी पर बना है।",
        "केलन पुल रीगा का सबसे लंबा पुल है।",
        "ओर्लेन पुल रीगा का सबसे लंबा पुल है।",
    ),
}


def kinds(claim: str, passage: str) -> set[str]:
    return {r.check for r in check(claim, passage)}


@pytest.mark.parametrize("case", sorted(HELD))
def test_a_ranking_another_named_thing_holds_fires(case: str) -> None:
    passage, wrong, right = HELD[case]
    assert "superlative" in kinds(wrong, passage)
    assert "superlative" not in kinds(right, passage)


def test_the_reason_names_the_holder() -> None:
    passage, wrong, _ = HELD["en"]
    (reason,) = [r for r in check(wrong, passage) if r.check == "superlative"]
    assert reason.evidence == "orlen"


@pytest.mark.parametrize(
    "passage",
    [
        # the claim's subject is named nowhere else: the passage may call it otherwise
        "The Orlen Bridge is the longest bridge in Riga. It opened in 1931.",
        # a name that is not what the sentence ranks
        "The Kellan Bridge opened in 1931. Designed by John Smith, it is the longest bridge "
        "in Riga.",
        # the ranking of another group
        "The Orlen Bridge is the longest bridge in Latvia. The Kellan Bridge crosses the river "
        "in Riga.",
    ],
)
def test_no_other_holder_is_read_where_the_passage_does_not_tell_them_apart(passage: str) -> None:
    assert "superlative" not in kinds("The Kellan Bridge is the longest bridge in Riga.", passage)
