"""The offline lite tier: bundled MiniLM embeddings + lexical checks + small trained heads.

Cosine similarity alone cannot tell "built in 1889" from "built in 1899", so the support head
also sees what cosine misses: numbers, names and negations in the claim that the best-aligned
evidence lacks or contradicts, and how much of the claim's wording the evidence covers. The
typed checks of ``scoring.checks`` then overrule the head: a head whose card lists checks under
``veto`` caps the support of a pair where one of them fires below its eta.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ragguard.language import normalized
from ragguard.schema import CONFLICTS
from ragguard.scoring.checks import check, in_passage_digits, negation_explained
from ragguard.scoring.encoders.embeddings import Encoded, TextEmbedder
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical import text as tx
from ragguard.scoring.lite.heads import Head

SUPPORT_FEATURES = [
    "sim_max",
    "sim_context",
    "sim_top3",
    "token_align_mean",
    "token_align_min",
    "token_align_q25",
    "token_recall",
    "token_recall_best",
    "bigram_recall",
    "number_missing",
    "has_numbers",
    "name_missing",
    "negation_mismatch",
    "log_length",
    "contradiction",
    "uncovered",
]
RELEVANCE_FEATURES = [
    "sim_passage",
    "sim_max",
    "sim_top3",
    "token_align_mean",
    "token_align_q25",
    "query_recall",
    "name_recall",
    "log_length",
]


@dataclass(frozen=True, slots=True)
class _Passage:
    windows: list[str]
    vectors: np.ndarray  # (windows, d) unit vectors
    tokens: np.ndarray  # (all tokens of the passage, d) unit vectors
    vector: np.ndarray  # (d,) unit mean of the sentence vectors: the passage as a whole


MAX_SELECTED = 8
"""Evidence sentences encoded per (claim or query, passage) pair at most: a passage longer
than this is read in the sentences sharing the most content words with the claim or query,
so a long document costs a few sentences, not a pass; a shorter one is read whole."""


def select_sentences(sentences: Sequence[str], probe: frozenset[str]) -> tuple[int, ...]:
    """Indices, in passage order, of the sentences a pair reads: all of a passage of at most
    ``MAX_SELECTED`` sentences; of a longer one, those sharing the most content words with
    ``probe`` (at most ``MAX_SELECTED``; the first sentence when none shares a word).

    Reading only the sentences that share words with the probe in every passage cost the
    relevance head 0.013 held-out balanced accuracy on the source with the longest passages
    (CLAPnq, leave-one-source-out) for no gain on support; short passages, the usual
    retrieved chunk, are therefore read whole."""
    if len(sentences) <= MAX_SELECTED:
        return tuple(range(len(sentences)))
    shared = [len(tx.content_tokens(s) & probe) for s in sentences]
    ranked = sorted((i for i, n in enumerate(shared) if n), key=lambda i: -shared[i])
    return tuple(sorted(ranked[:MAX_SELECTED])) or (0,)


class SentenceIndex:
    """Evidence embedded sentence by sentence, in one batch for many (probe, passage) pairs,
    each pair seeing only the sentences ``select_sentences`` keeps for its probe.

    Windows of two adjacent sentences, and the passage as a whole, are scored with the
    normalized sum of their sentence vectors, which costs no extra encoding (encoding whole
    passages as well took a third of the lite tier's time); the token vectors of the same
    forward pass let a claim be aligned word by word (BERTScore-style recall, ColBERT-style
    MaxSim). Selection is per pair, never per batch, so a trace scores the same alone or
    batched with others.
    """

    def __init__(self, embedder: TextEmbedder, texts: Sequence[str], probes: Sequence[str]) -> None:
        split = {t: tx.evidence_sentences(t) for t in dict.fromkeys(texts)}
        chosen = [
            (text, select_sentences(split[text], tx.content_tokens(probe)))
            for text, probe in zip(texts, probes, strict=True)
        ]
        needed = list(dict.fromkeys(split[t][i] for t, keep in chosen for i in keep))
        encoded = dict(zip(needed, embedder.encode_full(needed), strict=True))
        views: dict[tuple[str, tuple[int, ...]], _Passage] = {}
        for key in chosen:
            if key not in views:
                text, keep = key
                views[key] = _view([split[text][i] for i in keep], keep, encoded)
        self.pairs = [views[key] for key in chosen]

    def align(self, row: int, vector: np.ndarray) -> tuple[np.ndarray, str]:
        """Cosine of ``vector`` with every window of pair ``row``, and the best window."""
        passage = self.pairs[row]
        sims = passage.vectors @ vector
        return sims, passage.windows[int(np.argmax(sims))]

    def token_alignment(self, row: int, encoded: Encoded) -> np.ndarray:
        """For each content token of a claim or query, its best cosine with any token of
        pair ``row``'s sentences (all tokens when it has no content token; empty for an
        empty text)."""
        tokens = encoded.tokens[encoded.content] if encoded.content.any() else encoded.tokens
        passage = self.pairs[row].tokens
        if len(tokens) == 0 or len(passage) == 0:
            return np.zeros(1, dtype=np.float32)
        return (tokens.astype(np.float32) @ passage.T).max(axis=1)


def _view(
    sentences: list[str], positions: tuple[int, ...], encoded: dict[str, Encoded]
) -> _Passage:
    """Windows (sentences, then pairs adjacent in the passage), whole vector and tokens."""
    parts = [encoded[s] for s in sentences]
    vectors = np.stack([p.vector for p in parts])
    whole = vectors.sum(axis=0)
    whole /= np.linalg.norm(whole) + 1e-9
    adjacent = [k for k in range(len(positions) - 1) if positions[k + 1] == positions[k] + 1]
    windows = list(sentences) + [f"{sentences[k]} {sentences[k + 1]}" for k in adjacent]
    if adjacent:
        pairs = vectors[adjacent] + vectors[[k + 1 for k in adjacent]]
        pairs /= np.linalg.norm(pairs, axis=1, keepdims=True) + 1e-9
        vectors = np.vstack([vectors, pairs])
    tokens = np.vstack([p.tokens for p in parts]).astype(np.float32)
    return _Passage(windows, vectors, tokens, whole)


def _lower_quartile(values: np.ndarray) -> float:
    """``np.quantile(values, 0.25)`` (linear interpolation) in 2 us instead of 29 on the few
    dozen values of one pair: it runs for every (claim or query, passage) pair."""
    position = 0.25 * (len(values) - 1)
    below = int(position)
    if below + 1 >= len(values):
        return float(np.partition(values, below)[below])
    low, high = np.partition(values, (below, below + 1))[below : below + 2]
    return float(low + (high - low) * (position - below))


def _top_mean(values: np.ndarray, k: int = 3) -> float:
    if len(values) <= k:
        return float(values.mean())
    return float(np.partition(values, -k)[-k:].mean())


def support_features(
    embedder: TextEmbedder, claims: Sequence[Claim], evidence: Sequence[Evidence]
) -> np.ndarray:
    texts = [e.text or "" for e in evidence]
    scored = [  # as the passage writes its numbers: "1866", not "eighteen sixty-six"
        c if (read := in_passage_digits(c.text, t, c.language)) == c.text else replace(c, text=read)
        for c, t in zip(claims, texts, strict=True)
    ]
    contexts = [tx.decontextualized(c.text, c.context) for c in scored]
    index = SentenceIndex(embedder, texts, contexts)
    claim_codes = embedder.encode_full([c.text for c in scored])
    context_vecs = embedder.encode(contexts)
    rows = np.zeros((len(scored), len(SUPPORT_FEATURES)), dtype=np.float32)
    for i, (claim, passage) in enumerate(zip(scored, texts, strict=True)):
        sims, best = index.align(i, claim_codes[i].vector)
        context_sims, _ = index.align(i, context_vecs[i])
        aligned = index.token_alignment(i, claim_codes[i])
        spoken = claim.language  # a short span reads in its answer's language
        claim_tokens = tx.content_tokens(claim.text, spoken)
        claim_numbers = tx.numbers(claim.text, spoken)
        reasons = check(claims[i].text, passage, spoken)  # as written: check() rewrites it
        rows[i] = (
            float(sims.max()),
            float(context_sims.max()),
            _top_mean(sims),
            float(aligned.mean()),
            float(aligned.min()),
            _lower_quartile(aligned),
            tx.recall(claim_tokens, tx.content_tokens(passage)),
            tx.recall(claim_tokens, tx.content_tokens(best)),
            tx.recall(tx.bigrams(claim.text, spoken), tx.bigrams(passage)),
            1.0 - tx.recall(claim_numbers, tx.numbers(passage)),
            float(bool(claim_numbers)),
            1.0
            - tx.recall(
                tx.capitalized_words(claim.text),
                tx.content_tokens(passage) | tx.capitalized_words(passage),
            ),
            float(
                tx.is_negated(claim.text, spoken) != tx.is_negated(best)
                and not negation_explained(claims[i].text, passage, spoken)
            ),
            np.log1p(len(claim_tokens)),
            *check_features(reasons),
        )
    return rows


CHECK_FEATURES = ("contradiction", "uncovered")
"""The support features that come from the typed checks alone (no model)."""


def check_features(reasons: Sequence[Reason]) -> tuple[float, float]:
    """``contradiction`` (a typed check found a conflicting value or a ranking no passage
    states: ``CONFLICTS``) and ``uncovered``."""
    return (
        float(any(r.check in CONFLICTS for r in reasons)),
        float(any(r.check == "uncovered" for r in reasons)),
    )


def relevance_features(
    embedder: TextEmbedder, queries: Sequence[str], evidence: Sequence[Evidence]
) -> np.ndarray:
    texts = [e.text or "" for e in evidence]
    queries = [normalized(q) for q in queries]  # as claims and evidence are (``Claim``)
    index = SentenceIndex(embedder, texts, queries)
    query_codes = embedder.encode_full(list(queries))
    rows = np.zeros((len(queries), len(RELEVANCE_FEATURES)), dtype=np.float32)
    for i, (query, passage) in enumerate(zip(queries, texts, strict=True)):
        sims, _ = index.align(i, query_codes[i].vector)
        aligned = index.token_alignment(i, query_codes[i])
        passage_tokens = tx.content_tokens(passage)
        rows[i] = (
            float(index.pairs[i].vector @ query_codes[i].vector),
            float(sims.max()),
            _top_mean(sims),
            float(aligned.mean()),
            _lower_quartile(aligned),
            tx.recall(tx.content_tokens(query), passage_tokens),
            tx.recall(tx.capitalized_words(query), passage_tokens | tx.capitalized_words(passage)),
            np.log1p(len(passage_tokens)),
        )
    return rows


class HeadScorer:
    """A head over the columns it was trained on (a subset of the computed features)."""

    def __init__(self, embedder: TextEmbedder, head: Head, available: list[str]) -> None:
        unknown = set(head.features) - set(available)
        if unknown:
            raise ValueError(f"head {head.name!r} needs features this scorer lacks: {unknown}")
        self.embedder = embedder
        self.head = head
        self.threshold = head.threshold
        self.columns = [available.index(f) for f in head.features]


VETO_SCALE = 0.5
"""A vetoed pair scores at most this share of eta: clearly unsupported, still ordered."""


class LiteSupportScorer(HeadScorer):
    """CS from sentence- and token-level alignment plus lexical mismatch checks, by a head,
    with the typed checks the head's card lists under ``veto`` overruling it."""

    def __init__(self, embedder: TextEmbedder, head: Head | None = None) -> None:
        super().__init__(embedder, head or Head.bundled("support_lite"), SUPPORT_FEATURES)
        self.veto = frozenset(self.head.card.get("veto", ()))

    def support(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> np.ndarray:
        return self.support_with_reasons(claims, evidence)[0]

    def support_with_reasons(
        self, claims: Sequence[Claim], evidence: Sequence[Evidence]
    ) -> tuple[np.ndarray, list[tuple[Reason, ...]]]:
        if not claims:
            return np.zeros(0, dtype=np.float32), []
        features = support_features(self.embedder, claims, evidence)
        scores = self.head.predict(features[:, self.columns])
        reasons = [
            check(c.text, e.text or "", c.language) for c, e in zip(claims, evidence, strict=True)
        ]
        return vetoed(scores, reasons, self.veto, self.threshold), reasons


def vetoed(
    scores: np.ndarray, reasons: Sequence[tuple[Reason, ...]], veto: frozenset[str], eta: float
) -> np.ndarray:
    """Scores with every pair where a ``veto`` check fired capped at ``VETO_SCALE * eta``."""
    fired = np.array([any(r.check in veto for r in rs) for rs in reasons], dtype=bool)
    capped = np.minimum(scores, eta) * VETO_SCALE
    return np.where(fired, capped, scores).astype(np.float32)


class LiteRelevanceScorer(HeadScorer):
    """RS from query-passage cosine and query-token MaxSim (and what else the head uses)."""

    def __init__(self, embedder: TextEmbedder, head: Head | None = None) -> None:
        super().__init__(embedder, head or Head.bundled("relevance_lite"), RELEVANCE_FEATURES)

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        if not queries:
            return np.zeros(0, dtype=np.float32)
        features = relevance_features(self.embedder, queries, evidence)
        return self.head.predict(features[:, self.columns])
