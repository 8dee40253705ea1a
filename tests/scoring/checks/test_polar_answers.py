"""A bare yes or no is read as the statement its yes/no question makes."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import polar_reading


@pytest.mark.parametrize(
    ("question", "answer", "language", "read"),
    [
        (
            "Is the Kellan Bridge the longest bridge in Riga?",
            "Yes.",
            "en",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Is the Kellan Bridge the longest bridge in Riga?",
            "No, it is not.",
            "en",
            "The Kellan Bridge is not the longest bridge in Riga.",
        ),
        (
            "Did the Kellan Bridge open in 1931?",
            "Yes.",
            "en",
            "The Kellan Bridge did open in 1931.",
        ),
        (
            "Ist die Kellan-Brücke die längste Brücke in Riga?",
            "Nein.",
            "de",
            "Die Kellan-Brücke ist nicht die längste Brücke in Riga.",
        ),
        (
            "Le pont Kellan est-il le plus long pont de Riga ?",
            "Non.",
            "fr",
            "Le pont Kellan n'est pas le plus long pont de Riga.",
        ),
        (
            "Le pont Kellan a-t-il été inauguré en 1931 ?",
            "Oui.",
            "fr",
            "Le pont Kellan a été inauguré en 1931.",
        ),
        (
            "Est-ce que le pont Kellan est le plus long pont de Riga ?",
            "Non.",
            "fr",
            "Le pont Kellan n'est pas le plus long pont de Riga.",
        ),
        (
            "¿Es el puente Kellan el puente más largo de Riga?",
            "No.",
            "es",
            "El puente Kellan no es el puente más largo de Riga.",
        ),
        (
            "क्या केलन पुल रीगा का सबसे लंबा पुल है?",
            "नहीं।",
            "hi",
            "केलन पुल रीगा का सबसे लंबा पुल नहीं है.",
        ),
    ],
)
def test_a_bare_yes_or_no_says_its_question(
    question: str, answer: str, language: str, read: str
) -> None:
    assert polar_reading(question, answer, language) == read


@pytest.mark.parametrize(
    ("question", "answer", "language"),
    [
        ("Who built the Kellan Bridge?", "Yes.", "en"),  # no yes/no question
        ("Is it long?", "Yes.", "en"),  # no subject to state it of
        ("Is the Kellan Bridge in Riga?", "Yes, it crosses the river there.", "en"),  # says more
        ("Is the Kellan Bridge in Riga?", "The Kellan Bridge.", "en"),  # no yes or no
        ("Is the Kellan Bridge in Riga?", "Yes.", "xx"),  # a language with no table
    ],
)
def test_what_is_no_bare_reply_to_a_yes_no_question_is_not_read(
    question: str, answer: str, language: str
) -> None:
    assert polar_reading(question, answer, language) is None
