"""The cascade's merge (``ragguard.judge.cascade``): a judge's "supported" does not flip a
fired contradiction check unless ``[judge] may_overrule`` names that check."""

import pytest

from ragguard import Config
from tests.support.judge_fixtures import band_around, judged_guard
from tests.support.misbehaving_judge import Behaviour, stand_in

CONTRADICTED = {
    "trace_id": "date",
    "query": "When was the Eiffel Tower completed?",
    "items": [{"id": "d1", "text": "The Eiffel Tower was completed in 1889 in Paris."}],
    "response": "The Eiffel Tower was completed in 1999.",
}


@pytest.mark.parametrize("may_overrule", [[], ["number", "negation", "entity"], ["date"]])
def test_a_judge_saying_supported_overrules_a_fired_check_only_when_allowed(guard, may_overrule):
    lite = guard.evaluate(CONTRADICTED).spans[0]
    assert [r.check for r in lite.reasons] == ["date"] and lite.supported is False
    with stand_in(Behaviour()) as server:  # it answers "supported" to everything
        judge = {"backend": "openai", "base_url": server.base_url, "model": "stand-in"}
        judge |= {"band": band_around(lite.support), "may_overrule": may_overrule}
        span = judged_guard(guard, Config(judge=judge)).evaluate(CONTRADICTED).spans[0]
    assert span.judge is not None and span.judge.verdict is True  # asked, and recorded
    if "date" in may_overrule:
        assert span.supported is True and span.support_source == "judge"
    else:
        assert span.supported is False and span.support_source == "lite"
        assert span.judge_skipped == "check_fired"
