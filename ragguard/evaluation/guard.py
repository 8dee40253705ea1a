"""``Guard``: the user-facing evaluator API."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ragguard.config import Config, ConfigLike
from ragguard.errors import EvaluationError, ModelLoadError, RagguardError
from ragguard.evaluation.evaluator import Evaluator
from ragguard.evaluation.models import Models
from ragguard.evaluation.plan import Outcome
from ragguard.schema import Evaluation, Trace

TraceLike = Trace | dict[str, Any]


def _as_trace(trace: TraceLike) -> Trace:
    return trace if isinstance(trace, Trace) else Trace.parse(trace)


_WARMUP: dict[str, Any] = {
    "trace_id": "ragguard-warmup",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris."}],
    "response": "The Eiffel Tower is in Paris [1].",
}
"""A trace that passes through every text model: span analysis, RS and CS."""


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
        models: Models | None = None,
    ) -> None:
        self.config = Config.coerce(config)
        if evaluator is None:
            evaluator = Evaluator(models=models or Models.build(self.config))
        self.evaluator = evaluator
        # a stand-in evaluator (a test double) may hold no models: built on first ask then
        self._models: Models | None = getattr(evaluator, "models", None)
        self._lock = threading.Lock()
        """One batch at a time: the models are shared, and batching beats threads."""
        self._warm = False

    @property
    def models(self) -> Models:
        """The configuration's models, built once and shared with the evaluator: what the
        reranker, the live worker and the commands read their scorers from."""
        if self._models is None:
            self._models = Models.build(self.config)
        return self._models

    def warmup(self) -> None:
        """Load every configured model now and pass one tiny trace through them, so that
        the first ``evaluate`` is as fast as the next (loading takes seconds). Raises what
        the models raise (``ModelLoadError``); once it succeeded, calling it again is free."""
        with self._lock:
            if self._warm:
                return
            trace = dict(_WARMUP)
            if self.models.visual_scorer is not None:
                from PIL import Image  # an image model needs the multimodal extra anyway

                image = {"id": "i1", "image": Image.new("RGB", (32, 32), "gray")}
                trace["items"] = [*_WARMUP["items"], image]
            quiet = (  # an evaluator of the user's own may have no such mode
                self.evaluator.models_only()
                if isinstance(self.evaluator, Evaluator)
                else contextlib.nullcontext()
            )
            with quiet:
                (outcome,) = self.evaluator.evaluate_batch([Trace.parse(trace)])
            if isinstance(outcome, Exception):
                raise outcome
            judge = self.models.judge
            if judge is not None:  # a local judge loads its model now, not in a deadline,
                judge.load()  # and one that cannot load fails like a lite model
                judge.client.start()
            self._warm = True

    def evaluate_batch(self, traces: Sequence[Trace]) -> list[Outcome]:
        """Validated traces as one batch, each to its Evaluation or its error (the live
        worker's entry point): one batch at a time, and none while the models warm up."""
        with self._lock:
            return self.evaluator.evaluate_batch(traces)

    async def aevaluate(self, trace: TraceLike) -> Evaluation:
        """``evaluate`` for async code: the models run on a thread, the event loop goes on."""
        return (await self.aevaluate_many([trace]))[0]

    async def aevaluate_many(self, traces: Iterable[TraceLike]) -> list[Evaluation]:
        """``evaluate_many`` for async code (batched, on a thread; concurrent calls take
        turns on the models)."""
        return await asyncio.to_thread(self.evaluate_many, list(traces))

    def load(self) -> float:
        """``warmup``, timed: the seconds loading took (0 once warm), so a run can report
        model loading apart from evaluation."""
        started = time.perf_counter()
        self.warmup()
        return time.perf_counter() - started

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
            evaluated = iter(self._isolated(valid))
            for outcome in outcomes:
                yield next(evaluated) if outcome is None else outcome

    def _isolated(self, traces: list[Trace]) -> list[Outcome]:
        """The batch's outcomes; if the batch fails as a whole (a model call raised), each
        trace again on its own, so that only the trace that causes it fails. A model that
        cannot load fails every trace alike, so it stops the run."""
        try:
            return self.evaluate_batch(traces)
        except ModelLoadError:
            raise
        except Exception as error:
            if len(traces) > 1:
                return [outcome for trace in traces for outcome in self._isolated([trace])]
            message = f"evaluation failed: {type(error).__name__}: {error}"
            return [EvaluationError(message, trace_id=traces[0].trace_id)]
