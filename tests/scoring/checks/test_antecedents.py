"""An answer's pronoun takes the span before's subject, else the question's."""

from types import SimpleNamespace

import pytest

from ragguard.scoring.checks.antecedents import answer_readings, question_subject


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("Where is the Eiffel Tower?", "the Eiffel Tower"),
        ("Who was Niels Bohr?", "Niels Bohr"),
        ("Where is the old tower?", "the old tower"),
        ("Why?", None),
    ],
)
def test_the_question_subject(question, found):
    assert question_subject(question) == found


def test_german_questions_name_no_subject():
    assert question_subject("Wo steht der Eiffelturm?", "de") is None


def spans(*texts):
    return [SimpleNamespace(text=t, language="en") for t in texts]


def test_an_answer_span_takes_the_question_subject_then_the_span_before():
    assert answer_readings("Where is the Eiffel Tower?", spans("It stands in Paris.")) == [
        "The Eiffel Tower stands in Paris."
    ]
    assert answer_readings("Who was Niels Bohr?", spans("He was Danish.")) == [
        "Niels Bohr was Danish."
    ]
    read = answer_readings(
        "Tell me about Paris.", spans("Gustave Eiffel was an engineer.", "He was born in Dijon.")
    )
    assert read == ["Gustave Eiffel was an engineer.", "Gustave Eiffel was born in Dijon."]
