"""Everyday answers against one passage, through the public Guard API: approximate years,
names in any case, numbers in words, rankings the passage ranks otherwise. Each asserts the verdict
and the reason it gets, never the score."""

import pytest

TOWER = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was completed in 1889. It is 330 metres tall."
)


def verdict(guard, answer):
    """The answer's one span: its kind, whether supported, and its reasons as written."""
    evaluation = guard.evaluate(
        {
            "trace_id": "t",
            "query": "Tell me about the Eiffel Tower.",
            "items": [{"id": "d1", "text": TOWER}],
            "response": answer,
        }
    )
    (span,) = evaluation.spans
    return span.kind, span.supported, [str(r) for r in span.reasons]


@pytest.mark.parametrize("about", ["around", "about", "circa", "approximately", "c."])
def test_an_approximate_year_far_from_the_passage_is_unsupported(guard, about):
    kind, supported, reasons = verdict(guard, f"The Eiffel Tower was built {about} 1925.")
    assert kind == "objective" and supported is False
    assert "date: '1925' vs '1889' in d1" in reasons


def test_an_approximate_year_near_the_passage_is_supported(guard):
    assert verdict(guard, "The Eiffel Tower was completed about 1890.")[:2] == ("objective", True)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("The Eiffel Tower is in berlin.", "entity: 'Berlin' vs 'Paris' in d1"),
        ("the eiffel tower is in rome, italy.", "entity: 'Rome' vs 'Paris' in d1"),
        ("THE EIFFEL TOWER IS IN BERLIN.", "entity: 'Berlin' vs 'Paris' in d1"),
    ],
)
def test_a_wrong_name_in_any_case_is_unsupported_with_an_entity_reason(guard, answer, reason):
    kind, supported, reasons = verdict(guard, answer)
    assert kind == "objective" and supported is False
    assert reason in reasons


@pytest.mark.parametrize(
    "answer", ["the eiffel tower is in paris.", "THE EIFFEL TOWER IS IN PARIS."]
)
def test_the_right_name_in_any_case_is_supported(guard, answer):
    assert verdict(guard, answer) == ("objective", True, [])


@pytest.mark.parametrize(
    "answer",
    ["It is three hundred and thirty metres tall.", "It was completed in eighteen eighty-nine."],
)
def test_numbers_in_words_are_read_as_their_values(guard, answer):
    assert verdict(guard, answer) == ("objective", True, [])


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("It was completed in nineteen twenty-eight.", "date: 'nineteen twenty-eight' vs '1889'"),
        ("It is three hundred metres tall.", None),
        ("It is 3 300 metres tall.", "number: '3 300' vs '330' in d1"),
        # the checks read the text normalised: a narrow or no-break space is a space
        ("It is 3\u202f300 metres tall.", "number: '3 300' vs '330' in d1"),
        ("It is 3\u00a0300 metres tall.", "number: '3 300' vs '330' in d1"),
    ],
)
def test_a_wrong_number_in_words_or_grouped_by_spaces_is_unsupported(guard, answer, reason):
    kind, supported, reasons = verdict(guard, answer)
    if reason is None:  # "three hundred" rounds 330 as "300" does: no contradiction
        assert kind == "objective" and not any(r.startswith("number") for r in reasons)
        return
    assert kind == "objective" and supported is False
    assert any(r.startswith(reason) for r in reasons), reasons


RANKED = (
    "The Eiffel Tower is the second tallest structure in Paris. It is the sixth most visited "
    "monument in the world."
)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (
            "The Eiffel Tower is the most visited monument in the world.",
            "superlative: 'the most visited' vs 'the sixth most visited' in d1",
        ),
        (
            "The Eiffel Tower is the tallest structure in Paris.",
            "superlative: 'the tallest' vs 'the second tallest' in d1",
        ),
    ],
)
def test_a_ranking_the_passage_ranks_otherwise_is_unsupported(guard, answer, reason):
    evaluation = guard.evaluate(
        {
            "trace_id": "t",
            "query": "Tell me about the Eiffel Tower.",
            "response": answer,
            "items": [{"id": "d1", "text": RANKED}],
        }
    )
    (span,) = evaluation.spans
    assert span.kind == "objective" and span.supported is False
    assert reason in [str(r) for r in span.reasons]
