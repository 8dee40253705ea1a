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
