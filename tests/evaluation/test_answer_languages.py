"""Answer relevance in German, French, Spanish and Hindi (issue 47 item 6), through the
public Guard: a right short answer to "where" or "when" answers the question, an answer
about something else does not, and a "when" answered without a time does not. Each
asserts the verdict (``answer_relevant`` and every span's ``addresses_query``), never a
score; before the multilingual answer head these were all None."""

import pytest

from tests.support.eiffel import evaluate

PASSAGES = {
    "de": "Der Eiffelturm ist ein Gitterturm aus Schmiedeeisen in Paris. Er wurde 1889 "
    "fertiggestellt. Er ist 330 Meter hoch.",
    "fr": "La tour Eiffel est une tour en fer puddlé à Paris. Elle a été achevée en 1889. "
    "Elle mesure 330 mètres.",
    "es": "La Torre Eiffel es una torre de hierro situada en París. Fue terminada en 1889. "
    "Mide 330 metros.",
    "hi": "एफिल टॉवर पेरिस में स्थित एक लोहे का टॉवर है। इसका निर्माण 1889 में पूरा हुआ था। "
    "इसकी ऊँचाई 330 मीटर है।",
}

CASES = {
    # language: (where, right place, when, right date, off the question, no time)
    "de": (
        "Wo steht der Eiffelturm?",
        "Der Eiffelturm steht in Paris.",
        "Wann wurde der Eiffelturm fertiggestellt?",
        "Er wurde 1889 fertiggestellt.",
        "Er ist ein Gitterturm aus Schmiedeeisen.",
        "Er wurde nach einer langen Bauzeit fertiggestellt.",
    ),
    "fr": (
        "Où se trouve la tour Eiffel ?",
        "La tour Eiffel se trouve à Paris.",
        "Quand la tour Eiffel a-t-elle été achevée ?",
        "Elle a été achevée en 1889.",
        "Elle est une tour en fer puddlé.",
        "Elle a été achevée après une longue construction.",
    ),
    "es": (
        "¿Dónde está la Torre Eiffel?",
        "La Torre Eiffel está en París.",
        "¿Cuándo fue terminada la Torre Eiffel?",
        "Fue terminada en 1889.",
        "Es una torre de hierro muy alta.",
        "Fue terminada después de una larga construcción.",
    ),
    "hi": (
        "एफिल टॉवर कहाँ है?",
        "एफिल टॉवर पेरिस में है।",
        "एफिल टॉवर कब पूरा हुआ था?",
        "यह 1889 में पूरा हुआ था।",
        "यह एक लोहे का टॉवर है।",
        "यह एक लंबे निर्माण के बाद पूरा हुआ था।",
    ),
}


def verdict(guard, language, query, response):
    evaluation = evaluate(guard, response, PASSAGES[language], query=query)
    relevant = evaluation.metrics.answer_relevant
    assert [s.addresses_query for s in evaluation.spans] == [relevant] * len(evaluation.spans)
    return relevant


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_right_short_answer_answers_the_question(guard, language):
    where, place, when, date, _, _ = CASES[language]
    assert verdict(guard, language, where, place) is True
    assert verdict(guard, language, when, date) is True


@pytest.mark.parametrize("language", sorted(CASES))
def test_an_answer_about_something_else_does_not_answer(guard, language):
    where, _, when, _, off, _ = CASES[language]
    assert verdict(guard, language, where, off) is False
    assert verdict(guard, language, when, off) is False


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_when_question_answered_without_a_time_is_not_answered(guard, language):
    _, _, when, _, _, no_time = CASES[language]
    assert verdict(guard, language, when, no_time) is False


def test_english_answers_keep_the_english_head(guard):
    """An English trace is read by the MiniLM head alone: the multilingual one is never
    asked (no extra model call on the English path)."""
    scorer = guard.models.answer_scorer
    calls = []
    foreign = scorer.multilingual
    original = foreign.score
    foreign.score = lambda *args, **kw: calls.append(args) or original(*args, **kw)
    try:
        evaluation = evaluate(guard, "The Eiffel Tower is in Paris.")
    finally:
        del foreign.score
    assert evaluation.metrics.answer_relevant is True and calls == []
