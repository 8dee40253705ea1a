"""Answer relevance on an evaluation: which spans are read, and where the verdicts go.

An abstention is its own outcome ("I don't know" does not address the question, and is not
off-topic either), so an abstained answer gets no answer relevance at all; abstention and
empty spans never get ``addresses_query``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

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


@dataclass(frozen=True)
class AnswerVerdict:
    """The answer's relevance score and verdict, and each span's ``addresses_query``."""

    relevance: float | None = None
    relevant: bool | None = None
    addresses: tuple[bool | None, ...] = ()
    """Aligned with the spans; None for a span answer relevance did not read."""


def answer_verdict(spans: Sequence[_SpanLike], result: _Scored | None, eta: float) -> AnswerVerdict:
    """A scorer's result as verdicts: the answer's score and verdict, and each read span's
    ``addresses_query``, in the order ``answer_sentences`` gave them."""
    if result is None:
        return AnswerVerdict(addresses=(None,) * len(spans))
    scores = iter(result.spans)
    addresses = tuple(
        next(scores) >= eta if s.kind in SCORED_KINDS and s.text.strip() else None for s in spans
    )
    return AnswerVerdict(round(result.score, 4), result.score >= eta, addresses)
