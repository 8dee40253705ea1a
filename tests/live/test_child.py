"""The evaluation child process: real models in a real child; the relevance scorer on the
parent side is a constant stub so that scores sent with a batch are recognisable."""

import os
import signal

import numpy as np
import pytest

from ragguard.config import Config
from ragguard.errors import RagguardError, TraceValidationError
from ragguard.live.child import EvaluationChild
from ragguard.schema import Item, Trace
from ragguard.scoring.interface.evidence import item_evidence
from ragguard.scoring.wiring.cache import CachedRelevanceScorer

TRACE = Trace(
    trace_id="t1",
    query="Where is the Eiffel Tower?",
    items=[Item(id="paris", text="The Eiffel Tower is a wrought-iron lattice tower in Paris.")],
    response="The Eiffel Tower is in Paris.",
)


class Constant:
    threshold = 0.5

    def relevance(self, queries, evidence):
        return np.full(len(queries), 0.123, dtype=np.float32)


def test_the_child_evaluates_at_low_priority_with_the_scores_it_is_sent():
    scores = CachedRelevanceScorer(Constant())
    scores.relevance([TRACE.query], [item_evidence(TRACE.items[0])])  # as a reranker would
    process = EvaluationChild(Config(), scores=scores)

    (evaluation,) = process([TRACE])
    assert evaluation.items[0].relevance == pytest.approx(0.123)  # sent, not recomputed
    assert evaluation.spans[0].support is not None  # the rest is scored by the child's models
    assert os.getpriority(os.PRIO_PROCESS, process.pid) == Config().live.worker_nice

    os.kill(process.pid, signal.SIGKILL)
    with pytest.raises(RagguardError, match="evaluation process stopped"):
        process([TRACE])
    (again,) = process([TRACE])  # a new child
    assert again.trace_id == "t1"


def test_a_trace_error_in_the_child_keeps_its_type_and_field():
    bad = TRACE.model_copy(update={"trace_id": "t2", "response": "It is in Paris [7]."})
    process = EvaluationChild(Config(unknown_citations="error"))
    good, error = process([TRACE, bad])
    assert good.trace_id == "t1"
    assert isinstance(error, TraceValidationError)
    assert (error.field, error.trace_id) == ("response", "t2")
