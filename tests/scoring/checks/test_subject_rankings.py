"""Rankings a passage gives the claim's subject under another noun
(``checks.subject_rankings``): by another measure, the claim's ranking is not stated."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.subject_rankings import measure_of

LONGEST = {
    "en": "The Kellan Bridge is the longest bridge in Riga. It opened in 1931.",
    "de": "Die Kellan-Brücke ist die längste Brücke in Riga. Sie wurde 1931 eröffnet.",
    "fr": "Le pont Kellan est le plus long pont de Riga. Il a été inauguré en 1931.",
    "es": "El puente Kellan es el puente más largo de Riga. Se inauguró en 1931.",
    "hi": "केलन पुल रीगा का सबसे लंबा पुल है। इसे 1931 में खोला गया था।",
}
OTHER_MEASURE = {
    "en": "The Kellan Bridge is the oldest structure in Riga.",
    "de": "Die Kellan-Brücke ist das älteste Bauwerk in Riga.",
    "fr": "Le pont Kellan est le plus ancien ouvrage de Riga.",
    "es": "El puente Kellan es la estructura más antigua de Riga.",
    "hi": "केलन पुल रीगा की सबसे पुरानी संरचना है।",
}
SAME_MEASURE = {
    "en": "The Kellan Bridge is the longest structure in Riga.",
    "de": "Die Kellan-Brücke ist das längste Bauwerk in Riga.",
    "fr": "Le pont Kellan est le plus long ouvrage de Riga.",
    "es": "El puente Kellan es la estructura más larga de Riga.",
    "hi": "केलन पुल रीगा की सबसे लंबी संरचना है।",
}


def _superlatives(claim: str, passage: str) -> list[str]:
    return [r.check for r in check(claim, passage) if r.check == "superlative"]


@pytest.mark.parametrize("language", sorted(LONGEST))
def test_a_ranking_by_another_measure_under_another_noun_is_not_stated(language: str) -> None:
    assert _superlatives(OTHER_MEASURE[language], LONGEST[language]) == ["superlative"]


ONLY_OTHER_NOUN = {
    "en": "The Kellan Bridge is the only viaduct in Riga.",
    "de": "Die Kellan-Brücke ist der einzige Viadukt in Riga.",
    "fr": "Le pont Kellan est le seul viaduc de Riga.",
    "es": "El puente Kellan es el único viaducto de Riga.",
    "hi": "केलन पुल रीगा का एकमात्र फ्लाईओवर है।",
}


@pytest.mark.parametrize("language", sorted(LONGEST))
def test_the_only_one_of_another_kind_is_not_stated_by_a_measure(language: str) -> None:
    """ "The only viaduct" against "the longest bridge": being the only one of a kind is no
    ranking by a measure, whatever noun the passage ranks."""
    assert _superlatives(ONLY_OTHER_NOUN[language], LONGEST[language]) == ["superlative"]


def test_the_only_one_named_by_its_kind_against_a_ranking_of_another_noun() -> None:
    passage = "The Orsk Tower is the tallest building in Warsaw. It was completed in 1998."
    assert _superlatives("The Orsk Tower is the only tower in Warsaw.", passage) == ["superlative"]
    assert _superlatives("The Orsk Tower is the tallest building in Warsaw.", passage) == []


@pytest.mark.parametrize("language", sorted(LONGEST))
def test_the_same_measure_under_another_noun_is_no_rival(language: str) -> None:
    assert _superlatives(SAME_MEASURE[language], LONGEST[language]) == []


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "You will find only the highest quality goods here.",
            "Here you'll find the finest leather goods and of-the-moment fashions.",
        ),
        (
            "Angiosperms are the most successful phylum of plants.",
            "Complete development of the flora was achieved in the presence of Angiosperms, "
            "the most evolved plants.",
        ),
        (
            "Avenged Sevenfold's fourth studio album is Avenged Sevenfold.",
            "Avenged Sevenfold is the fourth studio album and the only self-titled album by "
            "the band Avenged Sevenfold.",
        ),
        (
            "Newton's second law is a relationship among acceleration, force, and mass.",
            "Newton's first law describes inertia; the second law relates force and mass.",
        ),
    ],
    ids=[
        "finest, highest quality",
        "most evolved, most successful",
        "claimed rank beside the only",
        "claimed rank beside the first",
    ],
)
def test_rankings_by_words_of_no_measure_may_be_one_said_two_ways(claim: str, passage: str) -> None:
    """Other ranking words may be one ranking said two ways, and an ordinal beside "the
    only" or "the first" ranks nothing by a measure: the training sets label all four pairs
    supported (mnli-binary, scitail, fever-nli-binary)."""
    assert _superlatives(claim, passage) == []


@pytest.mark.parametrize(
    ("word", "language", "same_as"),
    [
        ("tallest", "en", "largest"),
        ("höchste", "de", "größte"),
        ("haute", "fr", "grand"),
        ("alta", "es", "grande"),
        ("ऊँचा", "hi", "बड़ा"),
    ],
)
def test_height_and_size_are_one_measure(word: str, language: str, same_as: str) -> None:
    """ "grand", "grande", "बड़ा" say height and size both: they are never two measures."""
    assert measure_of(word, language) is not None
    assert measure_of(word, language) == measure_of(same_as, language)


@pytest.mark.parametrize(
    ("word", "language"), [("oldest", "en"), ("älteste", "de"), ("ancienne", "fr")]
)
def test_age_is_another_measure_than_length(word: str, language: str) -> None:
    longest = {"en": "longest", "de": "längste", "fr": "longue"}[language]
    assert measure_of(word, language) not in (None, measure_of(longest, language))


def test_a_word_of_no_measure_has_none() -> None:
    assert measure_of("finest", "en") is None


THIRD_HIGHEST = {
    "en": "Mount Kessel is the third-highest mountain in Arvenia. It was first climbed in 1865.",
    "de": "Der Kessel ist der dritthöchste Berg in Arvenien. Er wurde 1865 erstmals bestiegen.",
    "fr": "Le mont Kessel est la troisième plus haute montagne d'Arvénie.",
    "es": "El monte Kessel es la tercera montaña más alta de Arvenia.",
    "hi": "केसल पर्वत आर्वेनिया का तीसरा सबसे ऊँचा पर्वत है।",
}
TOP_PEAK = {
    "en": "Mount Kessel is the tallest peak in Arvenia.",
    "de": "Der Kessel ist der größte Gipfel in Arvenien.",
    "fr": "Le mont Kessel est le plus grand sommet d'Arvénie.",
    "es": "El monte Kessel es el pico más alto de Arvenia.",
    "hi": "केसल पर्वत आर्वेनिया की सबसे ऊँची चोटी है।",
}


@pytest.mark.parametrize("language", sorted(THIRD_HIGHEST))
def test_the_top_by_a_measure_the_passage_ranks_lower_under_another_noun(language: str) -> None:
    """ "the tallest peak" against "the third-highest mountain": one measure, another rank."""
    assert _superlatives(TOP_PEAK[language], THIRD_HIGHEST[language]) == ["superlative"]


def test_a_possessive_scope_is_no_part_of_the_subject() -> None:
    """ "Arvenia" of "Arvenia's tallest peak" is where the passage ranks, not what."""
    claim = "Mount Kessel is Arvenia's tallest peak."
    assert _superlatives(claim, THIRD_HIGHEST["en"]) == ["superlative"]


def test_a_noun_of_two_words_before_the_cue_is_ranked() -> None:
    """ "la masa de agua más grande" ranks "masa de agua" (a word of the language's stop words
    between two nouns), as "el puente más largo" ranks "puente"."""
    passage = "La laguna Tessel es la sexta laguna más grande de Gelland."
    claim = "La laguna Tessel es la masa de agua más grande de Gelland."
    assert _superlatives(claim, passage) == ["superlative"]


CLAIMED_RANK = {
    "en": (
        "Lake Tessel is the sixth-largest lake in Latvia, covering 118 square kilometres.",
        "Lake Tessel ranks {} among the lakes of Latvia by size.",
        ("second", "first", "sixth"),
    ),
    "de": (
        "Der Tessel-See ist mit 118 Quadratkilometern der sechstgrößte See von Lettland.",
        "Der Tessel-See steht der Fläche nach an {} Stelle unter den Seen von Lettland.",
        ("zweiter", "erster", "sechster"),
    ),
    "fr": (
        "La gare de Kestrel est la sixième gare la plus fréquentée de Riga.",
        "La gare de Kestrel se classe {} parmi les gares de Riga.",
        ("deuxième", "première", "sixième"),
    ),
    "es": (
        "La estación de Kestrel es la sexta estación más concurrida de Riga.",
        "La estación de Kestrel ocupa el {} puesto entre las estaciones de Riga.",
        ("segundo", "primer", "sexto"),
    ),
    "hi": (
        "केस्ट्रल स्टेशन रीगा का छठा सबसे व्यस्त स्टेशन है।",
        "केस्ट्रल स्टेशन रीगा के स्टेशनों में {} स्थान पर है।",
        ("दूसरे", "पहले", "छठे"),
    ),
}


@pytest.mark.parametrize("language", sorted(CLAIMED_RANK))
def test_a_rank_claimed_with_no_superlative_meets_the_passage_rank(language: str) -> None:
    """ "ranks second among the lakes" against "the sixth-largest lake": another rank; the
    first rank likewise; the sixth is the passage's own."""
    passage, claim, (other, first, same) = CLAIMED_RANK[language]
    assert _superlatives(claim.format(other), passage) == ["superlative"]
    assert _superlatives(claim.format(first), passage) == ["superlative"]
    assert _superlatives(claim.format(same), passage) == []
