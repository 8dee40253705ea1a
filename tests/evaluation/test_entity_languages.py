"""A place the passage never writes, in German, French and Spanish (issue 47): unsupported
with an entity reason naming both places; the right place stays supported. German
capitalizes every noun, so its names are read where it writes a place without an article
("in Berlin"). Through the public Guard API; verdicts and reasons, never scores."""

import pytest

from tests.support.eiffel import evaluate

PASSAGES = {
    "de": (
        "Der Eiffelturm ist ein schmiedeeiserner Gitterturm auf dem Champ de Mars in Paris, "
        "Frankreich. Er wurde 1889 fertiggestellt."
    ),
    "fr": (
        "La tour Eiffel est une tour en fer puddlé sur le Champ-de-Mars à Paris, en France. "
        "Elle a été achevée en 1889."
    ),
    "es": (
        "La Torre Eiffel es una torre de hierro situada en el Campo de Marte en París, Francia. "
        "Se terminó en 1889."
    ),
}
QUESTIONS = {
    "de": "Wo steht der Eiffelturm?",
    "fr": "Où se trouve la tour Eiffel ?",
    "es": "¿Dónde está la Torre Eiffel?",
}


def _span(guard, language, answer):
    (span,) = evaluate(guard, answer, PASSAGES[language], QUESTIONS[language]).spans
    return span


@pytest.mark.parametrize(
    ("language", "answer", "names"),
    [
        ("de", "Der Eiffelturm steht in Berlin.", ("Berlin", "Paris")),
        ("de", "Der Eiffelturm befindet sich in Rom.", ("Rom", "Paris")),
        ("de", "der eiffelturm steht in berlin.", ("Berlin", "Paris")),
        ("de", "DER EIFFELTURM STEHT IN BERLIN.", ("Berlin", "Paris")),
        ("fr", "La tour Eiffel se trouve à Berlin.", ("Berlin", "Paris")),
        ("fr", "la tour eiffel se trouve à berlin.", ("Berlin", "Paris")),
        ("fr", "LA TOUR EIFFEL SE TROUVE À BERLIN.", ("Berlin", "Paris")),
        ("es", "La Torre Eiffel está en Berlín.", ("Berlín", "París")),
        ("es", "la torre eiffel está en berlín.", ("Berlín", "París")),
        ("es", "LA TORRE EIFFEL ESTÁ EN BERLÍN.", ("Berlín", "París")),
    ],
)
def test_a_place_the_passage_never_writes_is_unsupported(guard, language, answer, names):
    span = _span(guard, language, answer)
    assert (span.kind, span.language, span.supported) == ("objective", language, False)
    assert ("entity", *names) in [(r.check, r.claim, r.evidence) for r in span.reasons]


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("de", "Der Eiffelturm steht in Paris."),
        ("de", "Der Eiffelturm steht in Paris, Frankreich."),
        ("fr", "La tour Eiffel se trouve à Paris."),
        ("es", "La Torre Eiffel está en París."),
    ],
)
def test_the_place_the_passage_writes_is_supported(guard, language, answer):
    span = _span(guard, language, answer)
    assert (span.kind, span.supported) == ("objective", True)
    assert [r for r in span.reasons if r.check == "entity"] == []


def test_the_german_row_asked_in_english_is_read_as_german(guard):
    (span,) = evaluate(guard, "Der Eiffelturm steht in Berlin.", PASSAGES["de"]).spans
    assert (span.language, span.supported) == ("de", False)
    assert ("entity", "Berlin", "Paris") in [(r.check, r.claim, r.evidence) for r in span.reasons]


@pytest.mark.parametrize(
    ("language", "answer", "names"),
    [
        ("fr", "LA TOUR EIFFEL EST À BERLIN.", ("Berlin", "Paris")),
        ("es", "LA TORRE EIFFEL ESTÁ EN BERLÍN.", ("Berlín", "París")),
    ],
)
def test_an_answer_in_capitals_asked_in_english_is_read_in_its_language(
    guard, language, answer, names
):
    (span,) = evaluate(guard, answer, PASSAGES[language]).spans
    assert (span.language, span.supported) == (language, False)
    assert ("entity", *names) in [(r.check, r.claim, r.evidence) for r in span.reasons]
