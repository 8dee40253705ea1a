"""What the judge is shown of a trace's items: which items, in which order, which part.

Two aims meet here. Each claim must see the item the lite tier found best (and the items it
cites); and the claims of one answer should see the same passages in the same order, so
that a server with a prompt cache (llama.cpp's ``cache_prompt``) evaluates them once and
every later claim of the answer pays only for its own sentence. So the items are chosen per
answer where that keeps every claim's own leading items, else per claim; and an item longer
than ``max_evidence_chars`` is cut to the run of whole sentences that holds most of the
claims' content words, not to its first characters, where the sentence a claim rests on
may not be.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragguard.scoring.lexical import text as tx


@dataclass(frozen=True)
class Candidates:
    """One claim's items with text, best first: ``leading`` of them are its own (the lite
    tier's best evidence and the items it cites), the rest are retrieval-order filler."""

    claim: str
    ordered: tuple[str, ...]
    leading: int
    named: bool
    """The claim names its items ("document 2"): it is shown those and no shared set."""


def window(text: str, claims: Sequence[str], limit: int) -> str:
    """``text`` when it fits ``limit``; else the run of whole sentences within ``limit``
    characters that holds the most distinct content words of ``claims`` (the earliest such
    run), or the first ``limit`` characters where no sentence holds any."""
    if len(text) <= limit:
        return text
    wanted = frozenset().union(*(tx.content_tokens(c) for c in claims))
    bounds = tx.sentence_bounds(text)
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


def chosen_items(
    candidates: Sequence[Candidates], retrieval: Sequence[str], limit: int
) -> list[tuple[str, ...]]:
    """Per claim, the items it is shown (at most ``limit``, in retrieval order). One set
    for the whole answer, made of its claims' leading items and then retrieval order, for
    every claim whose leading items it holds; a claim it does not fit (or that names its
    items) keeps its own best-first set."""
    pool: dict[str, None] = {}
    for found in candidates:
        if not found.named:
            pool.update(dict.fromkeys(found.ordered[: min(found.leading, limit)]))
    with_text = {i for found in candidates for i in found.ordered}
    pool.update(dict.fromkeys(i for i in retrieval if i in with_text))
    shared = list(pool)[:limit]
    position = {item_id: n for n, item_id in enumerate(retrieval)}
    chosen: list[tuple[str, ...]] = []
    for found in candidates:
        own = found.ordered[: min(found.leading, limit)]
        allowed = set(found.ordered)
        if found.named or not set(own) <= set(shared) or not set(shared) <= allowed:
            picked = list(found.ordered[:limit])
        else:
            picked = shared
        chosen.append(tuple(sorted(picked, key=position.__getitem__)))
    return chosen


def shown_passages(
    candidates: Sequence[Candidates],
    retrieval: Sequence[str],
    texts: Mapping[str, str],
    max_items: int,
    max_chars: int,
) -> list[tuple[str, ...]]:
    """Per claim, the passage texts it is shown: ``chosen_items``, each item cut by
    ``window`` to the content words of every claim shown that same set of items."""
    chosen = chosen_items(candidates, retrieval, max_items)
    readers: dict[tuple[str, ...], list[str]] = {}
    for found, items in zip(candidates, chosen, strict=True):
        readers.setdefault(items, []).append(found.claim)
    return [tuple(window(texts[i], readers[items], max_chars) for i in items) for items in chosen]
