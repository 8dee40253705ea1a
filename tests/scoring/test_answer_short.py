"""Answer relevance for short, lower-case and indefinite answers (issue 47 item 6): a
fragment that gives the asked type answers, capitals decide nothing in an all-lower or
all-caps answer, and a sentence with no time does not answer "when"."""

import pytest

from ragguard.scoring.lite.answer import answers_by_fragment, lacks_asked_type
from tests.support.eiffel import evaluate


@pytest.mark.parametrize(
    ("query", "response", "relevant"),
    [
        ("Where is the Eiffel Tower?", "Paris.", True),
        ("Where is the Eiffel Tower?", "the eiffel tower is in paris.", True),
        ("Where is the Eiffel Tower?", "THE EIFFEL TOWER IS IN PARIS.", True),
        ("When was the Eiffel Tower completed?", "In 1889.", True),
        (
            "When was the Eiffel Tower completed?",
            "It was completed after a long construction.",
            False,
        ),
        ("When was the Eiffel Tower completed?", "It is 330 metres tall.", False),
    ],
)
def test_the_answer_verdict(guard, query, response, relevant):
    evaluation = evaluate(guard, response, query=query)
    assert evaluation.metrics.answer_relevant is relevant
    assert [s.addresses_query for s in evaluation.spans] == [relevant]


@pytest.mark.parametrize(
    ("answer", "lacks"),
    [
        ("It was completed after a long construction.", True),
        ("It was completed during a storm.", True),
        ("It was completed after the war.", False),
        ("It was completed in 1889.", False),
    ],
)
def test_a_temporal_word_before_an_indefinite_event_gives_no_time(answer, lacks):
    assert lacks_asked_type("When was the Eiffel Tower completed?", answer) is lacks


@pytest.mark.parametrize(
    ("question", "answer", "answers"),
    [
        ("Where is the Eiffel Tower?", "Paris.", True),
        ("Where is the Eiffel Tower?", "Rome.", True),  # answers, wrongly: support's call
        ("Where is the Eiffel Tower?", "paris.", False),  # no capitals: the head decides
        ("When was it completed?", "1889.", True),
        ("When was it completed?", "Paris.", False),
        ("What is the Eiffel Tower?", "A tower.", False),  # no type decides "what"
        ("Where is the Eiffel Tower?", "It is in a park near a river in Paris.", False),
    ],
)
def test_a_fragment_answers_by_its_type(question, answer, answers):
    assert answers_by_fragment(question, answer) is answers


def test_capitals_decide_no_names_in_a_lower_case_answer():
    assert not lacks_asked_type("Where is the Eiffel Tower?", "the eiffel tower is in paris.")
    assert lacks_asked_type("Where is the Eiffel Tower?", "The tower is very tall.")
