"""Names where no capital marks them (Devanagari): a run of the claim's words that the passage
never mentions, before a word that gives its role (Hindi "में", in; "ने", the doer), against
the words of the on-topic sentence before the same word ("केलन पुल मैड्रिड में" against
"केलन पुल वालेंसिया में")."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ragguard.language import lexicon, lexicon_or_fallback
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in, stopwords_of

SENTENCE_ANCHOR = 0.75
"""Share of the claim's other content words the on-topic sentence must hold: it says the same
of another name."""

Run = tuple[int, int]
"""A run of words, ``words[start:end]``."""


@cache
def _cue_words(language: str) -> frozenset[str]:
    """The words of the language's opinion and hedge cues ("मेरी राय में"): they add no name."""
    classes = lexicon_or_fallback(language).subjective
    return frozenset(w for phrases in classes.values() for p in phrases for w in p.split())


def _runs(words: tuple[str, ...], new: frozenset[str], skip: frozenset[str]) -> list[Run]:
    """The runs of words in ``new`` (a stop word or any other word ends one)."""
    runs: list[Run] = []
    start = None
    for index, word in enumerate((*words, "")):
        if word and word in new and word not in skip:
            start = index if start is None else start
            continue
        if start is not None:
            runs.append((start, index))
        start = None
    return runs


def _next_content(words: tuple[str, ...], start: int, skip: frozenset[str]) -> str:
    """The first word from ``start`` that is no function word, or empty."""
    return next((w for w in words[start:] if w not in skip), "")


def marked_name_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The claim's one run of words the passage never mentions, ending before one of the
    language's ``[names] postpositions``, and the run of words the claim does not hold
    before a postposition of the same role in the sentence holding at least
    ``SENTENCE_ANCHOR`` of the claim's other content words (the one whose word before it
    matches too, if any); or ending before a noun that the sentence writes after one other
    such run (the kind of thing named: "हार्लो पुल" against "केलन पुल"). A number is the
    number checks' to read."""
    found = lexicon(claim.language)
    if found is None or not found.postpositions or not sentences:
        return []
    language, words = claim.language, claim.words
    skip = stopwords_of(language) | _cue_words(language)
    known = frozenset().union(*(s.content for s in sentences))
    unknown = frozenset(
        w for w in words if stem_in(language, w) not in known and not any(c.isdigit() for c in w)
    )
    runs = _runs(words, unknown, skip)
    if len(runs) != 1:
        return []
    start, end = runs[0]
    if end >= len(words):
        return []
    value, role = words[start:end], found.postpositions.get(words[end])
    context = claim.content - {stem_in(language, w) for w in (*value, *skip)}
    if not context:
        return []
    best = max(sentences, key=lambda s: len(context & s.content))
    if len(context & best.content) / len(context) < SENTENCE_ANCHOR:
        return []
    theirs = frozenset(w for w in best.words if w not in claim.word_set)
    runs_there = [
        (a, b)
        for a, b in _runs(best.words, theirs, skip)
        if b < len(best.words) and not any(c.isdigit() for w in best.words[a:b] for c in w)
    ]
    if role is None:  # a noun gives the kind ("हार्लो पुल" against "केलन पुल")
        noun, marks = words[end], found.postpositions
        kind = [
            (a, b)
            for a, b in runs_there
            if best.words[b] == noun and _opens_a_phrase(best.words, a, noun, marks)
        ]
        if len(kind) != 1 or noun in skip or not _opens_a_phrase(words, start, noun, marks):
            return []
        a, b = kind[0]
        return [Reason("entity", " ".join(value), " ".join(best.words[a:b]))]
    placed = [(a, b) for a, b in runs_there if best.words[b] in found.postpositions]
    marked = [(a, b) for a, b in placed if found.postpositions[best.words[b]] == role]
    if not marked:  # another role, the same word after it ("मैड्रिड की विलो" for "मैड्रिड में विलो")
        after = _next_content(words, end + 1, skip)
        marked = [r for r in placed if after and _next_content(best.words, r[1] + 1, skip) == after]
        if len(marked) != 1:
            return []
    before = words[start - 1] if start else ""
    a, b = next((r for r in marked if r[0] and best.words[r[0] - 1] == before), marked[0])
    return [Reason("entity", " ".join(value), " ".join(best.words[a:b]))]


def _opens_a_phrase(
    words: tuple[str, ...], start: int, noun: str, postpositions: Mapping[str, int]
) -> bool:
    """Whether the run at ``start`` opens its phrase, as a name does: first in the sentence,
    or after a postposition or after its kind's noun ("पुल हार्लो पुल"); not after a word
    that describes ("सबसे पुराना पुल", "एक पुराना पुल")."""
    return start == 0 or words[start - 1] in postpositions or words[start - 1] == noun
