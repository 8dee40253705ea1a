"""Re-rank retrieved items by RS before generation, framework-free.

RAG-Check shows that selecting context by the relevance score beats the retriever's cosine
top-k; CRUX adds that the selected context should not repeat itself, hence the optional MMR
term. Scores go through the Guard's relevance scorer, so with the shared (cached) Guard the
evaluator later reads them from the cache instead of recomputing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ragguard.evaluation import Guard
from ragguard.live import shared_guard
from ragguard.schema import Item
from ragguard.scoring.interface import item_evidence


@dataclass(frozen=True)
class Ranked:
    index: int
    """Position of the item in the input."""
    relevance: float | None
    """Its RS; None for an item with no text to score (kept, after the scored ones)."""


class Reranker:
    """Order items by RS, keep those at or above ``min_relevance`` ("calibrated": the
    scorer's own threshold eta), at most ``top_n``; ``diversity`` in [0, 1] trades relevance
    for novelty (MMR: (1 - d) * RS - d * max cosine to the items already chosen)."""

    def __init__(
        self,
        *,
        top_n: int | None = None,
        min_relevance: float | Literal["calibrated"] | None = None,
        diversity: float = 0.0,
        guard: Guard | None = None,
    ) -> None:
        if top_n is not None and top_n < 1:
            raise ValueError(f"top_n: must be at least 1, got {top_n}")
        if not 0.0 <= diversity <= 1.0:
            raise ValueError(f"diversity: must be in [0, 1], got {diversity}")
        self.top_n = top_n
        self.min_relevance = min_relevance
        self.diversity = diversity
        self.guard = guard or shared_guard()

    def rerank(self, query: str, items: Sequence[Item]) -> list[Ranked]:
        scorer = self.guard.models.relevance_scorer
        evidence = {i: e for i, item in enumerate(items) if (e := item_evidence(item)) is not None}
        scores = scorer.relevance([query] * len(evidence), list(evidence.values())).tolist()
        relevance = dict(zip(evidence, scores, strict=True))
        floor = scorer.threshold if self.min_relevance == "calibrated" else self.min_relevance
        kept = [i for i in evidence if floor is None or relevance[i] >= floor]
        if self.diversity and len(kept) > 1:
            order = self._mmr(kept, relevance, [evidence[i].text for i in kept])  # type: ignore[misc]
        else:
            order = sorted(kept, key=lambda i: -relevance[i])
        order += [i for i in range(len(items)) if i not in evidence]
        return [Ranked(i, relevance.get(i)) for i in order[: self.top_n]]

    def _mmr(self, kept: list[int], relevance: dict[int, float], texts: list[str]) -> list[int]:
        vectors = self.guard.models.embedder.encode(texts)
        gain = (1.0 - self.diversity) * np.array([relevance[i] for i in kept])
        redundancy = np.zeros(len(kept))
        chosen: list[int] = []
        for _ in range(min(len(kept), self.top_n or len(kept))):
            value = gain - self.diversity * redundancy
            value[chosen] = -np.inf
            best = int(np.argmax(value))
            chosen.append(best)
            redundancy = np.maximum(redundancy, vectors @ vectors[best])
        return [kept[c] for c in chosen]
