"""The small Protocols every scoring backend implements.

Scorers take *aligned* pairs (``claims[i]`` with ``evidence[i]``) so the evaluator can put all
pairs of many traces into one call. Scores are calibrated to [0, 1]; ``threshold`` is
RAG-Check's eta, the score at which a pair counts as relevant / supported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from ragguard.schema import CheckKind
from ragguard.scoring.interface.evidence import Claim, Evidence

if TYPE_CHECKING:
    from ragguard.media import Frame


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a claim is not supported by one item: what the claim says (``claim``) and what
    the item says instead (``evidence``; empty when it says nothing about it)."""

    check: CheckKind
    claim: str
    evidence: str


@runtime_checkable
class RelevanceScorer(Protocol):
    @property
    def threshold(self) -> float:
        """RAG-Check's eta for RS."""
        ...

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        """RS in [0, 1] for each aligned (query, item) pair."""
        ...


@runtime_checkable
class SupportScorer(Protocol):
    threshold: float

    def support(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> np.ndarray:
        """CS in [0, 1] for each aligned (claim, item) pair: is the claim supported by it?"""
        ...


@runtime_checkable
class ExplainingSupportScorer(SupportScorer, Protocol):
    """A support scorer that also says why: the evaluator shows the reasons of unsupported
    spans. Scorers without reasons (e.g. ``nli``) implement ``SupportScorer`` alone."""

    def support_with_reasons(
        self, claims: Sequence[Claim], evidence: Sequence[Evidence]
    ) -> tuple[np.ndarray, list[tuple[Reason, ...]]]:
        """CS as ``support`` returns it, and the reasons found for each pair."""
        ...


@runtime_checkable
class VisualScorer(Protocol):
    """RS and CS against pixels. The evaluator sends one frame per pair and keeps the best frame
    of a video; ``support`` also takes several images at once (RAG-Check's multi-image CS)."""

    threshold: float

    def relevance(self, queries: Sequence[str], frames: Sequence[Frame]) -> np.ndarray:
        """RS in [0, 1] for each aligned (query, image) pair."""
        ...

    def support(self, claims: Sequence[Claim], images: Sequence[Sequence[Frame]]) -> np.ndarray:
        """CS in [0, 1] for each claim against its group of images, judged together."""
        ...
