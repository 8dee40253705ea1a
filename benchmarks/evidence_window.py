"""A long item cut around the claim:, the alternative to the head cut that was tried.

The judge is shown the first ``max_evidence_chars`` characters of an item. Cutting instead
to the run of whole sentences that holds most of the claim's words was compared on the
``train-cut`` training pairs (``judge_choice.py``) and ranked no better, so the product
keeps the head; this module keeps the tried cut, so the comparison can be rerun.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragguard.scoring.lexical import text as tx


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the sentences ``tx.evidence_sentences`` finds."""
    bounds, at = [], 0
    for sentence in tx.evidence_sentences(text):
        start = text.find(sentence, at)
        if start < 0:
            break
        at = start + len(sentence)
        bounds.append((start, at))
    return bounds


def window(text: str, claims: Sequence[str], limit: int) -> str:
    """``text`` when it fits ``limit``; else the run of whole sentences within ``limit``
    characters that holds the most distinct content words of ``claims`` (the earliest such
    run), or the first ``limit`` characters where no sentence holds any."""
    if len(text) <= limit:
        return text
    wanted = frozenset().union(*(tx.content_tokens(c) for c in claims))
    bounds = sentence_bounds(text)
    held = [tx.content_tokens(text[a:b]) & wanted for a, b in bounds]
    best = 0
    best_at: tuple[int, int] | None = None
    for i, (start, _) in enumerate(bounds):
        covered: frozenset[str] = frozenset()
        end = start + limit
        for j in range(i, len(bounds)):
            if bounds[j][1] - start > limit:
                break
            covered |= held[j]
            end = bounds[j][1]
        if len(covered) > best:
            best, best_at = len(covered), (start, min(end, start + limit))
    if best_at is None:
        return text[:limit]
    start, end = best_at
    return text[start:end].strip()
