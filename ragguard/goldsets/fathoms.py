"""FATHOMS-RAG's phrase-level correctness and hallucination indicator (Hildebrand et al.).

Correctness is lexical on purpose: a golden set's answer variants name the phrases a correct
answer must contain, so no model judges it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def _normalize(text: str) -> str:
    """Case-insensitive, hyphens read as spaces ("Wi-Fi" matches "wi fi"), as FATHOMS' code."""
    return text.lower().replace("-", " ")


def phrase_recall(prediction: str, answers: Sequence[Sequence[str]]) -> float:
    """Correctness(P) = max over acceptable answers a_i of R(a_i, P), R being the fraction of
    a_i's required phrases found in P (Sec. III-B, Algorithm 1). A variant with no phrases
    scores 0; no variants at all scores 0 (Algorithm 1's initial best)."""
    text = _normalize(prediction)
    best = 0.0
    for phrases in answers:
        if phrases:
            found = sum(_normalize(phrase) in text for phrase in phrases)
            best = max(best, found / len(phrases))
    return best


def is_hallucination(abstained: bool, correctness: float) -> bool:
    """H(p) (Sec. III-C, Algorithm 2): 1 when the answer is a statement, not an abstention,
    and its correctness is below 1. An abstention is never a hallucination."""
    return not abstained and correctness != 1.0


def macro_average(per_category: Mapping[str, Sequence[float]]) -> float | None:
    """Mean of the per-category means (FATHOMS-RAG's overall score and hallucination rate)."""
    means = [sum(values) / len(values) for values in per_category.values() if values]
    return sum(means) / len(means) if means else None
