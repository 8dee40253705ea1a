"""Rankings a passage says as a negated comparison (``checks.comparisons``): "No bridge in
Riga is longer than the Harlow Bridge." states "the longest bridge in Riga", in five
languages, and ranks by length, so "the oldest" against it is a ``superlative`` reason."""

from __future__ import annotations

import pytest

from ragguard.language import lexicon
from ragguard.scoring.checks.comparisons import (
    compared_with_all,
    comparison_only,
    negated_comparison,
)
from ragguard.scoring.checks.parse import parse
from tests.scoring.checks.passages import fired

COMPARED = {
    "en": (
        "The Harlow Bridge crosses the river in Riga. No bridge in Riga is longer than the "
        "Harlow Bridge.",
        "The Harlow Bridge is the longest bridge in Riga.",
        "The Harlow Bridge is the oldest bridge in Riga.",
    ),
    "de": (
        "Die Harlow-Brücke überquert den Fluss in Riga. Keine Brücke in Riga ist länger als "
        "die Harlow-Brücke.",
        "Die Harlow-Brücke ist die längste Brücke in Riga.",
        "Die Harlow-Brücke ist die älteste Brücke in Riga.",
    ),
    "fr": (
        "Le pont Harlow franchit la rivière à Riga. Aucun pont de Riga n'est plus long que le "
        "pont Harlow.",
        "Le pont Harlow est le pont le plus long de Riga.",
        "Le pont Harlow est le pont le plus ancien de Riga.",
    ),
    "es": (
        "El puente Harlow cruza el río en Riga. Ningún puente de Riga es más largo que el "
        "puente Harlow.",
        "El puente Harlow es el puente más largo de Riga.",
        "El puente Harlow es el puente más antiguo de Riga.",
    ),
    "hi": (
        "हार्लो पुल रीगा में नदी पर बना है। रीगा में कोई भी पुल हार्लो पुल से लंबा नहीं है।",
        "हार्लो पुल रीगा का सबसे लंबा पुल है।",
        "हार्लो पुल रीगा का सबसे पुराना पुल है।",
    ),
}


def _kinds(claim: str, passage: str) -> set[str]:
    return {kind for kind, _, _ in fired(claim, passage) if kind != "uncovered"}


@pytest.mark.parametrize("code", list(COMPARED))
def test_a_negated_comparison_states_the_ranking(code: str) -> None:
    passage, stated, _ = COMPARED[code]
    assert _kinds(stated, passage) == set()


@pytest.mark.parametrize("code", list(COMPARED))
def test_a_negated_comparison_ranks_by_its_own_word(code: str) -> None:
    passage, _, other = COMPARED[code]
    assert "superlative" in _kinds(other, passage)


@pytest.mark.parametrize(
    ("sentence", "compared"),
    [
        ("No bridge in Riga is longer than the Harlow Bridge.", ["longer"]),
        ("We cannot keep any shows other than the news.", []),  # an exception, no comparison
        ("No bridge has more than two lanes.", []),  # a count
        ("The Harlow Bridge is longer than the Kellan Bridge.", []),  # no negation: no ranking
    ],
)
def test_only_a_negated_comparative_ranks(sentence: str, compared: list[str]) -> None:
    cues = lexicon("en")
    assert cues is not None
    found = negated_comparison(parse(sentence, "en"), cues.superlatives)
    assert [word for _, word in found] == compared


WITH_ALL = {
    "en": (
        "The Harlow Bridge is the longest bridge in Riga. It opened in 1931.",
        "The Harlow Bridge is longer than any other bridge in Riga.",
        "The Harlow Bridge is older than any other bridge in Riga.",
    ),
    "de": (
        "Die Harlow-Brücke ist die längste Brücke in Riga. Sie wurde 1931 eröffnet.",
        "Die Harlow-Brücke ist länger als jede andere Brücke in Riga.",
        "Die Harlow-Brücke ist älter als jede andere Brücke in Riga.",
    ),
    "fr": (
        "Le pont Harlow est le pont le plus long de Riga. Il a été inauguré en 1931.",
        "Le pont Harlow est plus long que tout autre pont de Riga.",
        "Le pont Harlow est plus ancien que tout autre pont de Riga.",
    ),
    "es": (
        "El puente Harlow es el puente más largo de Riga. Se inauguró en 1931.",
        "El puente Harlow es más largo que cualquier otro puente de Riga.",
        "El puente Harlow es más antiguo que cualquier otro puente de Riga.",
    ),
    "hi": (
        "हार्लो पुल रीगा का सबसे लंबा पुल है। इसे 1931 में खोला गया था।",
        "हार्लो पुल रीगा के किसी भी अन्य पुल से लंबा है।",
        "हार्लो पुल रीगा के किसी भी अन्य पुल से पुराना है।",
    ),
}


@pytest.mark.parametrize("code", list(WITH_ALL))
def test_a_comparison_with_all_others_is_the_ranking(code: str) -> None:
    passage, same, other = WITH_ALL[code]
    assert _kinds(same, passage) == set()
    assert "superlative" in _kinds(other, passage)


@pytest.mark.parametrize("code", list(WITH_ALL))
def test_a_passage_comparing_with_all_others_states_the_ranking(code: str) -> None:
    _, compared, _ = WITH_ALL[code]
    _, longest, oldest = COMPARED[code]
    assert _kinds(longest, compared) == set()
    assert "superlative" in _kinds(oldest, compared)


def test_a_ranked_passage_denies_a_comparison_with_all_others() -> None:
    passage = "Lake Vesi is the third-largest lake in Norland, with 420 square kilometres."
    assert "superlative" in _kinds("Lake Vesi is larger than any other lake in Norland.", passage)
    assert _kinds("Lake Vesi is larger than the other lakes nearby.", passage) == set()


@pytest.mark.parametrize(
    ("sentence", "compared"),
    [
        ("The Harlow Bridge is longer than any other bridge in Riga.", ["longer"]),
        ("The Harlow Bridge is more visited than all other bridges.", ["visited"]),
        ("The Harlow Bridge is not longer than any other bridge.", []),  # negated: no ranking
        ("The Harlow Bridge is longer than the Kellan Bridge.", []),  # one other
    ],
)
def test_only_a_comparison_with_all_others_ranks(sentence: str, compared: list[str]) -> None:
    cues = lexicon("en")
    assert cues is not None
    found = compared_with_all(parse(sentence, "en"), cues.superlatives)
    assert [word for _, word, _ in found] == compared


EQUALS = {
    "en": (
        "The Harlow Bridge is the longest bridge in Riga.",
        "No other bridge in Riga is as long as the Harlow Bridge.",
        "No other bridge in Riga is as old as the Harlow Bridge.",
        "The Harlow Bridge is not as long as the Rowan Bridge.",
    ),
    "de": (
        "Die Harlow-Brücke ist die älteste Brücke in Riga.",
        "Keine andere Brücke in Riga ist so alt wie die Harlow-Brücke.",
        "Keine andere Brücke in Riga ist so lang wie die Harlow-Brücke.",
        "Die Harlow-Brücke ist nicht älter als die Rowan-Brücke.",
    ),
    "fr": (
        "Le pont Harlow est le pont le plus long de Riga.",
        "Aucun autre pont de Riga n'est aussi long que le pont Harlow.",
        "Aucun autre pont de Riga n'est aussi ancien que le pont Harlow.",
        "Le pont Harlow n'est pas plus long que le pont Rowan.",
    ),
    "es": (
        "El puente Harlow es el puente más largo de Riga.",
        "Ningún otro puente de Riga es tan largo como el puente Harlow.",
        "Ningún otro puente de Riga es tan antiguo como el puente Harlow.",
        "El puente Harlow no es tan largo como el puente Rowan.",
    ),
    "hi": (
        "हार्लो पुल रीगा का सबसे लंबा पुल है।",
        "रीगा का कोई भी अन्य पुल हार्लो पुल जितना लंबा नहीं है।",
        "रीगा का कोई भी अन्य पुल हार्लो पुल जितना पुराना नहीं है।",
        "हार्लो पुल रोवन पुल से लंबा नहीं है।",
    ),
}


@pytest.mark.parametrize("code", list(EQUALS))
def test_no_other_as_long_as_states_the_ranking(code: str) -> None:
    passage, stated, _, _ = EQUALS[code]
    assert _kinds(stated, passage) == set()


@pytest.mark.parametrize("code", list(EQUALS))
def test_no_other_as_old_as_is_another_ranking(code: str) -> None:
    passage, _, other, _ = EQUALS[code]
    assert "negation" in _kinds(other, passage)


@pytest.mark.parametrize("code", list(EQUALS))
def test_a_comparison_with_a_rival_negated_ranks_nothing(code: str) -> None:
    """ "A is not longer than B" says B is at least as long: it denies "A is the longest"."""
    passage, _, _, rival = EQUALS[code]
    assert "negation" in _kinds(rival, passage)
    found = lexicon(code)
    assert found is not None
    assert negated_comparison(parse(rival, code), found.superlatives) == []


ONE_RIVAL = {
    "en": ("It opened in 1931 and is longer than the Orlen Bridge.", "The Kellan Bridge is"),
    "de": ("Sie wurde 1931 eröffnet und ist länger als die Orlen-Brücke.", "Die Kellan-Brücke ist"),
    "fr": (
        "Il a été inauguré en 1931 et il est plus long que le pont Orlen.",
        "Le pont Kellan est",
    ),
    "es": ("Se inauguró en 1931 y es más largo que el puente Orlen.", "El puente Kellan es"),
}
RANKED = {
    "en": "the longest bridge in Riga.",
    "de": "die längste Brücke in Riga.",
    "fr": "le plus long pont de Riga.",
    "es": "el puente más largo de Riga.",
}
OPENING = {
    "en": "The Kellan Bridge crosses the river in Riga.",
    "de": "Die Kellan-Brücke überquert den Fluss in Riga.",
    "fr": "Le pont Kellan franchit le fleuve à Riga.",
    "es": "El puente Kellan cruza el río en Riga.",
}


@pytest.mark.parametrize("code", sorted(ONE_RIVAL))
def test_a_comparison_with_one_named_rival_ranks_nothing(code: str) -> None:
    """ "Longer than the Orlen Bridge" does not say "the longest": a ranking of the subject
    beside it is added, not stated."""
    compared, subject = ONE_RIVAL[code]
    passage = f"{OPENING[code]} {compared}"
    assert comparison_only(parse(compared, code), lexicon(code).superlatives)
    assert "superlative" in {kind for kind, _, _ in fired(f"{subject} {RANKED[code]}", passage)}


@pytest.mark.parametrize(
    "sentence",
    [
        "It is longer than any other bridge in Riga.",  # a comparison with all others ranks
        "It wiped out every show other than PBS.",  # "other than" compares nothing
        "The lower layers are older than the rocks above.",  # no name compared with
    ],
)
def test_only_a_comparison_with_one_named_thing_is_read_as_ranking_nothing(sentence: str) -> None:
    assert not comparison_only(parse(sentence), lexicon("en").superlatives)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Only the Orlen Bridge is longer than the Kellan Bridge in Riga.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "In Riga, only the Orlen Bridge is longer than the Kellan Bridge.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Seul le pont Orlen est plus long que le pont Kellan à Riga.",
            "Le pont Kellan est le plus long pont de Riga.",
        ),
    ],
)
def test_only_one_thing_above_is_no_top_ranking(passage: str, claim: str) -> None:
    """ "Only A is longer than B": "only" is an adverb there, so the passage ranks B first
    nowhere."""
    assert "superlative" in {kind for kind, _, _ in fired(claim, passage)}


def test_only_one_thing_above_ranks_second() -> None:
    """For a claimed rank the adverb still ranks: B is the second-longest."""
    passage = "Only the Orlen Bridge is longer than the Kellan Bridge in Riga."
    claim = "The Kellan Bridge is the second-longest bridge in Riga."
    assert "superlative" not in {kind for kind, _, _ in fired(claim, passage)}
    cues = lexicon("en").superlatives
    assert "only" in comparison_only(parse(passage), cues, adverbs=True)
    assert "only" not in comparison_only(parse(passage), cues)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Bridge is the second-longest bridge in Riga.",
            "The Kellan Bridge is longer than the other bridges in Riga.",
        ),
        (
            "The Kellan Bridge is the second-longest bridge in Riga.",
            "The Kellan Bridge is longer than every bridge in Riga.",
        ),
        (
            "Le pont Kellan est le deuxième plus long pont de Riga.",
            "Le pont Kellan est plus long que les autres ponts de Riga.",
        ),
        (
            "El puente Kellan es el segundo puente más largo de Riga.",
            "El puente Kellan es más largo que los demás puentes de Riga.",
        ),
        (
            "Die Kellan-Brücke ist die zweitlängste Brücke in Riga.",
            "Die Kellan-Brücke ist länger als die anderen Brücken in Riga.",
        ),
        ("केलन पुल रीगा का दूसरा सबसे लंबा पुल है।", "केलन पुल रीगा के बाकी पुलों से लंबा है।"),
    ],
)
def test_a_comparison_with_the_others_in_other_words_ranks(passage: str, claim: str) -> None:
    """ "Longer than the other bridges" says "the longest" as "longer than any other" does."""
    assert "superlative" in {kind for kind, _, _ in fired(claim, passage)}


@pytest.mark.parametrize(
    "passage",
    [
        "The Rowan Bridge is the longest bridge in Riga, and the Kellan Bridge is the "
        "second-longest.",
        "The Rowan Bridge is the longest bridge in Riga. The Kellan Bridge is the second-longest.",
    ],
)
def test_a_comparison_with_all_others_against_another_holder(passage: str) -> None:
    """A clause that states the ranking of another thing states none of the claim's."""
    for claim in (
        "The Kellan Bridge is longer than any other bridge in Riga.",
        "The Kellan Bridge is longer than the other bridges in Riga.",
    ):
        assert ("superlative", "rowan") in {(k, e.lower()) for k, _, e in fired(claim, passage)}


def test_a_comparison_with_all_others_the_passage_states_stays_supported() -> None:
    passage = "The Kellan Bridge is the longest bridge in Riga. It opened in 1921."
    claim = "The Kellan Bridge is longer than the other bridges in Riga."
    assert "superlative" not in {kind for kind, _, _ in fired(claim, passage)}


DENIED = {
    "en": (
        "The Rowan Bridge is the longest bridge in Riga. The Kellan Bridge is the second-longest"
        " bridge in Riga.",
        "No bridge in Riga is longer than the {}.",
        "No other bridge in Riga is as long as the {}.",
        ("Kellan Bridge", "Rowan Bridge"),
    ),
    "fr": (
        "Le pont Rowan est le plus long pont de Riga. Le pont Kellan est le deuxième plus long"
        " pont de Riga.",
        "Aucun pont de Riga n'est plus long que le pont {}.",
        "Aucun autre pont de Riga n'est aussi long que le pont {}.",
        ("Kellan", "Rowan"),
    ),
    "es": (
        "El puente Rowan es el puente más largo de Riga. El puente Kellan es el segundo puente"
        " más largo de Riga.",
        "Ningún puente de Riga es más largo que el puente {}.",
        "Ningún otro puente de Riga es tan largo como el puente {}.",
        ("Kellan", "Rowan"),
    ),
    "de": (
        "Die Rowan-Brücke ist die längste Brücke in Riga. Die Kellan-Brücke ist die"
        " zweitlängste Brücke in Riga.",
        "Keine Brücke in Riga ist länger als die {}.",
        "",  # "so lang wie" against "die längste": the vowel changes, unread
        ("Kellan-Brücke", "Rowan-Brücke"),
    ),
    "hi": (
        "रोवन पुल रीगा का सबसे लंबा पुल है। केलन पुल रीगा का दूसरा सबसे लंबा पुल है।",
        "रीगा का कोई भी पुल {} पुल से लंबा नहीं है।",
        "रीगा का कोई भी दूसरा पुल {} पुल जितना लंबा नहीं है।",
        ("केलन", "रोवन"),
    ),
}


@pytest.mark.parametrize("code", sorted(DENIED))
def test_a_denied_comparison_ranks_what_it_compares_with(code: str) -> None:
    """ "No bridge is longer than B" says B is the longest: against a passage giving that
    ranking to A it is a superlative reason; of A it stays supported."""
    passage, longer, as_long, (other, holder) = DENIED[code]
    for claim in (longer, as_long):
        if not claim:
            continue
        assert "superlative" in {kind for kind, _, _ in fired(claim.format(other), passage)}
        assert "superlative" not in {kind for kind, _, _ in fired(claim.format(holder), passage)}
