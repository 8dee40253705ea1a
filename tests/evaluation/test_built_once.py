"""An evaluation is built once, by assembly, and nothing edits it afterwards: the judge's
rulings, the judge's timing and the calibration status are in it when it is built."""

import pytest

from benchmarks.accuracy_judge import standin_judge
from ragguard import Config, Guard
from ragguard.evaluation import evaluator as evaluator_module
from ragguard.evaluation.models import Models
from tests.judge.test_answer_relevance import OFF, trace
from tests.support.judge_fixtures import TRACE


@pytest.fixture
def built(monkeypatch):
    """Each evaluation assembly returns, with its JSON at the moment it was built."""
    made = []
    real = evaluator_module.assemble

    def recording(*args, **kwargs):
        evaluation = real(*args, **kwargs)
        made.append((evaluation, evaluation.model_dump_json()))
        return evaluation

    monkeypatch.setattr(evaluator_module, "assemble", recording)
    return made


def test_nothing_edits_an_evaluation_after_assembly(guard, built):
    gold = {"The Eiffel Tower is in Paris.": True, "It was moved to Berlin in 1975.": True}
    gold[OFF] = True
    with standin_judge(gold, flip=0.0) as running:
        judge = {"backend": "openai", "base_url": running.base_url, "model": "standin"}
        judge |= {"band": [0.0, 1.0], "answer_band": [0.0, 1.0]}
        config = Config.model_validate({"judge": judge, "calibration": {"source": "file"}})
        models = guard.models
        judged = Guard(
            config,
            models=Models.build(
                config,
                relevance=models.relevance_scorer,
                support=models.support_scorer,
                embedder=models.embedder,
                analyzer=models.analyzer,
            ),
        )
        evaluations = judged.evaluate_many([TRACE, trace("a", OFF)])
    assert [e for e, _ in built] == evaluations  # every returned evaluation was assembled
    for (made, at_build), returned in zip(built, evaluations, strict=True):
        assert made is returned
        assert returned.model_dump_json() == at_build  # ... and left as it was built
    spans = evaluations[0].spans
    assert any(s.support_source == "judge" for s in spans)  # the judge did decide spans
    assert evaluations[1].answer_judge is not None and evaluations[1].metrics.answer_relevant
    assert all("judge" in e.timing_ms and e.calibration is not None for e in evaluations)
