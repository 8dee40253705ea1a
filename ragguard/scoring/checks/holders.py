"""Who holds a ranking: a passage sentence that states the claim's ranking of another named
thing ("The Orlen Bridge is the longest bridge in Riga") contradicts a claim that gives it
to a thing the passage names elsewhere ("The Kellan Bridge is the longest bridge in Riga"
against "... The Kellan Bridge crosses the river there").

A thing is told from another by its *label*: a word beside a noun the ranking ranks
("Orlen" of "the Orlen Bridge", "le pont Orlen", "die Orlen-Brücke", "ओर्लेन पुल"), in a
language with capitals a word of one of the sentence's names; or a name that opens or
closes the sentence ("The Thornfield Viaduct is the longest bridge"). Which words stand
where, not a parse, so one rule reads every language's word order.
"""

from __future__ import annotations

from ragguard.language import lexicon_or_fallback
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.rankings import cues_of, is_cue
from ragguard.scoring.checks.words import one_stem
from ragguard.scoring.lexical.text import stem_in

SUBJECT_REACH = 7
"""Words from a ranking's cue a name opening or closing its sentence may stand to be what it
ranks: "The longest bridge in Dublin is the Millbrook Bridge"."""


def held_by_another(
    claim: Sentence,
    ranked: frozenset[str],
    stating: list[Sentence],
    sentences: tuple[Sentence, ...],
) -> str | None:
    """The label of another thing a ``stating`` sentence gives the claim's ranking, where
    one of the claim's labels (a label word, or the words of a name that opens or closes
    it) is not in that sentence but in another sentence of the passage, and the sentence
    holds every other content word of the claim (the same ranking of the same group: "in
    Riga"); None otherwise."""
    ours = [frozenset({w}) for w in _labels(claim, ranked)] + _subject_names(claim)
    for sentence in stating:
        theirs = _labels(sentence, ranked).union(*_subject_names(sentence)) - claim.word_set
        if not theirs:
            continue
        for label in ours:
            mine = label - sentence.word_set
            rest = claim.content - {stem_in(claim.language, w) for w in mine}
            if not mine or rest - sentence.content:
                continue
            if any(s is not sentence and mine <= s.word_set for s in sentences):
                return " ".join(w for w in sentence.words if w in theirs)
    return None


def _labels(sentence: Sentence, ranked: frozenset[str]) -> frozenset[str]:
    """The words beside a ``ranked`` noun that may tell one thing of its kind from another:
    neither stop words, ranking cues nor ranked nouns; in a language with capitals, words of
    the sentence's names."""
    cues = cues_of(sentence.language)
    if cues is None or not ranked:
        return frozenset()
    stop = lexicon_or_fallback(sentence.language).stopwords
    words = sentence.words
    named = {w.lower() for name in sentence.names for w in name.replace("-", " ").split()}
    capitals = any(ch.isupper() for ch in sentence.text)  # Devanagari has none
    beside: set[str] = set()
    for at, word in enumerate(words):
        if not any(one_stem(stem_in(sentence.language, word), noun) for noun in ranked):
            continue
        beside.update(words[i] for i in (at - 1, at + 1) if 0 <= i < len(words))
    return frozenset(
        w
        for w in beside
        if w not in stop
        and not is_cue(w, cues)
        and not any(one_stem(stem_in(sentence.language, w), noun) for noun in ranked)
        and (w in named or not capitals)
    )


def _subject_names(sentence: Sentence) -> list[frozenset[str]]:
    """The words of each name that opens or closes the sentence, with only stop words before or
    after it, within ``SUBJECT_REACH`` words of a ranking's cue: what "The Thornfield Viaduct
    is the longest bridge in Dublin" and "The longest bridge in Dublin is the Millbrook
    Bridge" rank, whatever noun its name ends with. Not "Designed by John Smith, it is the
    longest bridge"."""
    cues = cues_of(sentence.language)
    if cues is None:
        return []
    stop = lexicon_or_fallback(sentence.language).stopwords
    words = sentence.words
    ranks = [at for at, w in enumerate(words) if is_cue(w, cues)]
    found: list[frozenset[str]] = []
    for name in sentence.names:
        written = tuple(name.lower().replace("-", " ").split())
        for at in range(len(words) - len(written) + 1):
            end = at + len(written)
            if words[at:end] != written:
                continue
            opens = all(w in stop for w in words[:at]) and any(
                0 < r - end < SUBJECT_REACH for r in ranks
            )
            closes = all(w in stop for w in words[end:]) and any(
                0 < at - r < SUBJECT_REACH for r in ranks
            )
            if opens or closes:
                found.append(frozenset(written))
    return found
