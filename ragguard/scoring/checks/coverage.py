"""Uncovered content: words of the claim the passage never mentions, an added fact."""

from __future__ import annotations

import re
from functools import cache

from ragguard.language import MARKS, lexicon_or_fallback, phrase_pattern, read_as
from ragguard.scoring.checks.parse import MIN_SHARED, Sentence, parse, passage_vocabulary
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in, stopwords_of
from ragguard.spans import HEDGE_CLASSES

MIN_UNCOVERED = 3
"""Content words in a row that the evidence never mentions: an added fact, not a paraphrase."""


def uncovered(claim: str, passage: str) -> str | None:
    """The longest run of at least ``MIN_UNCOVERED`` claim content words that the passage
    never mentions, when the passage covers 3/4 of the rest (a fact added to a true one):
    "The tower was painted bright red by volunteers" against a passage about the tower
    that says nothing of paint gives "painted bright red"."""
    return uncovered_run(parse(claim), passage_vocabulary(passage))


@cache
def _hedges(language: str) -> re.Pattern[str]:
    """The hedge-class cues of a language ("probably", "some sources say"), as one pattern."""
    classes = lexicon_or_fallback(read_as(language)).subjective
    return phrase_pattern([c for name in HEDGE_CLASSES for c in classes.get(name, ())])


def hedge_words(text: str, language: str = "en") -> frozenset[str]:
    """The words of the hedge cues in ``text``: a hedge qualifies a claim and adds no fact,
    so it is never uncovered content ("probably built 1925")."""
    return frozenset(w.lower() for m in _hedges(language).finditer(text) for w in m.group().split())


def uncovered_run(
    parsed: Sentence, known: frozenset[str], stated: frozenset[str] = frozenset()
) -> str | None:
    """``uncovered`` for a parsed claim and the stemmed content words of its passage; stop
    words, hedge words and ``stated`` words (a number in words the passage writes in
    digits) break no run and count as neither covered nor uncovered."""
    best: list[str] = []
    run: list[str] = []
    stop, language = stopwords_of(parsed.language), parsed.language
    hedged = hedge_words(parsed.text, language) | stated
    for word in (*parsed.words, ""):
        if word and (word in stop or word in hedged):
            continue
        if word and stem_in(language, word) not in known:
            run.append(word)
            continue
        if len(run) > len(best):
            best = run
        run = []
    rest = parsed.content - {stem_in(language, w) for w in (*best, *hedged)}
    covered = len(rest & known) / len(rest) if len(rest) >= MIN_SHARED else 0.0
    if len(best) >= MIN_UNCOVERED and covered >= 0.75:
        return " ".join(best)
    return None


def uncovered_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """``uncovered`` as a finding, for the whole claim against the parsed passage."""
    known = frozenset().union(*(s.content for s in sentences))
    added = uncovered_run(claim, known, _numbers_in_words(claim, sentences))
    return [] if added is None else [Reason("uncovered", added, "")]


_PIECES = re.compile(rf"[\w{MARKS}]+(?:-[\w{MARKS}]+)*")


def _numbers_in_words(claim: Sentence, sentences: tuple[Sentence, ...]) -> frozenset[str]:
    """The words of the claim's numbers in words ("nineteen sixty-one") whose value a
    passage sentence states: the passage covers them, in digits."""
    values = {q.value for s in sentences for q in s.quantities}
    words: set[str] = set()
    for q in claim.quantities:
        if q.value in values and not q.text[:1].isdigit():
            for piece in _PIECES.findall(q.text.lower()):
                words |= {piece, *piece.split("-")}
    return frozenset(words)
