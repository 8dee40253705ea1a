"""How a long item is cut for the judge: the product's cut and the ones tried.

The product shows an item's head, and a lone item gets the question's whole evidence
budget (``ragguard/judge/passages.py``, ``pooled``). Before, it was cut to its first
``max_evidence_chars`` (``head``). Cutting instead to the run of whole sentences that holds
most of the claim's words (``window``) was tried as well. All three were compared on the
``train-cut`` training pairs (``judge_choice.py``); this module keeps the tried cuts, so the
comparison can be rerun.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragguard.config import JudgeConfig
from ragguard.judge.passages import cut_to_fit
from ragguard.scoring.lexical import text as tx

CUTS = ("pooled", "head", "window")
MAX_CHARS = JudgeConfig().max_evidence_chars
MAX_ITEMS = JudgeConfig().max_evidence_items


def cut(evidence: str, claim: str, how: str) -> str:
    """What the judge is shown of ``evidence`` alone, cut ``how`` (``CUTS``)."""
    if how == "window":
        return window(evidence, [claim], MAX_CHARS)
    if how == "head":
        return evidence[:MAX_CHARS]
    return cut_to_fit([evidence], MAX_ITEMS, MAX_CHARS)[0]


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
