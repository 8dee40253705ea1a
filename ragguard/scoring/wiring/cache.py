"""A relevance scorer that remembers its scores, so RS computed once (by the reranker, on the
request path) is not computed again (by the evaluator, in the background)."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence

import numpy as np

from ragguard.runtime import Cache
from ragguard.scoring.interface.evidence import Evidence
from ragguard.scoring.interface.protocols import RelevanceScorer


def _key(query: str, evidence: Evidence) -> bytes:
    # content, not id: the reranker and the evaluator may name the same passage differently
    digest = hashlib.blake2b(digest_size=16)
    for part in (query, evidence.text, evidence.image, evidence.video):
        digest.update(b"\x00" if part is None else b"\x01" + part.encode("utf-8"))
        digest.update(b"\x1f")
    return digest.digest()


class CachedRelevanceScorer:
    """Wraps any ``RelevanceScorer``; pairs seen before are answered from an LRU cache keyed
    by the content hash of (query, item), the rest go to the wrapped scorer in one call."""

    def __init__(self, scorer: RelevanceScorer, *, size: int = 50_000) -> None:
        self.scorer = scorer
        self.hits = 0
        self.misses = 0
        self._cache: Cache[bytes, float] = Cache(f"{__name__}.{type(self).__name__}", size)
        self._lock = threading.Lock()  # guards the hit/miss counters

    @property
    def threshold(self) -> float:
        return self.scorer.threshold

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        keys = [_key(q, e) for q, e in zip(queries, evidence, strict=True)]
        scores = self._cache.get_many(keys)
        first: dict[bytes, int] = {}  # each missing pair once, at its first position
        for i, key in enumerate(keys):
            if key not in scores:
                first.setdefault(key, i)
        if first:
            positions = list(first.values())
            fresh = self.scorer.relevance(
                [queries[i] for i in positions], [evidence[i] for i in positions]
            )
            computed = dict(zip(first, fresh.tolist(), strict=True))
            self.seed(computed)
            scores.update(computed)
        with self._lock:
            self.hits += len(keys) - len(first)
            self.misses += len(first)
        return np.array([scores[k] for k in keys], dtype=np.float32)

    def known(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> dict[bytes, float]:
        """The cached scores among these pairs, by key (nothing is computed): what a scorer
        in another process can be ``seed``-ed with."""
        return self._cache.get_many([_key(q, e) for q, e in zip(queries, evidence, strict=True)])

    def seed(self, scores: dict[bytes, float]) -> None:
        """Remember these scores (from ``known`` of a scorer elsewhere, or just computed)."""
        self._cache.put_many(scores)
