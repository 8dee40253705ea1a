"""Clauses: one sentence often holds the dates of several events, so a value is read with
the words of its own clause ("founded in 1994, and acquired ... in 2002")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ragguard.runtime import memoized
from ragguard.scoring.checks.dates import MONTH
from ragguard.scoring.checks.numbers import Quantity, quantities
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.quantity_match import comparable, same_quantity
from ragguard.scoring.checks.words import lower_content, words_before
from ragguard.scoring.lexical.vocabulary import STOPWORDS

MIN_PREDICATE = 0.5
"""A clause is about the claim's value when it holds more than this share of the words
that say what the value is of (``clause_rival``)."""
CLAUSE_BREAK = re.compile(r"\s*(?:[;()\[\]]|[:,](?!\s*\d)|\s--?\s|–|—|-[LR]RB-)\s*")
"""Where a clause ends: punctuation and dashes, but not a comma or colon before a digit
("March 30, 2015", "87,894", "8:33")."""


@dataclass(frozen=True, slots=True)
class ClauseValues:
    """What a value check reads of one clause: its lower-case content words
    (``lower_content``) and its quantities (``ragguard.spans.clauses.Clause`` is the other
    kind: a clause an opinion can be set aside by)."""

    content: frozenset[str]
    quantities: tuple[Quantity, ...]


@memoized(entries=16_384)
def clauses(sentence: str, language: str = "en") -> tuple[ClauseValues, ...]:
    """A sentence cut into clauses, each with its words and its quantities."""
    parts = CLAUSE_BREAK.split(sentence)
    return tuple(ClauseValues(lower_content(p), quantities(p, language)) for p in parts if p)


@memoized(entries=1024)
def _clause_texts(text: str) -> tuple[str, ...]:
    """A claim's clauses as written, split once however many values ask."""
    return tuple(CLAUSE_BREAK.split(text))


def predicate_words(claim: Sentence, q: Quantity) -> frozenset[str]:
    """The words that say what ``q`` is of: the lower-case content of the claim's clause
    holding it, or of the whole claim when that clause has none ("In 2002, ...")."""
    clause = next((c for c in _clause_texts(claim.text) if q.text in c), "")
    return _content(clause) or _content(claim.text)


@memoized(entries=1024)
def _content(text: str) -> frozenset[str]:
    """``lower_content`` read once per clause: every value of a claim asks for its clause,
    and a one-clause claim with n numbers would otherwise be read n times (quadratic)."""
    return lower_content(text)


def clause_rival(
    claim: Sentence,
    q: Quantity,
    sentences: tuple[Sentence, ...],
    claimed: Callable[[Quantity], bool] | None = None,
) -> str | None:
    """A value the passage states, but never in a clause with most of the claim's predicate
    words, which sit in a clause beside another value of its kind ("founded in 1994, and
    acquired ... in 2002" against "founded in 2002" gives "1994"). ``claimed``: whether an
    evidence value is one the claim states (worked out once per claim by the caller).

    A number that ends a title ("Flight 77", "Team Fortress 2") is left to the other rules."""
    before = words_before(claim.text, claim.text.find(q.text), 1)
    titled = before and before[0][:1].isupper() and before[0].lower() not in STOPWORDS
    if titled and not MONTH.match(before[0]):
        return None
    predicate = predicate_words(claim, q)
    if not predicate:
        return None
    if claimed is None:
        claimed = stated_in_claim(claim)
    best, rival = MIN_PREDICATE, None
    for sentence in sentences:
        for clause in clauses(sentence.text, sentence.language):
            cover = len(predicate & clause.content) / len(predicate)
            if cover <= MIN_PREDICATE:
                continue
            if any(same_quantity(q, e) for e in clause.quantities):
                return None
            same_kind = [e for e in clause.quantities if comparable(q, e)]
            if any(claimed(e) for e in same_kind):
                continue  # the clause of another value of the claim ("19% and 38%")
            if same_kind and cover > best:
                best, rival = cover, same_kind[0].text
    return rival


def stated_in_claim(claim: Sentence, *, spans: bool = False) -> Callable[[Quantity], bool]:
    """Whether an evidence value is one of the claim's own (``same_quantity`` with any of
    them; ``spans``: or a decade or century that holds one), remembered per value, so a claim
    with n values costs O(n) per distinct evidence value, not per pair of claim values."""
    known: dict[Quantity, bool] = {}

    def claimed(e: Quantity) -> bool:
        found = known.get(e)
        if found is None:
            wide = spans and e.kind in ("decade", "century")
            found = known[e] = any(
                same_quantity(c, e) or (wide and same_quantity(e, c)) for c in claim.quantities
            )
        return found

    return claimed
