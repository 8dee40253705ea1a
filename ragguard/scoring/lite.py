"""The offline lite tier: bundled MiniLM embeddings + lexical checks + small trained heads.

Cosine similarity alone cannot tell "built in 1889" from "built in 1899", so the support head
also sees what cosine misses: numbers, names and negations in the claim that the best-aligned
evidence lacks or contradicts, and how much of the claim's wording the evidence covers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from ragguard.scoring import text as tx
from ragguard.scoring.embeddings import TextEmbedder
from ragguard.scoring.heads import Head
from ragguard.scoring.protocols import Claim, Evidence

SUPPORT_FEATURES = [
    "sim_max",
    "sim_context",
    "sim_top3",
    "token_recall",
    "token_recall_best",
    "bigram_recall",
    "number_missing",
    "has_numbers",
    "name_missing",
    "negation_mismatch",
    "log_length",
]
RELEVANCE_FEATURES = [
    "sim_passage",
    "sim_max",
    "sim_top3",
    "query_recall",
    "name_recall",
    "log_length",
]


class SentenceIndex:
    """Embeds evidence sentence by sentence; windows of two adjacent sentences are scored
    with the normalized sum of their sentence vectors, which costs no extra encoding."""

    def __init__(self, embedder: TextEmbedder, texts: Sequence[str]) -> None:
        self.windows: dict[str, tuple[list[str], np.ndarray]] = {}
        unique = list(dict.fromkeys(texts))
        split = [tx.evidence_sentences(t) for t in unique]
        flat = [s for sentences in split for s in sentences]
        vectors = embedder.encode(flat) if flat else np.zeros((0, 1), np.float32)
        offset = 0
        for text, sentences in zip(unique, split, strict=True):
            sent_vecs = vectors[offset : offset + len(sentences)]
            offset += len(sentences)
            labels = list(sentences)
            mats = [sent_vecs]
            if len(sentences) > 1:
                pair = sent_vecs[:-1] + sent_vecs[1:]
                pair /= np.linalg.norm(pair, axis=1, keepdims=True) + 1e-9
                mats.append(pair)
                labels += [f"{a} {b}" for a, b in itertools.pairwise(sentences)]
            self.windows[text] = (labels, np.vstack(mats))

    def align(self, text: str, vector: np.ndarray) -> tuple[np.ndarray, str]:
        """Cosine of ``vector`` with every window of ``text``, and the best window."""
        labels, matrix = self.windows[text]
        sims = matrix @ vector
        return sims, labels[int(np.argmax(sims))]


def _top_mean(values: np.ndarray, k: int = 3) -> float:
    if len(values) <= k:
        return float(values.mean())
    return float(np.partition(values, -k)[-k:].mean())


def support_features(
    embedder: TextEmbedder, claims: Sequence[Claim], evidence: Sequence[Evidence]
) -> np.ndarray:
    texts = [e.text or "" for e in evidence]
    index = SentenceIndex(embedder, texts)
    with_context = [tx.decontextualized(c.text, c.context) for c in claims]
    claim_vecs = embedder.encode([c.text for c in claims])
    context_vecs = embedder.encode(with_context)
    rows = np.zeros((len(claims), len(SUPPORT_FEATURES)), dtype=np.float32)
    for i, (claim, passage) in enumerate(zip(claims, texts, strict=True)):
        sims, best = index.align(passage, claim_vecs[i])
        context_sims, _ = index.align(passage, context_vecs[i])
        claim_tokens = tx.content_tokens(claim.text)
        claim_numbers = tx.numbers(claim.text)
        rows[i] = (
            float(sims.max()),
            float(context_sims.max()),
            _top_mean(sims),
            tx.recall(claim_tokens, tx.content_tokens(passage)),
            tx.recall(claim_tokens, tx.content_tokens(best)),
            tx.recall(tx.bigrams(claim.text), tx.bigrams(passage)),
            1.0 - tx.recall(claim_numbers, tx.numbers(passage)),
            float(bool(claim_numbers)),
            1.0 - tx.recall(tx.names(claim.text), tx.content_tokens(passage) | tx.names(passage)),
            float(tx.is_negated(claim.text) != tx.is_negated(best)),
            np.log1p(len(claim_tokens)),
        )
    return rows


def relevance_features(
    embedder: TextEmbedder, queries: Sequence[str], evidence: Sequence[Evidence]
) -> np.ndarray:
    texts = [e.text or "" for e in evidence]
    index = SentenceIndex(embedder, texts)
    query_vecs = embedder.encode(list(queries))
    passage_vecs = embedder.encode(texts)
    rows = np.zeros((len(queries), len(RELEVANCE_FEATURES)), dtype=np.float32)
    for i, (query, passage) in enumerate(zip(queries, texts, strict=True)):
        sims, _ = index.align(passage, query_vecs[i])
        passage_tokens = tx.content_tokens(passage)
        rows[i] = (
            float(passage_vecs[i] @ query_vecs[i]),
            float(sims.max()),
            _top_mean(sims),
            tx.recall(tx.content_tokens(query), passage_tokens),
            tx.recall(tx.names(query), passage_tokens | tx.names(passage)),
            np.log1p(len(passage_tokens)),
        )
    return rows


class LiteSupportScorer:
    """CS from sentence-level alignment plus lexical mismatch features, combined by a head."""

    def __init__(self, embedder: TextEmbedder, head: Head | None = None) -> None:
        self.embedder = embedder
        self.head = head or Head.bundled("support_lite")
        self.threshold = self.head.threshold

    def support(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> np.ndarray:
        if not claims:
            return np.zeros(0, dtype=np.float32)
        return self.head.predict(support_features(self.embedder, claims, evidence))


class LiteRelevanceScorer:
    """RS from query-passage and query-sentence cosine plus query-term coverage."""

    def __init__(self, embedder: TextEmbedder, head: Head | None = None) -> None:
        self.embedder = embedder
        self.head = head or Head.bundled("relevance_lite")
        self.threshold = self.head.threshold

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        if not queries:
            return np.zeros(0, dtype=np.float32)
        return self.head.predict(relevance_features(self.embedder, queries, evidence))
