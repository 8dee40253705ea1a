"""``assert_supported`` and ``assert_relevant``: an AssertionError listing each unsupported
claim with its reason; the evaluation returned when the assertion holds."""

import pytest

from ragguard.testing import assert_relevant, assert_supported
from ragguard.testing.asserts import add_recorder

TOWER = "The Eiffel Tower is a wrought-iron lattice tower in Paris, completed in 1889."
HEIGHT = "The Eiffel Tower is 330 metres tall."


def test_a_supported_answer_passes_and_returns_its_evaluation(guard):
    evaluation = assert_supported(
        "The Eiffel Tower is in Paris. It was completed in 1889.",
        [TOWER],
        query="Where is the Eiffel Tower?",
    )
    assert [span.supported for span in evaluation.spans] == [True, True]


def test_an_unsupported_claim_is_listed_with_its_reason(guard):
    with pytest.raises(AssertionError) as caught:
        assert_supported(
            "The Eiffel Tower is in Paris. It is 500 metres tall.",
            [TOWER, {"id": "facts", "text": HEIGHT}],
            query="Tell me about the Eiffel Tower.",
        )
    message = str(caught.value)
    assert message.startswith("1 of 2 claims are not supported by the contexts")
    assert "unsupported: 'It is 500 metres tall.'" in message
    assert "number: '500' vs '330' in facts" in message


def test_a_claim_with_nothing_to_check_it_against_fails(guard):
    with pytest.raises(AssertionError) as caught:
        assert_supported("The Eiffel Tower is in Paris.", [], query="Where is it?")
    assert "1 of 1 claims are not supported" in str(caught.value)
    assert "'The Eiffel Tower is in Paris.'" in str(caught.value)


def test_relevance_an_off_question_answer_and_an_abstention_fail(guard):
    assert_relevant("The Eiffel Tower is in Paris.", query="Where is the Eiffel Tower?")
    with pytest.raises(AssertionError, match="does not address the query") as caught:
        assert_relevant("Bananas grow in the tropics.", query="Where is the Eiffel Tower?")
    assert "'Bananas grow in the tropics.' does not address it" in str(caught.value)
    with pytest.raises(AssertionError, match="abstains"):
        assert_relevant("I cannot answer that.", query="Where is the Eiffel Tower?")


def test_every_assertion_reaches_the_recorders(guard):
    seen = []
    remove = add_recorder(lambda name, passed, evaluation: seen.append((name, passed)))
    try:
        assert_relevant("The Eiffel Tower is in Paris.", query="Where is the Eiffel Tower?")
        with pytest.raises(AssertionError):
            assert_supported("It is 500 metres tall.", [HEIGHT], query="How tall is it?")
    finally:
        remove()
    assert seen == [("assert_relevant", True), ("assert_supported", False)]


def test_contexts_given_as_one_string_are_one_passage(guard):
    """On 394702e each character of the string became an item."""
    evaluation = assert_supported(
        "The Eiffel Tower is 330 metres tall.",
        "The Eiffel Tower is 330 metres tall.",
        query="How tall is the Eiffel Tower?",
    )
    assert [item.id for item in evaluation.items] == ["c1"]


def test_a_claim_no_model_can_read_fails_the_assertion(guard):
    """A Japanese answer against its passage: no loaded backbone reads it, so it is no pass."""
    with pytest.raises(AssertionError, match="unscored"):
        assert_supported(
            "エッフェル塔はロンドンにあります。",
            ["エッフェル塔はフランスのパリにあります。"],
            query="エッフェル塔はどこにありますか？",
        )


@pytest.mark.parametrize("response", ["", "   \n", "[1]"])
def test_an_answer_with_no_claim_fails_unless_allowed(guard, response):
    with pytest.raises(AssertionError, match="makes no factual claim"):
        assert_supported(response, [TOWER], query="Where is the Eiffel Tower?")
    evaluation = assert_supported(
        response, [TOWER], query="Where is the Eiffel Tower?", allow_empty=True
    )
    assert not any(span.kind == "objective" for span in evaluation.spans)
