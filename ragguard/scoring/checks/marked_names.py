"""Names where no capital marks them (Devanagari): a run of the claim's words that the passage
never mentions, before a word that gives its role (Hindi "में", in; "ने", the doer), against
the words of the on-topic sentence before the same word ("केलन पुल मैड्रिड में" against
"केलन पुल वालेंसिया में")."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ragguard.language import Lexicon, lexicon, lexicon_or_fallback
from ragguard.scoring.checks.parse import MIN_SHARED, Sentence
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
    such run (the kind of thing named: "हार्लो पुल" against "केलन पुल"), opening its phrase
    or after the word the sentence writes before its run ("पानी एजियन सागर में" against "पानी
    टायरहेनियन सागर में"). Short of those, a
    full name put for the passage's one full name (``_full_name_findings``). A number is
    the number checks' to read."""
    found = lexicon(claim.language)
    if found is None or not found.postpositions or not sentences:
        return []
    language, words = claim.language, claim.words
    phrases = found.place_postpositions | found.destination_verbs
    postposed = frozenset(w for p in phrases for w in p.split())
    skip = stopwords_of(language) | _cue_words(language) | postposed
    known = frozenset().union(*(s.content for s in sentences))
    unknown = frozenset(
        w for w in words if stem_in(language, w) not in known and not any(map(str.isdigit, w))
    )
    runs = _runs(words, unknown, skip) or _runs_named_elsewhere(claim, sentences, skip)
    marked = _marked_findings(claim, sentences, runs[0], found, skip) if len(runs) == 1 else []
    return marked or _full_name_findings(claim, sentences, runs, found, skip)


def _runs_named_elsewhere(
    claim: Sentence, sentences: tuple[Sentence, ...], skip: frozenset[str]
) -> list[Run]:
    """The claim's runs of words the sentence holding most of its words does not write, where
    the passage names them only in sentences that share fewer than ``MIN_SHARED`` of the
    claim's words and do not come right before it: another person of the passage put in the
    slot of the one the sentence names ("लुकास वेबर ने ... स्थापना की" against
    "अन्ना ब्रांट ने ... स्थापना की। उनके साथी लुकास वेबर ..."). A sentence that writes another
    name in the slot of the claim's (``_fills_another_slot``) says its words of another
    thing: it joins nothing, before the best sentence or anywhere."""
    language = claim.language
    best = max(sentences, key=lambda s: len(claim.content & s.content))
    here = frozenset(
        w
        for w in claim.words
        if stem_in(language, w) not in best.content and not any(map(str.isdigit, w))
    )
    runs = _runs(claim.words, here, skip)
    at = sentences.index(best)
    for start, end in runs:
        named = frozenset(claim.words[start:end])
        holders = [s for s in sentences if s is not best and named <= s.word_set]
        before = sentences[at - 1] if at else None
        if (
            before is not None
            and named <= before.word_set
            and not _fills_another_slot(claim, before, skip)
        ):
            return []  # the sentence before may be what the best one's pronoun stands for
        joining = [
            s
            for s in holders
            if len(claim.content & s.content) >= MIN_SHARED + len(named)
            and not _fills_another_slot(claim, s, skip)
        ]
        if not holders or joining:
            return []
    return runs


def _fills_another_slot(claim: Sentence, sentence: Sentence, skip: frozenset[str]) -> bool:
    """Whether the sentence writes a run of words the claim does not hold right before the
    word that follows a run of the claim's it does not hold: another name in the claim's
    name's slot ("अन्ना ब्रांट ने रोवन पुल ..." against "लुकास वेबर ने केलन पुल ..."), so it
    says the claim's words of another and gives its name nothing to join."""
    mine = frozenset(w for w in claim.words if w not in sentence.word_set)
    after_mine = {claim.words[b] for a, b in _runs(claim.words, mine, skip) if b < len(claim.words)}
    return any(sentence.words[b] in after_mine for _, b in _runs_of_others(sentence, claim, skip))


DESTINATION = -1
"""The role of a name before one of ``destination_verbs`` ("बर्गन चली गईं"): where one went."""


def _role(words: tuple[str, ...], at: int, found: Lexicon) -> int | None:
    """The role of the postposition at ``at``: its entry's, or the first entry's (a place)
    for one of ``place_postpositions`` ("के पास", near), or ``DESTINATION`` before one of
    ``destination_verbs``; past a word of ``place_nouns`` ("शहर में"); None for another
    word."""
    if at >= len(words):
        return None
    pair = " ".join(words[at : at + 2])
    if pair in found.place_postpositions:
        return 0
    if pair in found.destination_verbs:
        return DESTINATION
    if words[at] in found.place_nouns:  # "ओस्लो शहर में": the postposition's role
        return _role(words, at + 1, found)
    return found.postpositions.get(words[at])


def _marked_findings(
    claim: Sentence, sentences: tuple[Sentence, ...], run: Run, found: Lexicon, skip: frozenset[str]
) -> list[Reason]:
    """``marked_name_findings`` for the claim's one run of new words."""
    language, words = claim.language, claim.words
    start, end = run
    if end >= len(words):
        return []
    value, role = words[start:end], _role(words, end, found)
    context = claim.content - {stem_in(language, w) for w in (*value, *skip)}
    if not context:
        return []
    best = max(sentences, key=lambda s: len(context & s.content))
    if len(context & best.content) / len(context) < SENTENCE_ANCHOR:
        return []
    runs_there = _runs_of_others(best, claim, skip)
    if role is None:  # a noun gives the kind ("हार्लो पुल" against "केलन पुल")
        noun, marks = words[end], found.postpositions
        before = words[start - 1] if start else ""
        kind = [
            (a, b)
            for a, b in runs_there
            if best.words[b] == noun
            and (
                _opens_a_phrase(best.words, a, noun, marks)
                or (a and before and best.words[a - 1] == before)
            )
        ]
        opens = _opens_a_phrase(words, start, noun, marks)
        same_slot = bool(kind) and kind[0][0] > 0 and best.words[kind[0][0] - 1] == before
        if len(kind) != 1 or noun in skip or not (opens or same_slot):
            return []
        a, b = kind[0]
        return [Reason("entity", " ".join(value), " ".join(best.words[a:b]))]
    placed = [(a, b) for a, b in runs_there if _role(best.words, b, found) is not None]
    marked = [(a, b) for a, b in placed if _role(best.words, b, found) == role]
    if not marked:  # another role, the same word after it ("मैड्रिड की विलो" for "मैड्रिड में विलो")
        after = _next_content(words, end + 1, skip)
        marked = [r for r in placed if after and _next_content(best.words, r[1] + 1, skip) == after]
        if len(marked) != 1:
            return []
    before = words[start - 1] if start else ""
    as_long = [r for r in marked if r[1] - r[0] == end - start] or marked
    a, b = next((r for r in marked if r[0] and best.words[r[0] - 1] == before), as_long[0])
    return [Reason("entity", " ".join(value), " ".join(best.words[a:b]))]


def _runs_of_others(sentence: Sentence, claim: Sentence, skip: frozenset[str]) -> list[Run]:
    """The sentence's runs of words the claim does not hold, with no number, before a word."""
    theirs = frozenset(w for w in sentence.words if w not in claim.word_set)
    return [
        (a, b)
        for a, b in _runs(sentence.words, theirs, skip)
        if b < len(sentence.words) and not any(c.isdigit() for w in sentence.words[a:b] for c in w)
    ]


def _full_name_findings(
    claim: Sentence,
    sentences: tuple[Sentence, ...],
    runs: list[Run],
    found: Lexicon,
    skip: frozenset[str],
) -> list[Reason]:
    """The claim's one run of two new words or more (a full name: "डेविड ओकोये की कंपनी",
    "डेविड ओकोये द्वारा शुरू की गई"), or of one owning a thing the passage names
    (``_owns_a_named_thing``), against the passage's one run of two words or more
    before a postposition that the claim does not hold, when the claim shares
    ``MIN_SHARED`` other words with the passage: one person put for another."""
    owners = found.possessive_postpositions
    full = [
        (a, b) for a, b in runs if b - a > 1 or _owns_a_named_thing(claim, b, owners, sentences)
    ]
    if len(full) != 1:
        return []
    start, end = full[0]
    value = claim.words[start:end]
    context = claim.content - {stem_in(claim.language, w) for w in (*value, *skip)}
    if len(context & frozenset().union(*(s.content for s in sentences))) < MIN_SHARED:
        return []
    theirs = {
        " ".join(s.words[a:b])
        for s in sentences
        for a, b in _runs_of_others(s, claim, skip)
        if b - a > 1 and _role(s.words, b, found) is not None
    }
    return [Reason("entity", " ".join(value), theirs.pop())] if len(theirs) == 1 else []


def _owns_a_named_thing(
    claim: Sentence, end: int, owners: frozenset[str], sentences: tuple[Sentence, ...]
) -> bool:
    """Whether the run ending at ``end`` owns a thing the passage names: one of ``owners``
    after it, then a word the passage writes ("तावरिन का केलन पुल")."""
    words = claim.words
    return (
        end + 1 < len(words)
        and words[end] in owners
        and any(words[end + 1] in s.word_set for s in sentences)
    )


def _opens_a_phrase(
    words: tuple[str, ...], start: int, noun: str, postpositions: Mapping[str, int]
) -> bool:
    """Whether the run at ``start`` opens its phrase, as a name does: first in the sentence,
    or after a postposition or after its kind's noun ("पुल हार्लो पुल"); not after a word
    that describes ("सबसे पुराना पुल", "एक पुराना पुल")."""
    return start == 0 or words[start - 1] in postpositions or words[start - 1] == noun
