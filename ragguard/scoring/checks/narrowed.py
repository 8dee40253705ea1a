"""A ranking narrowed by a word of its own, or to a past time.

"Lake Tessel is the largest natural lake in Latvia" does not state "Lake Tessel is the
largest lake in Latvia" (a man-made lake may be larger), nor "the longest wooden bridge"
"the longest bridge". The word stands between the ranking and the noun the claim ranks
("der größte natürliche See", "el lago natural más grande", "सबसे बड़ी प्राकृतिक झील"), or
right after the noun where the language puts its adjectives there (``[superlatives]
modifiers_follow``: "le plus grand lac naturel"). A word the claim writes too, or a word of a
name, narrows nothing.

"The Kellan Bridge is the longest bridge in the old town of Riga" does not state that it is "the
longest bridge in Riga" either: words of its own narrow the place the ranking ranks within,
between the ranked noun and the place the claim names ("im Norden von Riga", "du quartier du
port de Riga"), or before the ranking where the language puts the place there (``[superlatives]
scope_before``: "रीगा के पुराने शहर की सबसे ऊँची इमारत"). A word of ``place_kinds`` ("the city
of Riga") narrows nothing.

"The Kellan Bridge was the longest bridge in Riga until 1960" (or "was once", or "in 1900 ...
was") does not state that it "is" the longest: a phrase of ``[superlatives] held_until``
beside the ranking bounds it in time, as a ``past`` verb beside it does in a sentence that
writes a year, and a claim with a ``present`` verb says it holds now. The superlative check
(``superlatives``) asks this module.
"""

from __future__ import annotations

import re

from ragguard.language import SuperlativeCues, lexicon_or_fallback
from ragguard.scoring.checks.parse import Sentence, name_words
from ragguard.scoring.checks.rankings import is_cue, key_positions, ranked_nouns
from ragguard.scoring.checks.words import has_ending
from ragguard.scoring.lexical.text import stem_in

NARROW_REACH = 3
"""Words a ranked noun may stand from its ranking: "the longest wooden bridge", "सबसे लंबा
लकड़ी का पुल"."""


def narrower(
    claim: Sentence, phrase: str, key: tuple[str, ...], sentence: Sentence, cues: SuperlativeCues
) -> str | None:
    """The sentence's ``key`` with the word of its own that narrows what it ranks ("largest
    natural lake"), where the claim's ranking ``phrase`` ranks the same noun without it;
    None otherwise."""
    language = claim.language
    nouns = ranked_nouns(claim.words, phrase, key, cues, language)
    if not nouns:
        return None
    stop = lexicon_or_fallback(language).stopwords
    plain = {stem_in(language, w) for w in claim.words} | stop | name_words(sentence)
    words = sentence.words

    def narrowing(span: tuple[str, ...]) -> bool:
        return any(w not in plain and stem_in(language, w) not in plain for w in span)

    for at in key_positions(words, key, cues):
        end = at + len(key)
        after = range(end, min(end + NARROW_REACH, len(words)))
        before = range(at - 1, max(at - 1 - NARROW_REACH, -1), -1)
        for noun in (*after, *before):
            if stem_in(language, words[noun]) not in nouns:
                continue
            span = words[end:noun] if noun >= end else words[noun + 1 : at]
            follows = cues.modifiers_follow and noun + 1 < len(words)
            if narrowing(span) or (follows and narrowing(words[noun + 1 : noun + 2])):
                return " ".join(words[min(at, noun) : max(end, noun + 2 if follows else noun + 1)])
            break
    return None


SCOPE_REACH = 7
"""Words the place a ranking ranks within may stand from the ranked noun: "the busiest
station in the old town of Riga", "la estación más concurrida de las afueras del este de
Riga"."""


def narrower_place(
    claim: Sentence, phrase: str, key: tuple[str, ...], sentence: Sentence, cues: SuperlativeCues
) -> str | None:
    """The sentence's ``key`` with the words that narrow the place it ranks within ("busiest
    station in the old town of"), where the claim ranks within the whole place ("in Riga");
    None otherwise."""
    language = claim.language
    stop = lexicon_or_fallback(language).stopwords
    nouns = ranked_nouns(claim.words, phrase, key, cues, language)
    placed = _place(claim.words, key, nouns, stop, cues, language)
    if placed is None:
        return None
    place, claim_at = placed
    bare = all(w in stop for w in claim.words[claim_at + 1 :])  # nothing after "in Riga"
    # a claim with no restriction of its own after the ranking, where the place stands before
    claim_end = key_positions(claim.words, key, cues)[0] + len(key) if cues.scope_before else 0
    bare_after = (
        cues.scope_before and _restriction_after(claim.words, claim_end, nouns, cues) is None
    )
    words = sentence.words
    for at in key_positions(words, key, cues):
        end = at + len(key)
        if cues.scope_before:
            found = [
                i
                for i in range(max(at - SCOPE_REACH, 0), at)
                if stem_in(language, words[i]) == place
            ]
            span = words[found[-1] + 1 : at] if found else ()
            opens = _restriction_after(words, end, nouns, cues) if found and bare_after else None
            if opens is not None:
                return " ".join((*key, *words[end : opens + 1]))
        else:
            if _placed_before(words, at, place, language):
                continue  # "China's fifth longest, which ... South China Sea": ranked in China
            reach = range(end, min(end + len(nouns) + SCOPE_REACH, len(words)))
            found = [i for i in reach if stem_in(language, words[i]) == place]
            span = _after_nouns(words[end : found[0]], nouns, language) if found else ()
            if found and bare and _qualified(sentence, found[0], cues):
                return " ".join((*key, *words[found[0] : found[0] + 2]))
        if _narrows_place(span, claim, stop, cues):
            return " ".join((*key, *span))
    return None


def _qualified(sentence: Sentence, at: int, cues: SuperlativeCues) -> bool:
    """Whether a restriction follows the place at ``at`` in the same clause ("in Riga built
    of stone", "in Riga that carries trains", "de Riga construit en pierre"): a word of
    ``[superlatives] qualifiers`` or one with a ``participle_endings`` ending, no comma
    before it ("in Riga, built in 1931" says more of the same bridge); past a comma, one of
    ``relatives_after_comma`` whose clause ends in its verb ("in Riga, die Züge trägt")."""
    words = sentence.words
    if at + 1 >= len(words):
        return False
    after = words[at + 1]
    if after in cues.relatives_after_comma:
        return _ends_in_a_verb(sentence.text, words[at], after)
    if after not in cues.qualifiers and not has_ending(after, cues.participle_endings):
        return False
    written = rf"\b{re.escape(words[at])}\s+{re.escape(after)}\b"
    return re.search(written, sentence.text, re.IGNORECASE) is not None


def _ends_in_a_verb(text: str, place: str, relative: str) -> bool:
    """Whether the clause the ``relative`` opens after ``place`` and a comma ends in a word
    with no capital: a verb, where every noun has one (German)."""
    written = rf"\b{re.escape(place)}\s*,\s*{re.escape(relative)}\b([^,.;:!?]*)"
    found = re.search(written, text, re.IGNORECASE)
    last = found.group(1).split()[-1:] if found else []
    return bool(last) and last[0][:1].islower()


def _restriction_after(
    words: tuple[str, ...], end: int, nouns: frozenset[str], cues: SuperlativeCues
) -> int | None:
    """Where a word of ``qualifiers`` opens a restriction after the ranking that ends at
    ``end``, past its nouns and one verb, where the language puts the place before the
    ranking ("रीगा का एकमात्र पुल है जिसमें दो डेक हैं"); None where none does."""
    reach = range(end, min(end + len(nouns) + 2, len(words)))
    return next((i for i in reach if words[i] in cues.qualifiers), None)


def _narrows_place(
    span: tuple[str, ...], claim: Sentence, stop: frozenset[str], cues: SuperlativeCues
) -> bool:
    """Whether ``span``, the words between a ranking and the place the claim names, narrows
    that place: it opens with a function word ("in the old town of"), holds a word of its own,
    and neither another ranking ("सबसे लंबा और") nor a word of the claim ("of all of Riga's
    bridges, the Kellan Bridge"): those build the sentence otherwise."""
    language = claim.language
    stems = [stem_in(language, w) for w in span]
    plain = stop | cues.place_kinds
    return (
        bool(span)
        and span[0] in stop
        and not any(is_cue(w, cues) or w in cues.analytic for w in span)
        and not claim.content.intersection(stems)
        and any(len(w) > 1 and w not in plain for w in span)
    )


def _place(
    words: tuple[str, ...],
    key: tuple[str, ...],
    nouns: frozenset[str],
    stop: frozenset[str],
    cues: SuperlativeCues,
    language: str,
) -> tuple[str, int] | None:
    """The stem of the place the claim's ranking ranks within, and where it stands: the
    first word after the ranking that is neither a function word nor a noun it ranks ("in
    Riga"); before it, behind a function word, where the language puts the place there
    ("रीगा की सबसे")."""
    positions = key_positions(words, key, cues)
    if not positions:
        return None
    at = positions[0]
    if cues.scope_before:
        before = range(at - 1, max(at - SCOPE_REACH, 0) - 1, -1)
        if at < 2 or words[at - 1] not in stop:
            return None
        where = next((i for i in before if words[i] not in stop), None)
    else:
        after = range(at + len(key), min(at + len(key) + SCOPE_REACH, len(words)))
        where = next(
            (i for i in after if words[i] not in stop and stem_in(language, words[i]) not in nouns),
            None,
        )
        verb = where is not None and (
            words[where - 1] not in stop or words[where - 1] in cues.past | cues.present
        )
        if verb:  # "first building included", "first album was released": no "in Riga"
            return None
    return None if where is None else (stem_in(language, words[where]), where)


POSSESSOR_REACH = 3
"""Words before a ranking where the place it ranks within may stand as its possessor:
"Riga's longest bridge", "China's fifth longest"."""


def _placed_before(words: tuple[str, ...], at: int, place: str, language: str) -> bool:
    """Whether the sentence writes the claim's place just before its ranking at ``at``
    ("China's fifth longest"): the ranking is within that place, whatever follows."""
    return any(stem_in(language, w) == place for w in words[max(at - POSSESSOR_REACH, 0) : at])


def _after_nouns(span: tuple[str, ...], nouns: frozenset[str], language: str) -> tuple[str, ...]:
    """``span`` from its first word that is not a noun the claim ranks."""
    skip = 0
    while skip < len(span) and stem_in(language, span[skip]) in nouns:
        skip += 1
    return span[skip:]


HELD_REACH = 5
"""Words a time bound may stand from the ranking it bounds: "the longest bridge in Riga until
1960", "le plus long pont de Riga jusqu'en 1960"."""


def held_before(
    claim: Sentence, key: tuple[str, ...], sentence: Sentence, cues: SuperlativeCues
) -> str | None:
    """The sentence's ``key`` with the time bound beside it ("longest until"), or with its
    past verb where the sentence writes a year ("In 1900 it was the longest"), where the
    claim says with a present verb that the ranking holds now; None otherwise. A claim that
    writes a year dates what it says ("Le premier album est sorti en 1993"): not now."""
    if not cues.present & claim.word_set or any(q.kind == "year" for q in claim.quantities):
        return None
    words = sentence.words
    dated = any(q.kind == "year" for q in sentence.quantities)  # the numbers checks' years
    for at in key_positions(words, key, cues):
        near = words[max(at - HELD_REACH, 0) : at + len(key) + HELD_REACH]
        for bound in cues.held_until:
            written = tuple(bound.split())
            if any(near[i : i + len(written)] == written for i in range(len(near))):
                return " ".join((*key, bound))
        past = cues.past.intersection(near)
        if dated and past and not cues.present.intersection(near):
            return " ".join((*key, *sorted(past)))
    return None
