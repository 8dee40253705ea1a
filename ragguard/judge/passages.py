"""Which of a trace's items the judge is shown about each claim, and in which order.

Two aims meet here. Each claim must see the item the lite tier found best (and the items it
cites); and the claims of one answer should see the same passages in the same order, so
that a server with a prompt cache (llama.cpp's ``cache_prompt``) evaluates them once and
every later claim of the answer pays only for its own sentence. So the items are chosen per
answer where that keeps every claim's own leading items, else per claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Candidates:
    """One claim's items with text, best first: ``leading`` of them are its own (the lite
    tier's best evidence and the items it cites), the rest are retrieval-order filler."""

    ordered: tuple[str, ...]
    leading: int
    named: bool
    """The claim names its items ("document 2"): it is shown those and no shared set."""

    def own(self, limit: int) -> tuple[str, ...]:
        """The leading items that fit ``limit``: those the claim must be shown."""
        return self.ordered[: min(self.leading, limit)]


def chosen_items(
    candidates: Sequence[Candidates], retrieval: Sequence[str], limit: int
) -> list[tuple[str, ...]]:
    """Per claim, the items it is shown (at most ``limit``, in retrieval order). One set
    for the whole answer, made of its claims' leading items and then retrieval order, for
    every claim whose leading items it holds; a claim it does not fit (or that names its
    items) keeps its own best-first set."""
    pool = dict.fromkeys(i for found in candidates if not found.named for i in found.own(limit))
    with_text = {i for found in candidates for i in found.ordered}
    pool.update(dict.fromkeys(i for i in retrieval if i in with_text))
    shared = set(list(pool)[:limit])
    position = {item_id: n for n, item_id in enumerate(retrieval)}
    chosen: list[tuple[str, ...]] = []
    for found in candidates:
        fits = not found.named and set(found.own(limit)) <= shared <= set(found.ordered)
        picked = shared if fits else found.ordered[:limit]
        chosen.append(tuple(sorted(picked, key=position.__getitem__)))
    return chosen


def cut_to_fit(texts: Sequence[str], max_items: int, max_chars: int) -> tuple[str, ...]:
    """The heads of ``texts`` (``max_items`` of them at most, as chosen), holding at most
    ``max_items * max_chars`` characters together: each gets an even share, and one shorter
    than its share leaves the rest to the longer ones. So a question costs no more than
    ``max_items`` full items, while a single long item is shown past ``max_chars`` (on long
    training evidence the judge ranked better with the whole item than with its first
    ``max_chars``, docs/judge.md)."""
    left = max_items * max_chars
    cut = list(texts)
    by_length = sorted(range(len(cut)), key=lambda i: len(cut[i]))
    for done, i in enumerate(by_length):
        cut[i] = cut[i][: left // (len(cut) - done)]
        left -= len(cut[i])
    return tuple(cut)


def shown_passages(
    candidates: Sequence[Candidates],
    retrieval: Sequence[str],
    texts: Mapping[str, str],
    max_items: int,
    max_chars: int,
) -> list[tuple[str, ...]]:
    """Per claim, the passage texts it is shown: ``chosen_items``, cut by ``cut_to_fit`` (the
    heads: a window around the claims' words was tried and ranked no better, docs/judge.md)."""
    chosen = chosen_items(candidates, retrieval, max_items)
    return [cut_to_fit([texts[i] for i in items], max_items, max_chars) for items in chosen]
