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

import re
from dataclasses import replace

from ragguard.language import SuperlativeCues, lexicon_or_fallback
from ragguard.runtime import memoized
from ragguard.scoring.checks.parse import Sentence, name_words, parse
from ragguard.scoring.checks.rankings import cues_of, is_cue, ranked_nouns, rankings
from ragguard.scoring.checks.words import WORD, one_stem
from ragguard.scoring.lexical.text import stem_in

SUBJECT_REACH = 7
"""Words from a ranking's cue a name opening or closing its sentence may stand to be what it
ranks: "The longest bridge in Dublin is the Millbrook Bridge"."""


def held_by_another(
    claim: Sentence,
    ranked: frozenset[str],
    stating: list[Sentence],
    parts: tuple[Sentence, ...],
) -> tuple[str, frozenset[str]] | None:
    """The label of another thing a ``stating`` clause gives the claim's ranking, and the
    claim's own label, where that (a label word, or the words of a name that opens or
    closes the claim) is in no stating clause but in another clause of the passage
    (``parts``), and the clause holds every other content word of the claim or adds none
    but its holder's (not "the longest bridge in Latvia" against "... in Riga"); None
    otherwise, and where a stating clause holds every label of the claim."""
    ours = _groups(claim, ranked)
    if any(all(label <= c.word_set for label in ours) for c in stating):
        return None
    for clause in stating:
        for theirs in (g - claim.word_set for g in _groups(clause, ranked)):
            if not theirs:
                continue
            adds = clause.content - {stem_in(clause.language, w) for w in theirs} - claim.content
            for mine in (label - clause.word_set for label in ours):
                rest = claim.content - {stem_in(claim.language, w) for w in mine}
                if not mine or (adds and rest - clause.content):
                    continue
                if any(mine <= c.word_set for c in parts if c not in stating):
                    return " ".join(w for w in clause.words if w in theirs), mine
    return None


def compared_held_by_another(
    claim: Sentence,
    phrase: str,
    compared: str,
    stating: list[Sentence],
    parts: tuple[Sentence, ...],
    cues: SuperlativeCues,
    stop: frozenset[str],
) -> str | None:
    """The thing the ``stating`` clauses give the ranking a comparison with all others says
    in other words (``held_by_another``): the claim read with the clauses' ranking words in
    place of its comparison's ("longer than any other" for "the longest")."""
    language = claim.language
    ranking = {
        stem_in(language, w)
        for c in stating
        for _, key in rankings(c.words, cues, stop)
        for w in key
    }
    said = (claim.content - {stem_in(language, w) for w in phrase.split()}) | ranking
    ranked = _kind_denied(claim.words, cues, stop, language) or ranked_nouns(
        claim.words, phrase, (compared,), cues, language
    )
    held = held_by_another(replace(claim, content=said), ranked, stating, parts)
    return held[0] if held is not None else None


def _kind_denied(
    words: tuple[str, ...], cues: SuperlativeCues, stop: frozenset[str], language: str
) -> frozenset[str]:
    """The kind a word of ``none`` denies any other of, stemmed: "bridge" of "no (other)
    bridge in Riga is longer than A", the first word after it that is no function word nor
    a word of ``than_all`` or ``than_others`` ("other", "autre", "andere")."""
    others = {w for phrase in (*cues.than_all, *cues.than_others) for w in phrase.split()}
    for at, word in enumerate(words):
        if word in cues.none:
            skip = stop | others | frozenset(cues.ordinals)  # "दूसरा", other and second
            kind = next((w for w in words[at + 1 :] if w not in skip), None)
            return frozenset({stem_in(language, kind)}) if kind else frozenset()
    return frozenset()


def own_clauses(mine: frozenset[str], parts: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """The clauses that hold the claim's label: what the passage says of the claim's subject
    ("Lake Tessel is the second largest" of "Lake Vorna is the largest lake in Latvia and
    Lake Tessel is the second largest")."""
    return tuple(c for c in parts if mine <= c.word_set)


def _groups(sentence: Sentence, ranked: frozenset[str]) -> list[frozenset[str]]:
    """What may tell the sentence's ranked thing from another: each label word, and the words
    of each name that opens or closes it."""
    return [frozenset({w}) for w in _labels(sentence, ranked)] + _subject_names(sentence)


@memoized(entries=16_384)
def clauses_of(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """Each sentence cut, parsed, at a semicolon or a coordinator of its language where a
    clause of its own follows (``_opens_a_clause``): one sentence often ranks two things
    ("The Kellan Bridge is the longest bridge in Riga, and the Orlen Bridge is the
    oldest"), but "The Orlen Bridge opened in 1962 and is the longest bridge" ranks one,
    and a name between commas is another name of a thing ("his library, the Bibliotheca
    Corviniana, was one of the largest")."""
    found: list[Sentence] = []
    for sentence in sentences:
        cues = cues_of(sentence.language)
        joins = "|".join(re.escape(w) for w in (cues.coordinators if cues else ()))
        cut = re.compile(rf"\s*;\s*|,?\s+(?:{joins})\s+" if joins else r"\s*;\s*")
        pieces: list[str] = []
        at = 0
        for match in cut.finditer(sentence.text):
            before, rest = sentence.text[at : match.start()], sentence.text[match.end() :]
            if _opens_a_clause(sentence, before, rest):
                pieces.append(before)
                at = match.end()
        pieces.append(sentence.text[at:])
        if len(pieces) == 1:
            found.append(sentence)
        else:
            found.extend(parse(p, sentence.language) for p in pieces if p.strip())
    return tuple(found)


CLAUSE_WORDS = 3
"""Words each side of a coordinator must hold for it to join two clauses: "गंगा और यमुना"
and "Tracey Edmonds and Robert Teitel" join two names."""


def _opens_a_clause(sentence: Sentence, before: str, rest: str) -> bool:
    """Whether ``rest`` of the sentence opens a clause of its own: ``CLAUSE_WORDS`` words or
    more on each side and, where capitals mark names, after stop words, the first word of
    one of its names, or one other word and then one ("le lac Marrin", "el puente
    Ashford"), not "is the longest bridge" of "the Orlen Bridge"."""
    words = [w.lower() for w in WORD.findall(rest)]
    if min(len(WORD.findall(before)), len(words)) < CLAUSE_WORDS:
        return False  # "Tracey Edmonds and Robert Teitel."
    if not any(map(str.isupper, sentence.text)):
        return True
    stop = lexicon_or_fallback(sentence.language).stopwords
    first = {WORD.findall(name)[0].lower() for name in sentence.names if WORD.findall(name)}
    opening = [w for w in words if w not in stop][:2]
    return bool(first.intersection(opening))


def _labels(sentence: Sentence, ranked: frozenset[str]) -> frozenset[str]:
    """The words beside a ``ranked`` noun that may tell one thing of its kind from another:
    neither stop words, ranking cues, ranks, the word an analytic cue grades, nor ranked
    nouns; in a language with capitals, words of the sentence's names."""
    cues = cues_of(sentence.language)
    if cues is None or not ranked:
        return frozenset()
    stop = lexicon_or_fallback(sentence.language).stopwords
    words = sentence.words
    named = name_words(sentence)
    capitals = any(map(str.isupper, sentence.text))  # Devanagari has none
    beside: set[str] = set()
    for at, word in enumerate(words):
        if not any(one_stem(stem_in(sentence.language, word), noun) for noun in ranked):
            continue
        beside.update(words[i] for i in (at - 1, at + 1) if 0 <= i < len(words))
    graded = {words[i + 1] for i, w in enumerate(words[:-1]) if w in cues.analytic}
    return frozenset(
        w
        for w in beside
        if w not in stop
        and not is_cue(w, cues)
        and w not in cues.ordinals
        and w not in graded  # "बड़ी" of "सबसे बड़ी झील"
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
