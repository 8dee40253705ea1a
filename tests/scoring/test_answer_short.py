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


@pytest.mark.parametrize(
    ("languages", "question", "answer", "lacks"),
    [
        # a preposition before a capitalized noun is no place in German (every noun has one)
        (("de", "de"), "Wo steht er?", "Er ist ein Turm aus Schmiedeeisen.", True),
        (("de", "de"), "Wo steht der Eiffelturm?", "Er steht in Paris.", False),
        (("de", "de"), "Wo?", "In Paris.", False),
        (("de", "de"), "Wann wurde er gebaut?", "Er wurde nach einer langen Bauzeit gebaut.", True),
        (("de", "de"), "Wann wurde er gebaut?", "Er wurde nach dem Krieg gebaut.", False),
        # "a été" (has been) is no summer
        (("fr", "fr"), "Quand a-t-elle été achevée ?", "Elle a été achevée après une pause.", True),
        (("fr", "fr"), "Quand a-t-elle été achevée ?", "Elle a été achevée en mars.", False),
        (("es", "es"), "¿Cuándo fue terminada?", "Fue terminada después de una larga obra.", True),
        (("es", "es"), "¿Dónde está la torre?", "Está en París.", False),
        # no capitals in Devanagari: the where-rule still reads a lower-case-only answer,
        # and a year's postposition is no place
        (("hi", "hi"), "एफिल टॉवर कहाँ है?", "यह 1889 में पूरा हुआ था।", True),
        (("hi", "hi"), "एफिल टॉवर कहाँ है?", "एफिल टॉवर पेरिस में है।", False),
        (("hi", "hi"), "एफिल टॉवर कब पूरा हुआ था?", "यह एक लंबे निर्माण के बाद पूरा हुआ था।", True),
        # an answer in another language than the question's is read with its own cues
        (("en", "de"), "Where is the Eiffel Tower?", "Er steht in Paris.", False),
        (("en", "de"), "When was it built?", "Er ist sehr hoch.", True),
    ],
)
def test_each_language_reads_its_own_question_words(languages, question, answer, lacks):
    assert lacks_asked_type(question, answer, *languages) is lacks
