"""``Guard``: the user-facing evaluator API."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from ragguard.config import Config, ConfigLike
from ragguard.engine import Evaluator, Outcome
from ragguard.errors import RagguardError
from ragguard.schema import Evaluation, Trace

TraceLike = Trace | dict[str, Any]


def _as_trace(trace: TraceLike) -> Trace:
    return trace if isinstance(trace, Trace) else Trace.parse(trace)


class Guard:
    """Evaluate RAG traces: relevance per item, support per span, citation checks.

    >>> guard = Guard()                       # offline lite models, calibrated thresholds
    >>> evaluation = guard.evaluate({"trace_id": "t1", "query": "...", "items": [...],
    ...                              "response": "..."})
    """

    def __init__(
        self,
        config: ConfigLike = None,
        *,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.config = Config.coerce(config)
        self.evaluator = evaluator or Evaluator(self.config)

    def load(self) -> float:
        """Load the models now (else on first use); the seconds it took."""
        return self.evaluator.load()

    def evaluate(self, trace: TraceLike) -> Evaluation:
        """Evaluate one trace; bad input raises ``TraceValidationError`` naming the field."""
        return self.evaluate_many([trace])[0]

    def evaluate_many(self, traces: Iterable[TraceLike]) -> list[Evaluation]:
        """Evaluate traces in batches (few model calls); raises the first trace's error."""
        results = []
        for outcome in self.evaluate_stream(traces):
            if isinstance(outcome, RagguardError):
                raise outcome
            results.append(outcome)
        return results

    def evaluate_stream(
        self,
        traces: Iterable[TraceLike | RagguardError],
        *,
        batch_size: int | None = None,
    ) -> Iterator[Outcome]:
        """Lazily evaluate a stream in order, yielding an Evaluation or the error of each
        input; errors already in the stream (bad lines of a file) pass through in place."""
        size = batch_size or self.config.batch_size
        iterator = iter(traces)
        while batch := list(itertools.islice(iterator, size)):
            outcomes: list[Outcome | None] = []
            valid: list[Trace] = []
            for entry in batch:
                if isinstance(entry, RagguardError):
                    outcomes.append(entry)
                    continue
                try:
                    valid.append(_as_trace(entry))
                    outcomes.append(None)
                except RagguardError as error:
                    outcomes.append(error)
            evaluated = iter(self.evaluator.evaluate_batch(valid))
            for outcome in outcomes:
                yield next(evaluated) if outcome is None else outcome
