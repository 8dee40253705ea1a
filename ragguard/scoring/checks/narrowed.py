"""A ranking narrowed by a word of its own, or to a past time.

"Lake Tessel is the largest natural lake in Latvia" does not state "Lake Tessel is the
largest lake in Latvia" (a man-made lake may be larger), nor "the longest wooden bridge"
"the longest bridge". The word stands between the ranking and the noun the claim ranks
("der größte natürliche See", "el lago natural más grande", "सबसे बड़ी प्राकृतिक झील"), or
right after the noun where the language puts its adjectives there (``[superlatives]
modifiers_follow``: "le plus grand lac naturel"). A word the claim writes too, or a word of a
name, narrows nothing.

"The Kellan Bridge was the longest bridge in Riga until 1960" (or "was once") does not state
that it "is" the longest: a phrase of ``[superlatives] held_until`` beside the ranking bounds
it in time, and a claim with a ``present`` verb says it holds now. The superlative check
(``superlatives``) asks this module.
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues, lexicon_or_fallback
from ragguard.scoring.checks.parse import Sentence, name_words
from ragguard.scoring.checks.rankings import key_positions, ranked_nouns
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


HELD_REACH = 5
"""Words a time bound may stand from the ranking it bounds: "the longest bridge in Riga until
1960", "le plus long pont de Riga jusqu'en 1960"."""


def held_before(
    claim: Sentence, key: tuple[str, ...], sentence: Sentence, cues: SuperlativeCues
) -> str | None:
    """The sentence's ``key`` with the time bound beside it ("longest until"), where the
    claim says with a present verb that the ranking holds now; None otherwise."""
    if not cues.present & claim.word_set or not cues.held_until:
        return None
    words = sentence.words
    for at in key_positions(words, key, cues):
        near = words[max(at - HELD_REACH, 0) : at + len(key) + HELD_REACH]
        for bound in cues.held_until:
            written = tuple(bound.split())
            if any(near[i : i + len(written)] == written for i in range(len(near))):
                return " ".join((*key, bound))
    return None
