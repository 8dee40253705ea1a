"""Answer relevance on an evaluation: which spans are read, and where the verdicts go.

An abstention is its own outcome ("I don't know" does not address the question, and is not
off-topic either), so an abstained answer gets no answer relevance at all; abstention and
empty spans never get ``addresses_query``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ragguard.schema import Evaluation

SCORED_KINDS = frozenset({"objective", "subjective"})


class _SpanLike(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...


class _Scored(Protocol):
    @property
    def score(self) -> float: ...
    @property
    def spans(self) -> list[float]: ...


def answer_sentences(spans: Sequence[_SpanLike], readings: Sequence[str] = ()) -> list[str]:
    """The span texts answer relevance reads: none when the answer abstained (abstention
    spans and no objective one); otherwise every objective and subjective span, as read with
    its antecedent where ``readings`` (aligned with ``spans``) gives one."""
    if any(s.kind == "abstention" for s in spans) and not any(s.kind == "objective" for s in spans):
        return []
    texts = list(readings) or [s.text for s in spans]
    read = zip(spans, texts, strict=True)
    return [t for s, t in read if s.kind in SCORED_KINDS and s.text.strip()]


def apply_answer(evaluation: Evaluation, result: _Scored | None, eta: float) -> None:
    """Put a scorer's result on the evaluation: the answer's score and verdict, and each
    read span's ``addresses_query``, in the order ``answer_sentences`` gave them."""
    evaluation.thresholds["answer_relevance"] = eta
    if result is None:
        return
    evaluation.metrics.answer_relevance = round(result.score, 4)
    evaluation.metrics.answer_relevant = result.score >= eta
    scores = iter(result.spans)
    for span in evaluation.spans:
        if span.kind in SCORED_KINDS and span.text.strip():
            span.addresses_query = next(scores) >= eta
