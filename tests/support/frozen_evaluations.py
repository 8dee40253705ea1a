"""Changed copies of a frozen evaluation, for tests that need one a model would not give."""

from collections.abc import Mapping

from ragguard.schema import Evaluation


def with_spans(evaluation: Evaluation, changes: Mapping[int, Mapping[str, object]]) -> Evaluation:
    """``evaluation`` with span ``index`` given the fields in ``changes[index]``."""
    spans = [
        span.model_copy(update=changes[index]) if index in changes else span
        for index, span in enumerate(evaluation.spans)
    ]
    return evaluation.model_copy(update={"spans": tuple(spans)})
