"""Rankings the passage contradicts (``checks.superlatives``): a ranking ("the tallest", "the
most visited", "the only", "the first") of a thing that a passage sentence ranks otherwise
("the sixth-tallest", "the longest") is a ``superlative`` reason, which vetoes support, and
so is a ranking added to a passage about the same thing that ranks nothing at all; a ranking
the passage states, or one a passage ranking other things never mentions, is none (unstated
rankings beside other rankings were as often true as false on the training sets)."""

from __future__ import annotations

import pytest

from ragguard.language import lexicon
from ragguard.schema.check_kinds import CONFLICTS
from ragguard.scoring.checks import CONTRADICTIONS, check
from ragguard.scoring.checks.rankings import rankings
from ragguard.scoring.lite.scorers import check_features
from tests.scoring.checks.passages import fired

TOWER = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was completed in 1889. It is 330 metres tall."
)
RECORD = (
    "The Eiffel Tower was the tallest man-made structure in the world until 1930. "
    "It is the most visited paid monument in the world."
)
RIVAL = (
    "The Eiffel Tower is the second tallest tower in Paris. It is the oldest monument of the "
    "city and the sixth most visited monument in France."
)


def superlatives(claim: str, passage: str) -> list[str]:
    return [claim_says for kind, claim_says, _ in fired(claim, passage) if kind == "superlative"]


@pytest.mark.parametrize(
    ("claim", "phrase"),
    [
        ("The Eiffel Tower is the tallest tower in Paris.", "the tallest"),
        ("The Eiffel Tower is the only tower in Paris.", "the only"),
        ("The Eiffel Tower was the first tower in Paris.", "the first"),
        ("The Eiffel Tower is the newest monument of the city.", "the newest"),
        ("The Eiffel Tower is the most visited monument in France.", "the most visited"),
    ],
)
def test_a_ranking_the_passage_ranks_otherwise_is_a_superlative_reason(
    claim: str, phrase: str
) -> None:
    assert superlatives(claim, RIVAL) == [phrase]


@pytest.mark.parametrize(
    "claim",
    [
        "The Eiffel Tower is the most visited monument in the world.",
    ],
)
def test_a_ranking_the_passage_never_mentions_is_no_reason(claim: str) -> None:
    """Too little of the claim is about what the passage says to call the ranking added."""
    assert superlatives(claim, TOWER) == []


@pytest.mark.parametrize(
    ("claim", "phrase"),
    [
        ("The Eiffel Tower is the tallest structure in Paris.", "the tallest"),
        ("The Eiffel Tower was the first iron tower.", "the first"),
        # the rank is no word of what the passage is about: "largest tower in France" is
        ("It is the second-largest tower in France.", "the second largest"),
    ],
)
def test_a_ranking_added_to_a_passage_that_ranks_nothing_is_a_reason(
    claim: str, phrase: str
) -> None:
    assert superlatives(claim, TOWER) == [phrase]


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Virginia's largest export by monetary value is a computer component.",
            "In 2002 computer chips became Virginia's leading export by monetary value.",
        ),
        (
            "The equator receives the most direct sunlight.",
            "The equator is hot because sunlight strikes Earth directly at that latitude.",
        ),
        (
            "The Kellan Bridge is not the longest bridge in Riga.",
            "The Kellan Bridge crosses the river in Riga. It is 455 metres long.",
        ),
        (
            "Die Kellan-Brücke ist die längste Brücke in Manchester.",
            "Die Kellan-Brücke ist länger als jede andere Brücke in Manchester.",
        ),
    ],
    ids=["a ranking word", "the adverb of the ranked word", "a denied ranking", "a comparison"],
)
def test_a_passage_that_ranks_in_other_words_or_a_denied_ranking_is_no_reason(
    claim: str, passage: str
) -> None:
    assert superlatives(claim, passage) == []


def test_a_name_that_ends_like_a_cue_ranks_nothing() -> None:
    passage = "Die Kellan-Brücke überquert den Fluss in Manchester. Sie ist 920 Meter lang."
    claim = "Die Kellan-Brücke ist die längste Brücke in Manchester."
    assert superlatives(claim, passage) == ["die längste"]


@pytest.mark.parametrize(
    "claim",
    [
        "The Eiffel Tower was the tallest man-made structure in the world.",
        "The Eiffel Tower is the most visited paid monument.",
        "The Eiffel Tower is a lattice tower in the forest of Paris.",  # "forest" ranks nothing
        "The tower was last painted in 2019.",  # "last" is left out: mostly time
        "At first the tower was criticised.",  # "first" counts after "the" only
    ],
)
def test_a_ranking_a_passage_states_or_no_ranking_is_no_reason(claim: str) -> None:
    assert superlatives(claim, RECORD) == []


@pytest.mark.parametrize(
    ("claim", "narrowed"),
    [
        ("The Eiffel Tower was the tallest structure in the world.", "tallest man made structure"),
        ("The Eiffel Tower is the most visited monument.", "most visited paid monument"),
    ],
)
def test_a_ranking_the_passage_narrows_is_not_stated(claim: str, narrowed: str) -> None:
    """The passage ranks man-made structures and paid monuments only (``narrowed``)."""
    reasons = [r for r in check(claim, RECORD) if r.check == "superlative"]
    assert [r.evidence for r in reasons] == [narrowed]


def test_a_ranking_of_something_else_is_no_rival() -> None:
    passage = "Helium is the second most abundant element in the universe, after hydrogen."
    assert superlatives("Hydrogen is the most abundant in the universe.", passage) == []


def test_the_danube_is_not_the_longest_river() -> None:
    passage = "The Danube is Europe's second-longest river, after the Volga."
    assert superlatives("The Danube is the longest river in Europe.", passage) == ["the longest"]


def test_the_superlative_check_vetoes_and_feeds_the_head() -> None:
    assert "superlative" in CONTRADICTIONS
    assert "superlative" in CONFLICTS  # the head's contradiction feature reads it
    reasons = check("The Eiffel Tower is the tallest tower in Paris.", RIVAL)
    assert [r.check for r in reasons] == ["superlative"]
    assert check_features(reasons) == (1.0, 0.0)


@pytest.mark.parametrize(
    ("code", "claim", "passage", "phrase"),
    [
        (
            "de",
            "Der Eiffelturm ist das höchste Gebäude in Paris.",
            "Der Eiffelturm ist das zweithöchste Gebäude in Paris. Er ist 330 Meter hoch.",
            "das höchste",
        ),
        (
            "de",
            "Der Vorna-See ist der größte See von Cyrrus.",
            "Der Vorna-See ist mit 1.310 Quadratkilometern der viertgrößte See von Cyrrus.",
            "der größte",
        ),
        (
            "fr",
            "La tour Eiffel est le monument le plus visité de Paris.",
            "La tour Eiffel est le monument le plus haut de Paris. Elle mesure 330 mètres.",
            "le plus visité",
        ),
        (
            "es",
            "La torre Eiffel es el monumento más visitado de París.",
            "La torre Eiffel es el monumento más alto de París. Mide 330 metros.",
            "el monumento más visitado",
        ),
        (
            "es",
            "El puente Ashford fue el primer puente de Riga.",
            "El puente Ashford es el puente más largo de Riga. Se inauguró en 1920.",
            "el primer",
        ),
        (
            "hi",
            "एफिल टावर पेरिस की सबसे ऊँची इमारत है।",
            "एफिल टावर पेरिस की सबसे पुरानी इमारत है। यह 330 मीटर ऊँचा है।",
            "सबसे ऊँची",
        ),
    ],
)
def test_rankings_in_each_language(code: str, claim: str, passage: str, phrase: str) -> None:
    assert superlatives(claim, passage) == [phrase]
    assert superlatives(claim, passage + " " + claim) == []  # a passage stating it


def test_the_cues_are_data_per_language() -> None:
    for code in ("en", "de", "fr", "es", "hi"):
        found = lexicon(code)
        assert found is not None and (found.superlatives.words or found.superlatives.analytic)
    english = lexicon("en")
    assert english is not None
    assert rankings(("the", "tallest", "tower"), english.superlatives) == [
        ("the tallest", ("tallest",))
    ]


@pytest.mark.parametrize("subject", ["The Danube", "Lake Tessel", "The Rhine", "Mount Kell"])
@pytest.mark.parametrize(
    ("ranked", "stated", "fires"),
    [
        ("the longest", "the second-longest", True),  # a rank is not the top
        ("the largest", "the sixth-largest", True),
        ("the second-longest", "the longest", True),
        ("the third-largest", "the sixth-largest", True),
        ("the second-longest", "the second-longest", False),
        ("the longest", "the longest", False),
    ],
)
def test_a_rank_keeps_its_ordinal(subject: str, ranked: str, stated: str, fires: bool) -> None:
    claim = f"{subject} is {ranked} feature of the region."
    passage = f"{subject} is {stated} feature of the region. It was mapped in 1850."
    assert bool(superlatives(claim, passage)) is fires


@pytest.mark.parametrize("after", ["with", "of", "in", "for"])
@pytest.mark.parametrize("subject", ["The Danube", "The museum", "Lake Tessel"])
def test_an_analytic_cue_before_a_function_word_ranks_nothing(subject: str, after: str) -> None:
    claim = f"{subject} is the place that has the most {after} visitors each year."
    assert superlatives(claim, f"{subject} has many visitors each year.") == []


@pytest.mark.parametrize("subject", ["Lake Vorna", "The Danube", "Mount Kell"])
@pytest.mark.parametrize("ranked", ["the largest", "the first", "the most visited"])
def test_a_denied_ranking_claims_no_rank(subject: str, ranked: str) -> None:
    passage = f"{subject} is the sixth-largest site of the region. It was mapped in 1850."
    claim = f"{subject} is not {ranked} site of the region."
    assert superlatives(claim, passage) == []
    assert "negation" not in [kind for kind, _, _ in fired(claim, passage)]  # the rank denies it


@pytest.mark.parametrize(
    ("claim", "passage", "phrase"),
    [
        (
            "Le pont Kellan est le deuxième plus long pont de Marseille.",
            "Le pont Kellan est le plus long pont de Marseille. Il a été inauguré en 1959.",
            "le deuxième plus long",
        ),
        (
            "El puente Kellan es el segundo puente más largo de Riga.",
            "El puente Kellan es el puente más largo de Riga. Se inauguró en 1920.",
            "el segundo puente más largo",
        ),
        (
            "El puente Kellan es el puente más largo de Riga.",
            "El puente Kellan es el segundo puente más largo de Riga. Se inauguró en 1920.",
            "el puente más largo",
        ),
        (
            "केलन पुल रीगा का दूसरा सबसे लंबा पुल है।",
            "केलन पुल रीगा का सबसे लंबा पुल है। इसे 1920 में खोला गया था।",
            "दूसरा सबसे लंबा",
        ),
    ],
)
def test_a_rank_keeps_its_ordinal_in_every_language(claim: str, passage: str, phrase: str) -> None:
    """The ordinal next to the cue, or before the noun where the language writes the noun
    between the article and the cue; the same rank stated is no reason."""
    assert superlatives(claim, passage) == [phrase]
    assert superlatives(claim, claim) == []


@pytest.mark.parametrize(
    ("code", "claim", "passage", "phrase"),
    [
        (  # a rank with a noun between, in French
            "fr",
            "La gare de Quenby est la gare la plus fréquentée de Riga.",
            "La gare de Quenby est la sixième gare la plus fréquentée de Riga.",
            "la plus fréquentée",
        ),
        (  # an added rank: the anchor leaves out the rank's own words
            "hi",
            "क्वेनबी स्टेशन रीगा का दूसरा सबसे व्यस्त स्टेशन है।",
            "क्वेनबी स्टेशन रीगा में है। इसे 1942 में खोला गया था।",
            "",
        ),
    ],
)
def test_a_ranking_in_other_frames(code: str, claim: str, passage: str, phrase: str) -> None:
    reasons = [r for r in check(claim, passage) if r.check == "superlative"]
    assert reasons, code
    assert phrase in reasons[0].claim


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (  # the cue in another inflection
            "Der Harlow-Turm ist eines der höchsten Gebäude in Lissabon.",
            "Der Harlow-Turm ist das höchste Gebäude in Lissabon.",
        ),
        (  # a compound that ends in a word that ranks nothing
            "Der Bahnhof Quenby ist der zweitverkehrsreichste Bahnhof in Riga.",
            "Der Bahnhof Quenby ist der zweitverkehrsreichste Bahnhof in Riga. Täglich kommen "
            "920 Fahrgäste.",
        ),
        (  # a ranking inside the claim's name ranks no one
            "Southampton was second in the First Division.",
            "Southampton is a football club based in Southampton, Hampshire.",
        ),
    ],
)
def test_readings_that_rank_nothing_new(claim: str, passage: str) -> None:
    assert [r for r in check(claim, passage) if r.check == "superlative"] == []


def test_a_compound_ending_in_a_listed_word_is_no_cue() -> None:
    cues = lexicon("de")
    assert cues is not None
    assert rankings(("die", "fahrgäste"), cues.superlatives) == []
    assert rankings(("die", "schnellste"), cues.superlatives) == [
        ("die schnellste", ("schnellste",))
    ]


AMONG = {
    "en": "Quenby Station is one of the busiest stations in Riga. It opened in 1901.",
    "de": "Der Bahnhof Quenby ist einer der verkehrsreichsten Bahnhöfe in Riga.",
    "fr": "La gare de Quenby est l'une des gares les plus fréquentées de Riga.",
    "es": "La estación de Quenby es una de las estaciones más concurridas de Riga.",
    "hi": "क्वेनबी स्टेशन रीगा के सबसे व्यस्त स्टेशनों में से एक है।",
}
ALONE = {
    "en": ("Quenby Station is the busiest station in Riga.", "one of the busiest"),
    "de": ("Der Bahnhof Quenby ist der verkehrsreichste Bahnhof in Riga.", "einer der"),
    "fr": ("La gare de Quenby est la gare la plus fréquentée de Riga.", "l une des"),
    "es": ("La estación de Quenby es la estación más concurrida de Riga.", "una de las"),
    "hi": ("क्वेनबी स्टेशन रीगा का सबसे व्यस्त स्टेशन है।", "में से एक"),
}


@pytest.mark.parametrize("code", sorted(AMONG))
def test_a_ranking_among_others_does_not_state_it_alone(code: str) -> None:
    """ "One of the busiest" in the passage: the claim that it is the busiest is a
    superlative reason naming the passage's words; the claim that it is one of them is
    none."""
    claim, words = ALONE[code]
    found = [r for r in check(claim, AMONG[code]) if r.check == "superlative"]
    assert len(found) == 1 and words in found[0].evidence
    assert [r for r in check(AMONG[code].split(".")[0].split("।")[0] + ".", AMONG[code])] == []


@pytest.mark.parametrize(
    ("code", "claim", "passage"),
    [
        (
            "en",
            "Quenby Station is the busiest.",
            "Quenby Station is the third-busiest station in Riga.",
        ),
        (
            "de",
            "Der Bahnhof Quenby ist der verkehrsreichste.",
            "Der Bahnhof Quenby ist der drittverkehrsreichste Bahnhof in Riga.",
        ),
        (
            "fr",
            "La gare de Quenby est la plus fréquentée.",
            "La gare de Quenby est la troisième gare la plus fréquentée de Riga.",
        ),
        (
            "es",
            "La estación de Quenby es la más concurrida.",
            "La estación de Quenby es la tercera estación más concurrida de Riga.",
        ),
        (
            "hi",
            "क्वेनबी स्टेशन सबसे व्यस्त है।",
            "क्वेनबी स्टेशन रीगा का तीसरा सबसे व्यस्त स्टेशन है।",
        ),
    ],
)
def test_a_ranking_with_no_noun_ranks_what_the_claim_is_about(
    code: str, claim: str, passage: str
) -> None:
    assert [r.check for r in check(claim, passage)] == ["superlative"]


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (  # stated alone, the ranking with no noun is met
            "Quenby Station is the busiest.",
            "Quenby Station is the busiest station in Riga.",
        ),
        (  # a ranking within a scope ranks within it, not what the claim is about
            "The element hydrogen is the most abundant in the universe.",
            "Hydrogen is the most plentiful element in the universe.",
        ),
    ],
)
def test_a_ranking_with_no_noun_met_or_scoped_is_no_reason(claim: str, passage: str) -> None:
    assert [r for r in check(claim, passage) if r.check == "superlative"] == []


@pytest.mark.parametrize(
    ("claim", "passage", "evidence"),
    [
        (
            "The Harlow Bridge was the first bridge built in Riga.",
            "The Harlow Bridge crosses the river in Riga. It was the second bridge built in Riga.",
            "second bridge",
        ),
        (
            "Lake Vorna is the largest lake in Arvenia.",
            "Lake Vorna lies in Arvenia. In size it ranks sixth among the lakes of Arvenia.",
            "sixth among",
        ),
        (  # a sentence that names its subject with a pronoun, the noun in the plural
            "La gare de Kestrel est la gare la plus fréquentée de Riga.",
            "La gare de Kestrel se trouve à Riga. Par sa fréquentation, elle se classe "
            "sixième parmi les gares de Riga.",
            "sixième parmi",
        ),
        (
            "El puente Harlow fue el primer puente construido en Riga.",
            "El puente Harlow cruza el río en Riga. Fue el segundo puente construido en Riga.",
            "segundo puente",
        ),
    ],
)
def test_a_rank_given_with_no_cue_ranks_the_same_thing(
    claim: str, passage: str, evidence: str
) -> None:
    """A rank beside what the claim ranks ("the second bridge built") is no cue, yet it
    ranks the bridge otherwise than "the first"."""
    found = [r for r in check(claim, passage) if r.check == "superlative"]
    assert [r.evidence for r in found] == [evidence]


def test_a_rank_of_something_else_is_no_rival() -> None:
    passage = "Lake Vorna lies in Arvenia. It was the second place the explorers mapped."
    claim = "Lake Vorna is the largest lake in Arvenia."
    assert [r for r in check(claim, passage) if r.check == "superlative"] == []


@pytest.mark.parametrize(
    ("passage", "stated", "other"),
    [
        (
            "The Harlow Bridge is the longest bridge in Riga. It opened in 1931.",
            "The Harlow Bridge is the longest of Riga's bridges.",
            "The Harlow Bridge is the oldest of Riga's bridges.",
        ),
        (
            "Le pont Harlow est le pont le plus long de Riga. Il a été inauguré en 1931.",
            "Le pont Harlow est le plus long des ponts de Riga.",
            "Le pont Harlow est le plus ancien des ponts de Riga.",
        ),
        (
            "El puente Harlow es el puente más largo de Riga. Se inauguró en 1931.",
            "El puente Harlow es el más largo de los puentes de Riga.",
            "El puente Harlow es el más antiguo de los puentes de Riga.",
        ),
    ],
)
def test_a_ranking_of_a_group_named_after_it(passage: str, stated: str, other: str) -> None:
    """ "the longest of Riga's bridges" ranks the bridges (``[superlatives] partitive``)."""
    assert [r for r in check(stated, passage) if r.check == "superlative"] == []
    assert [r.check for r in check(other, passage) if r.check == "superlative"] == ["superlative"]


@pytest.mark.parametrize(
    ("passage", "stated", "other"),
    [
        (
            "The Harlow Bridge is the longest and oldest bridge in Riga. It opened in 1931.",
            "The Harlow Bridge is the oldest bridge in Riga.",
            "The Harlow Bridge is the longest and busiest bridge in Riga.",
        ),
        (
            "Die Harlow-Brücke ist die längste und älteste Brücke in Riga.",
            "Die Harlow-Brücke ist die älteste Brücke in Riga.",
            "Die Harlow-Brücke ist die längste und breiteste Brücke in Riga.",
        ),
        (
            "Le pont Harlow est le pont le plus long et le plus ancien de Riga.",
            "Le pont Harlow est le pont le plus ancien de Riga.",
            "Le pont Harlow est le pont le plus long et le plus large de Riga.",
        ),
        (
            "El puente Harlow es el puente más largo y más antiguo de Riga.",
            "El puente Harlow es el puente más antiguo de Riga.",
            "El puente Harlow es el puente más largo y más ancho de Riga.",
        ),
    ],
)
def test_coordinated_rankings_rank_one_thing(passage: str, stated: str, other: str) -> None:
    """ "the longest and oldest bridge" ranks the bridge by age too (``coordinators``)."""
    assert [r for r in check(stated, passage) if r.check == "superlative"] == []
    assert "superlative" in [r.check for r in check(other, passage)]
    oldest_first = stated.replace("oldest", "oldest and longest")
    assert [r for r in check(oldest_first, passage) if r.check == "superlative"] == []


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Kestrel Station is the second-busiest station in Riga.",
            "Kestrel Station is one of the busiest stations in Riga.",
        ),
        (
            "Der Bahnhof Kestrel ist der zweitverkehrsreichste Bahnhof in Riga.",
            "Der Bahnhof Kestrel ist einer der verkehrsreichsten Bahnhöfe in Riga.",
        ),
        (
            "La estación de Kestrel es la segunda estación más concurrida de Riga.",
            "La estación de Kestrel es una de las estaciones más concurridas de Riga.",
        ),
    ],
)
def test_a_rank_states_a_ranking_among_others(passage: str, claim: str) -> None:
    """ "the second-busiest" is "one of the busiest"; it is not "the busiest"."""
    assert [r for r in check(claim, passage) if r.check == "superlative"] == []
    alone = claim.replace("one of the busiest stations", "the busiest station")
    if alone != claim:
        assert "superlative" in [r.check for r in check(alone, passage)]


@pytest.mark.parametrize(
    ("scope", "claim"),
    [
        (
            "The Kellan Bridge is the longest bridge in {}.",
            "The Kellan Bridge is the longest bridge in the world.",
        ),
        (
            "Le pont Kellan est le plus long pont {}.",
            "Le pont Kellan est le plus long pont du monde.",
        ),
        (
            "El puente Kellan es el puente más largo {}.",
            "El puente Kellan es el puente más largo del mundo.",
        ),
    ],
)
def test_a_ranking_widened_to_the_world_is_not_stated(scope: str, claim: str) -> None:
    """ "the longest bridge in Riga" is no "longest bridge in the world" (``widest``)."""
    city, world = {
        "The": ("Riga", "the world"),
        "Le": ("de Riga", "du monde"),
        "El": ("de Riga", "del mundo"),
    }[scope.split()[0]]
    assert "superlative" in [r.check for r in check(claim, scope.format(city))]
    assert [r for r in check(claim, scope.format(world)) if r.check == "superlative"] == []


UNSTATED_BESIDE_A_FACT = (
    "The Kellan Bridge crosses the river in Riga. It opened in 1931 and is 455 metres long."
)


@pytest.mark.parametrize(
    "claim",
    [
        "The Kellan Bridge, the longest bridge in Riga, opened in 1931.",
        "The Kellan Bridge, which opened in 1931, is the longest bridge in Riga.",
        "In 1931 the Kellan Bridge became the longest bridge in Riga.",
        "The Kellan Bridge opened in 1931 as the first bridge in Riga.",
    ],
)
def test_a_ranking_never_stated_beside_facts_the_passage_states_fires(claim: str) -> None:
    """The passage's sentences about the claim's subject hold its other words together, not
    one of them alone: the ranking is added, not paraphrased."""
    assert "superlative" in {r.check for r in check(claim, UNSTATED_BESIDE_A_FACT)}


def test_a_ranking_of_something_else_elsewhere_in_the_passage_leaves_the_check_on() -> None:
    passage = (
        "The Kellan Bridge crosses the river in Riga. It opened in 1931. The oldest church "
        "in Riga stands nearby."
    )
    claim = "The Kellan Bridge is the longest bridge in Riga."
    assert "superlative" in {r.check for r in check(claim, passage)}


def test_a_ranking_word_in_a_sentence_about_the_subject_still_holds_the_check_back() -> None:
    """A ranking word about the subject ("its top is the leading peak") may be a ranking in
    other words: nothing fires on its own."""
    passage = "Mount Kessel rises to 2,914 metres in Arvenia. Its top is the leading peak."
    claim = "Mount Kessel is the highest mountain in Arvenia."
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Mount Kessel is the second-highest peak in Arvenia. It rises to 2,914 metres.",
            "Mount Kessel is the highest mountain in Arvenia.",
        ),
        (
            "La gare de Quenby est la sixième gare la plus fréquentée de Riga.",
            "La gare de Quenby est le pôle ferroviaire le plus fréquenté de Riga.",
        ),
        (
            "Der Bahnhof Quenby ist der sechstverkehrsreichste Bahnhof in Riga.",
            "Der Bahnhof Quenby ist der verkehrsreichste Verkehrsknoten in Riga.",
        ),
        (
            "La estación de Quenby es la sexta estación más concurrida de Riga.",
            "La estación de Quenby es el nudo ferroviario más concurrido de Riga.",
        ),
        (
            "The Kellan Bridge is among the three longest bridges in Riga.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Die Kellan-Brücke gehört zu den drei längsten Brücken in Riga.",
            "Die Kellan-Brücke ist die längste Brücke in Riga.",
        ),
        (
            "Le pont Kellan est l'un des trois plus longs ponts de Riga.",
            "Le pont Kellan est le plus long pont de Riga.",
        ),
    ],
)
def test_a_rank_or_a_group_of_the_top_does_not_state_the_top(passage: str, claim: str) -> None:
    """The subject's rank by the claim's word, whatever noun it ranks ("the second-highest
    peak" against "the highest mountain"), and a group of the top ("among the three
    longest"), say the subject is not the top."""
    assert "superlative" in {r.check for r in check(claim, passage)}


def test_another_subjects_rank_is_no_rival() -> None:
    passage = "Helium is the second most abundant element in the universe, after hydrogen."
    claim = "The element hydrogen is not the most abundant in the universe."
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    "measure",
    ["It is 455 metres long.", "It opened in 1931 and is 455 metres long.", "It is 90 years old."],
)
def test_a_plain_adjective_of_a_measure_states_no_ranking(measure: str) -> None:
    """ "455 metres long" says nothing of "the longest": the passage's own ranking of the
    subject ("the second-longest") still denies the claim's."""
    passage = f"The Kellan Bridge is the second-longest bridge in Riga. {measure}"
    assert superlatives("The Kellan Bridge is the longest bridge in Riga.", passage)


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Of all the bridges in Riga, the Kellan Bridge is the longest. It opened in 1931.",
            "The Kellan Bridge is the oldest bridge in Riga.",
        ),
        (
            "De tous les ponts de Riga, le pont Kellan est le plus long.",
            "Le pont Kellan est le plus ancien pont de Riga.",
        ),
        (
            "De todos los puentes de Riga, el puente Kellan es el más largo.",
            "El puente Kellan es el puente más antiguo de Riga.",
        ),
    ],
)
def test_a_ranking_with_no_noun_ranks_the_group_its_sentence_names(
    passage: str, claim: str
) -> None:
    assert superlatives(claim, passage)
    longest = claim.replace("oldest", "longest").replace("plus ancien", "plus long")
    assert not superlatives(longest.replace("más antiguo", "más largo"), passage)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Lake Tessel is the very largest lake in Latvia.",
            "Lake Tessel is the sixth-largest lake in Latvia.",
        ),
        (
            "Lake Tessel is the single largest lake in Latvia.",
            "Lake Tessel is the sixth-largest lake in Latvia.",
        ),
        (
            "Der Tessel-See ist der mit Abstand größte See von Lettland.",
            "Der Tessel-See ist der sechstgrößte See von Lettland.",
        ),
        (
            "Der Tessel-See ist der weitaus größte See von Lettland.",
            "Der Tessel-See ist der sechstgrößte See von Lettland.",
        ),
    ],
    ids=["very", "single", "mit Abstand", "weitaus"],
)
def test_an_intensifier_inside_a_ranking_leaves_the_plain_ranking(claim: str, passage: str) -> None:
    assert [r.check for r in check(claim, passage)] == ["superlative"]


def test_a_passage_ranking_said_plainly_states_the_plain_ranking() -> None:
    passage = "Lake Tessel is the single largest lake in Latvia. It covers 118 square kilometres."
    assert check("Lake Tessel is the largest lake in Latvia.", passage) == ()


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "She asked why anyone would look the word up in the first place.",
            "She asked why anyone would need to look the word up to begin with.",
        ),
        (
            "The evening was perhaps the most enjoyable of the festival.",
            "Best of all, probably, was the evening concert of the festival.",
        ),
        (
            "Le pont Kellan est le plus beau pont de Riga.",
            "Le pont Kellan traverse la rivière à Riga. Il a ouvert en 1931.",
        ),
        (
            "Die Kellan-Brücke ist die schönste Brücke in Riga.",
            "Die Kellan-Brücke überquert den Fluss in Riga. Sie wurde 1931 eröffnet.",
        ),
        (
            "El puente Kellan es el mejor puente de Riga.",
            "El puente Kellan cruza el río en Riga. Se inauguró en 1931.",
        ),
        ("केलन पुल रीगा का सबसे अच्छा पुल है।", "केलन पुल रीगा में नदी पार करता है। यह 1931 में खुला।"),
    ],
)
def test_an_idiom_or_a_judgement_ranks_nothing_a_passage_must_state(
    claim: str, passage: str
) -> None:
    assert "superlative" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (  # "for the first time" claims a fact: a passage ranking nothing does not state it
            "Income fell below the national average for the first time in a decade.",
            "Income fell below the national average in 2012.",
        ),
        (
            "Anna won the title for the first time in 1990.",
            "Anna won the title for the third time in 1990.",
        ),
        (
            "The Kellan Bridge is the longest bridge in Riga.",
            "The Kellan Bridge crosses the river in Riga. It opened in 1931.",
        ),
    ],
)
def test_a_first_occasion_or_a_measured_ranking_still_needs_stating(
    claim: str, passage: str
) -> None:
    assert "superlative" in {r.check for r in check(claim, passage)}
