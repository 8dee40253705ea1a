"""Clauses, not sentences, are categorized (issue 47 item 2): an opinion clause beside a
factual one is set aside and the factual clause scored, in the five languages."""

from __future__ import annotations

import pytest

from ragguard.spans import Categorizer
from ragguard.spans.clauses import MIN_WORDS, clauses

# (language, sentence, the opinion clause set aside as written, what is left to score)
COMPOUNDS = [
    (
        "en",
        "The Eiffel Tower is in Berlin, and I think it is beautiful.",
        ", and I think it is beautiful",
        "The Eiffel Tower is in Berlin.",
    ),
    (
        "en",
        "The Eiffel Tower is in Berlin and I love it.",
        " and I love it",
        "The Eiffel Tower is in Berlin.",
    ),
    (
        "en",
        "The Eiffel Tower, which I think is beautiful, is in Berlin.",
        ", which I think is beautiful,",
        "The Eiffel Tower is in Berlin.",
    ),
    (
        "en",
        "I think the cathedral is stunning, but it stands in Cologne.",
        "I think the cathedral is stunning, but ",
        "it stands in Cologne.",
    ),
    (
        "de",
        "Der Eiffelturm steht in Berlin, und ich finde ihn wunderschön.",
        ", und ich finde ihn wunderschön",
        "Der Eiffelturm steht in Berlin.",
    ),
    (
        "de",
        "Der Eiffelturm steht in Berlin und ich liebe ihn.",
        " und ich liebe ihn",
        "Der Eiffelturm steht in Berlin.",
    ),
    (
        "de",
        "Der Eiffelturm, den ich wunderschön finde, steht in Berlin.",
        ", den ich wunderschön finde,",
        "Der Eiffelturm steht in Berlin.",
    ),
    (
        "fr",
        "La tour Eiffel est à Berlin, et je pense qu'elle est magnifique.",
        ", et je pense qu'elle est magnifique",
        "La tour Eiffel est à Berlin.",
    ),
    (
        "fr",
        "La tour Eiffel est à Berlin et je l'adore.",
        " et je l'adore",
        "La tour Eiffel est à Berlin.",
    ),
    (
        "fr",
        "La tour Eiffel, que je trouve magnifique, est à Berlin.",
        ", que je trouve magnifique,",
        "La tour Eiffel est à Berlin.",
    ),
    (
        "es",
        "La Torre Eiffel está en Berlín, y creo que es hermosa.",
        ", y creo que es hermosa",
        "La Torre Eiffel está en Berlín.",
    ),
    (
        "es",
        "La Torre Eiffel está en Berlín y me encanta.",
        " y me encanta",
        "La Torre Eiffel está en Berlín.",
    ),
    (
        "es",
        "La Torre Eiffel, que me parece hermosa, está en Berlín.",
        ", que me parece hermosa,",
        "La Torre Eiffel está en Berlín.",
    ),
    (
        "hi",
        "एफ़िल टॉवर बर्लिन में है, और मुझे लगता है कि यह सुंदर है।",
        ", और मुझे लगता है कि यह सुंदर है",
        "एफ़िल टॉवर बर्लिन में है।",
    ),
    ("hi", "एफ़िल टॉवर बर्लिन में है और मुझे यह पसंद है।", " और मुझे यह पसंद है", "एफ़िल टॉवर बर्लिन में है।"),
    # asides (issue 56): a closing relative clause, an appositive, a parenthesis, an opinion
    # in the middle, a coordinated opinion opened by a pronoun
    (
        "en",
        "The Danube empties into the Baltic Sea, which is a lovely sight.",
        ", which is a lovely sight",
        "The Danube empties into the Baltic Sea.",
    ),
    (
        "en",
        "The Danube, a beautiful river, empties into the Black Sea.",
        ", a beautiful river,",
        "The Danube empties into the Black Sea.",
    ),
    (
        "en",
        "The Kellan Bridge (breathtaking) crosses the river in Oslo.",
        " (breathtaking)",
        "The Kellan Bridge crosses the river in Oslo.",
    ),
    (
        "en",
        "The Eiffel Tower, in my view the finest tower, is in Berlin.",
        ", in my view the finest tower,",
        "The Eiffel Tower is in Berlin.",
    ),
    (
        "en",
        "The viaduct opened in 1912 but it is quite ugly.",
        " but it is quite ugly",
        "The viaduct opened in 1912.",
    ),
    (
        "de",
        "Die Brücke überquert den Fluss in Madrid, was einfach fantastisch ist.",
        ", was einfach fantastisch ist",
        "Die Brücke überquert den Fluss in Madrid.",
    ),
    (
        "fr",
        "Le pont franchit le fleuve à Bordeaux, ce qui est fantastique.",
        ", ce qui est fantastique",
        "Le pont franchit le fleuve à Bordeaux.",
    ),
    (
        "hi",
        "एफ़िल टॉवर, जो मुझे सुंदर लगता है, बर्लिन में है।",
        ", जो मुझे सुंदर लगता है,",
        "एफ़िल टॉवर बर्लिन में है।",
    ),
]


def _left(text: str, aside: tuple[tuple[int, int], ...]) -> str:
    kept, at = [], 0
    for start, end in aside:
        kept.append(text[at:start])
        at = end
    return "".join([*kept, text[at:]])


@pytest.mark.parametrize(("language", "text", "opinion", "factual"), COMPOUNDS)
def test_the_opinion_clause_is_set_aside_and_the_factual_one_kept(
    language: str, text: str, opinion: str, factual: str
) -> None:
    found = Categorizer().categorize(text, language)
    assert found.kind == "objective"
    assert [text[a:b] for a, b in found.aside] == [opinion]
    assert _left(text, found.aside) == factual


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "The tower is beautiful, and I love it."),
        ("en", "The food was delicious and I enjoyed it."),
        ("en", "The best cities are Paris, London, and Berlin."),
        ("en", "The view, which I think is stunning, is worth the visit."),
        ("de", "Das Essen war köstlich und ich habe es genossen."),
        ("fr", "Le repas était délicieux et je l'ai adoré."),
        ("es", "La comida estaba deliciosa y me encantó."),
        ("hi", "खाना स्वादिष्ट था और मुझे बहुत पसंद आया।"),
    ],
)
def test_opinions_joined_to_opinions_or_to_the_speaker_stay_subjective(
    language: str, text: str
) -> None:
    """A clause about the speaker ("and I enjoyed it") or a list's item ("and Berlin") is no
    factual clause: nothing is set aside and the sentence stays subjective."""
    found = Categorizer().categorize(text, language)
    assert (found.kind, found.aside) == ("subjective", ())


def test_a_list_item_is_no_clause() -> None:
    assert len(clauses("Paris, London, and Berlin are capitals.", "en")) == 1
    assert MIN_WORDS == 3


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Ich finde, Lyon ist die charmanteste Stadt Frankreichs."),
        ("de", "Lyon ist die gemütlichste Stadt Frankreichs."),
        ("fr", "Je trouve que Lyon est la ville la plus charmante de France."),
        ("es", "Creo que Lyon es la ciudad más encantadora de Francia."),
        ("hi", "मेरी राय में ल्योन फ्रांस का सबसे सुंदर शहर है।"),
    ],
)
def test_superlatives_of_taste_are_subjective(language: str, text: str) -> None:
    assert Categorizer().categorize(text, language).kind == "subjective"


def test_a_ranking_by_size_stays_objective() -> None:
    assert Categorizer().categorize("Lyon ist die drittgrößte Stadt Frankreichs.", "de").kind == (
        "objective"
    )


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "The beautiful Eiffel Tower is in Berlin."),
        ("en", "The wonderful Eiffel Tower is made of wood."),
        ("es", "El hermoso puente Millbrook cruza el río en Mánchester."),
        ("und", "Le sublime pont Kellan franchit le fleuve à Nantes."),
    ],
)
def test_an_evaluative_word_on_the_subject_hides_no_fact(language: str, text: str) -> None:
    """The predicate decides: a cue that only qualifies the opening subject is no opinion."""
    assert Categorizer().categorize(text, language).kind == "objective"


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "The Greystone Bridge is utterly glorious."),
        ("en", "The Danube is a beautiful river."),
        ("en", "In my opinion, the bridge is old."),
        ("en", "You should try the local bakery, it is wonderful."),
        ("de", "Die Brücke ist wirklich prächtig."),
    ],
)
def test_an_evaluative_predicate_or_an_opinion_lead_stays_subjective(
    language: str, text: str
) -> None:
    assert Categorizer().categorize(text, language).kind == "subjective"
