"""A sentence read with its antecedent: listed pronouns and definite descriptions take the
subject of the sentence before, else of the passage's first sentence, in each language
with an ``[antecedents]`` table; openers that refer to nothing are left alone."""

import pytest

from ragguard.language import lexicon
from ragguard.scoring.checks.antecedents import resolve, subject, with_antecedent

TOWER = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France."


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        ("It was completed in 1889.", "The Eiffel Tower was completed in 1889."),
        ("The tower is 330 metres tall.", "The Eiffel Tower is 330 metres tall."),
        ("Its designer was Gustave Eiffel.", "The Eiffel Tower's designer was Gustave Eiffel."),
        ("It is possible that it will close.", "It is possible that it will close."),
        ("Paris has two airports.", "Paris has two airports."),
        ("The city has two airports.", "The city has two airports."),  # no earlier "city"
    ],
)
def test_an_english_sentence_takes_its_antecedent(sentence: str, read: str) -> None:
    assert resolve((TOWER, sentence)) == (TOWER, read)


def test_the_sentence_before_comes_first_then_the_first_sentence() -> None:
    passage = (TOWER, "Gustave Eiffel was an engineer.", "He was born in Dijon.")
    assert resolve(passage)[2] == "Gustave Eiffel was born in Dijon."


@pytest.mark.parametrize(
    ("code", "first", "then", "read"),
    [
        (
            "de",
            "Der Eiffelturm ist ein Turm in Paris.",
            "Er wurde 1889 fertiggestellt.",
            "Der Eiffelturm wurde 1889 fertiggestellt.",
        ),
        (
            "de",
            "Der Eiffelturm ist ein Turm in Paris.",
            "Es gibt dort ein Museum.",
            "Es gibt dort ein Museum.",
        ),
        (
            "fr",
            "La tour Eiffel est une tour de Paris.",
            "Elle a été achevée en 1889.",
            "La tour Eiffel a été achevée en 1889.",
        ),
        (
            "fr",
            "La tour Eiffel est une tour de Paris.",
            "Il y a 1665 marches.",
            "Il y a 1665 marches.",
        ),
        (
            "es",
            "La Torre Eiffel es una torre de París.",
            "Ella fue completada en 1889.",
            "La Torre Eiffel fue completada en 1889.",
        ),
    ],
)
def test_each_language_reads_with_its_own_lists(code, first, then, read) -> None:
    assert resolve((first, then), code)[1] == read


@pytest.mark.parametrize(
    ("code", "first", "then", "read"),
    [
        (
            "en",
            "Maria Theresa (13 May 1717 – 29 November 1780) was the ruler of Austria.",
            "She started her 40-year reign in 1740.",
            "Maria Theresa started her 40-year reign in 1740.",
        ),
        (
            "en",
            "Rear Admiral Alan Shepard (November 18, 1923 – July 21, 1998) was an astronaut.",
            "He retired from the Navy in 1974.",
            "Rear Admiral Alan Shepard retired from the Navy in 1974.",
        ),
        (
            "de",
            "Die Kellan-Brücke (1862 erbaut) ist eine Bogenbrücke.",
            "Sie wurde 1931 geschlossen.",
            "Die Kellan-Brücke wurde 1931 geschlossen.",
        ),
        (
            "fr",
            "Le pont de Riga (construit en 1862) est un pont en arc.",
            "Il a été fermé en 1931.",
            "Le pont de Riga a été fermé en 1931.",
        ),
        (
            "es",
            "La Torre de Riga (construida en 1862) es una torre de piedra.",
            "Ella fue cerrada en 1931.",
            "La Torre de Riga fue cerrada en 1931.",
        ),
    ],
)
def test_an_aside_in_parentheses_is_no_part_of_the_subject(code, first, then, read) -> None:
    """The dates or gloss after a name are skipped, not counted as subject words (which cut
    the subject inside the parenthesis or left the pronoun unread)."""
    assert resolve((first, then), code)[1] == read


def test_hindi_has_no_pronoun_or_verb_lists_and_is_read_as_written() -> None:
    found = lexicon("hi")
    assert found is not None and set(found.antecedents) == {
        "askers_in_place",
        "doer_askers",
        "doer_mark",
        "answer_frames",
    }
    passage = ("एफिल टॉवर पेरिस में है।", "यह 1889 में बना।")
    assert resolve(passage, "hi") == passage


def test_subject_and_a_given_antecedent() -> None:
    assert subject(TOWER) == "The Eiffel Tower"
    assert subject("It was completed in 1889.") is None
    assert with_antecedent("It stands in Paris.", "the Eiffel Tower") == (
        "The Eiffel Tower stands in Paris."
    )
    assert with_antecedent("It stands in Paris.", None) == "It stands in Paris."


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("Anna Brandt later founded Northwind Works.", "Anna Brandt"),
        ("The tower also has a lift.", "The tower"),
        ("Paris also has two airports.", "Paris"),
        ("The old tower is tall.", "The old tower"),
    ],
)
def test_an_adverb_before_the_verb_is_no_part_of_the_subject(sentence: str, found: str) -> None:
    assert subject(sentence) == found
    passage = (sentence, "She was born in Riga.")
    assert resolve(passage)[1] == f"{found} was born in Riga."


@pytest.mark.parametrize(
    ("code", "first", "then", "read"),
    [
        (
            "en",
            "Anna Brandt .",
            "She founded Northwind Works in Riga in 1931.",
            "Anna Brandt founded Northwind Works in Riga in 1931.",
        ),
        (
            "en",
            "Anna Brandt (architect) .",
            "Her firm was Northwind Works.",
            "Anna Brandt's firm was Northwind Works.",
        ),
        (
            "de",
            "Anna Brandt .",
            "Sie gründete 1931 Northwind Works.",
            "Anna Brandt gründete 1931 Northwind Works.",
        ),
        (
            "fr",
            "Anna Brandt .",
            "Elle a fondé Northwind Works.",
            "Anna Brandt a fondé Northwind Works.",
        ),
    ],
)
def test_a_title_opening_the_passage_is_what_its_pronouns_stand_for(code, first, then, read):
    """A retrieved page often opens with its title, a name and no verb, less what its
    parentheses add."""
    assert resolve((first, then), code)[1] == read


def test_a_first_sentence_with_words_of_its_own_is_no_title() -> None:
    passage = ("Anna Brandt, an architect .", "She founded Northwind Works.")
    assert resolve(passage) == passage
