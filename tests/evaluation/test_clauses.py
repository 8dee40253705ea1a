"""A sentence joining a fact and an opinion is scored on its fact (issue 47 item 2): the
opinion clause is set aside in ``set_aside``, the span still maps 1:1 to the answer."""

from __future__ import annotations

import json

import pytest

from tests.support.eiffel import evaluate

PASSAGES = {
    "de": "Der Eiffelturm ist ein schmiedeeiserner Gitterturm auf dem Champ de Mars in Paris.",
    "fr": "La tour Eiffel est une tour en fer puddlé sur le Champ-de-Mars à Paris, en France.",
    "es": "La Torre Eiffel es una torre de hierro situada en el Campo de Marte de París.",
    "hi": "एफ़िल टॉवर फ्रांस के पेरिस में शैम्प डे मार्स पर स्थित एक लोहे का टॉवर है।",
}


@pytest.mark.parametrize(
    ("response", "opinion"),
    [
        (
            "The Eiffel Tower is in Berlin, and I think it is beautiful.",
            ", and I think it is beautiful",
        ),
        ("The Eiffel Tower is in Berlin and I love it.", " and I love it"),
        (
            "The Eiffel Tower, which I think is beautiful, is in Berlin.",
            ", which I think is beautiful,",
        ),
    ],
)
def test_the_factual_clause_is_scored_and_the_opinion_set_aside(guard, response, opinion):
    evaluation = evaluate(guard, response)
    (span,) = evaluation.spans
    assert (span.kind, span.supported, evaluation.metrics.hallucination) == (
        "objective",
        False,
        True,
    )
    assert (span.start, span.end, span.text) == (0, len(response), response)
    assert [span.text[a:b] for a, b in span.set_aside] == [opinion]
    assert any(r.check == "entity" and r.claim == "Berlin" for r in span.reasons)


def test_a_true_fact_beside_an_opinion_is_supported(guard):
    (span,) = evaluate(guard, "The Eiffel Tower is in Paris, and I think it is beautiful.").spans
    assert (span.kind, span.supported) == ("objective", True)


@pytest.mark.parametrize(
    ("language", "response", "factual"),
    [
        (
            "de",
            "Der Eiffelturm steht in Berlin, und ich finde ihn wunderschön.",
            "Der Eiffelturm steht in Berlin.",
        ),
        (
            "fr",
            "La tour Eiffel est à Berlin, et je pense qu'elle est magnifique.",
            "La tour Eiffel est à Berlin.",
        ),
        (
            "es",
            "La Torre Eiffel está en Berlín, y creo que es hermosa.",
            "La Torre Eiffel está en Berlín.",
        ),
        ("hi", "एफ़िल टॉवर बर्लिन में है, और मुझे लगता है कि यह सुंदर है।", "एफ़िल टॉवर बर्लिन में है।"),
    ],
)
def test_each_language_scores_the_factual_clause_as_if_alone(guard, language, response, factual):
    """The verdict is the factual clause's own (each language's scorer decides it); what this
    tests is that the opinion no longer makes the sentence subjective and unscored."""
    (span,) = evaluate(guard, response, PASSAGES[language]).spans
    (alone,) = evaluate(guard, factual, PASSAGES[language]).spans
    assert span.kind == "objective" and span.language == language
    assert span.set_aside and span.supported is alone.supported
    assert span.unscored_reason == alone.unscored_reason


def test_set_aside_is_absent_from_the_json_of_a_one_clause_span(guard):
    (plain,) = evaluate(guard, "The Eiffel Tower is in Paris.").spans
    (compound,) = evaluate(guard, "The Eiffel Tower is in Berlin and I love it.").spans
    assert "set_aside" not in json.loads(plain.model_dump_json())
    assert "set_aside" not in plain.model_dump()
    assert json.loads(compound.model_dump_json())["set_aside"] == [[29, 43]]


def test_the_german_taste_superlative_is_subjective(guard):
    (span,) = evaluate(
        guard,
        "Ich finde, Lyon ist die charmanteste Stadt Frankreichs.",
        "Lyon ist die drittgrößte Stadt Frankreichs.",
        "Welche Stadt ist Lyon?",
    ).spans
    assert (span.kind, span.supported) == ("subjective", None)
