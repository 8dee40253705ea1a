"""Who holds a ranking (``checks.holders``): a passage that gives the claim's ranking to
another thing it names, and names the claim's subject elsewhere, contradicts the claim, in
every language's word order; a ranking given to the claim's subject, or to a thing the
passage does not tell from it, does not."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.holders import clauses_of
from ragguard.scoring.checks.parse import parse

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


@pytest.mark.parametrize(
    ("passage", "wrong", "right"),
    [
        (
            "Lake Vorna is the largest lake in Latvia and Lake Tessel is the second largest.",
            "Lake Tessel is the largest lake in Latvia.",
            "Lake Tessel is the second-largest lake in Latvia.",
        ),
        (
            "The Kellan Bridge is the longest bridge in Riga, and the Orlen Bridge is the oldest.",
            "The Kellan Bridge is the oldest bridge in Riga.",
            "The Orlen Bridge is the oldest bridge in Riga.",
        ),
        (
            "Der Vorna-See ist der größte See von Lettland und der Tessel-See ist der zweitgrößte.",
            "Der Tessel-See ist der größte See von Lettland.",
            "Der Tessel-See ist der zweitgrößte See von Lettland.",
        ),
        (
            "Le lac Vorna est le plus grand lac de Lettonie et le lac Tessel est le deuxième "
            "plus grand.",
            "Le lac Tessel est le plus grand lac de Lettonie.",
            "Le lac Tessel est le deuxième plus grand lac de Lettonie.",
        ),
        (
            "वोर्ना झील लातविया की सबसे बड़ी झील है और टेसल झील दूसरी सबसे बड़ी है।",
            "टेसल झील लातविया की सबसे बड़ी झील है।",
            "टेसल झील लातविया की दूसरी सबसे बड़ी झील है।",
        ),
    ],
)
def test_two_rankings_in_one_sentence_are_read_clause_by_clause(
    passage: str, wrong: str, right: str
) -> None:
    """A sentence that ranks two things gives each its own ranking: the clause of the
    claim's subject ranks it otherwise, and no check fires on what each clause says."""
    assert "superlative" in kinds(wrong, passage)
    assert not kinds(right, passage)


@pytest.mark.parametrize(
    "sentence",
    [
        "Soul Food was produced by Kenneth Edmonds, Tracey Edmonds and Robert Teitel.",
        "The Orlen Bridge opened in 1962 and is the longest bridge in Riga.",
        "His library, the Bibliotheca Corviniana, was one of the largest in Europe.",
        "गंगा और यमुना उत्तर भारत की नदियाँ हैं।",
    ],
)
def test_a_sentence_is_cut_only_where_a_clause_of_its_own_follows(sentence: str) -> None:
    language = "hi" if sentence.startswith("गंगा") else "en"
    assert clauses_of((parse(sentence, language),)) == (parse(sentence, language),)


def test_the_subject_of_a_second_clause_is_no_other_name() -> None:
    passage = "The Thornfield Viaduct opened in 1920, and the Rowan Bridge opened in 1931."
    assert "entity" not in kinds("The Rowan Bridge opened in 1931.", passage)
    german = (
        "Der Quarren-See ist der größte See von Arvenia und der Sedlow-See ist der zweitgrößte."
    )
    assert not kinds("Der Sedlow-See ist der zweitgrößte See von Arvenia.", german)
