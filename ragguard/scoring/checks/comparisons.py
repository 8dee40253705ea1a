"""Rankings a passage says without a superlative: a negated comparison, or a rank beside
what it ranks ("the second bridge built"). "No bridge in Riga is longer than the Harlow
Bridge." states "the longest bridge in Riga" ("Keine Brücke ist länger als ...",
"Aucun pont n'est plus long que ...", "Ningún puente es más largo que ...", "कोई भी पुल
... से लंबा नहीं है"), and ranks the bridges by length, not by age.

The words are each language's ``[superlatives]`` table: ``than``, the comparative beside it
(before it, or after it where ``compared_after``), less ``not_compared`` ("other than",
"more than five"), and its negation cues. A comparative states a ranking whose last word
shares its stem ("longer", "longest"). The claim's side (a claim's negated comparison
against a passage's ranking) is ``superlatives.compared_as_ranked``.
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues, lexicon_or_fallback, negation_positions
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.words import one_stem
from ragguard.scoring.lexical.text import stem_in

COMPARED_REACH = 2
"""Words a compared word may stand from the word of ``than`` in a claim: "busier than",
"more visited than" (``superlatives.compared_as_ranked``)."""


def compared_words(words: tuple[str, ...], cues: SuperlativeCues) -> list[str]:
    """The words within ``COMPARED_REACH`` of each word of ``than``."""
    return [
        near
        for at, word in enumerate(words)
        if word in cues.than
        for near in (
            *words[max(at - COMPARED_REACH, 0) : at],
            *words[at + 1 : at + 1 + COMPARED_REACH],
        )
    ]


def negated_comparison(sentence: Sentence, cues: SuperlativeCues) -> list[tuple[int, str]]:
    """Where each word of ``than`` stands in a negated comparison ("no bridge is longer
    than"), with its comparative; none where the sentence negates nothing ("A is longer
    than B" ranks nothing) or a word of ``than`` compares nothing ("other than")."""
    words = sentence.words
    if not cues.than.intersection(words) or not negation_positions(words, sentence.language):
        return []
    stop, step = lexicon_or_fallback(sentence.language).stopwords, 1 if cues.compared_after else -1
    found = []
    for at, word in enumerate(words):
        near = at + step
        if word in cues.than and 0 <= near < len(words):
            compared = words[near]
            if compared not in stop and compared not in cues.not_compared:
                found.append((at, compared))
    return found


def states_by_comparison(sentence: Sentence, key: tuple[str, ...], cues: SuperlativeCues) -> bool:
    """Whether the sentence says the ranking ``key`` (no rank: "the longest", not "the
    second-longest") as a negated comparison."""
    return _states(negated_comparison(sentence, cues), key, cues)


def _states(found: list[tuple[int, str]], key: tuple[str, ...], cues: SuperlativeCues) -> bool:
    """Whether one of the comparatives ``found`` says ``key``: its last word's stem."""
    return key[0] not in cues.ordinals and any(one_stem(key[-1], w) for _, w in found)


def compared_otherwise(sentence: Sentence, key: tuple[str, ...], cues: SuperlativeCues) -> str:
    """The words of a negated comparison that ranks by another word than ``key`` ("longer
    than" against "the oldest"); "" where the sentence states ``key`` or makes none."""
    found = negated_comparison(sentence, cues)
    if not found or _states(found, key, cues):
        return ""
    at, _ = found[0]
    start, end = (at, at + 2) if cues.compared_after else (at - 1, at + 1)
    return " ".join(sentence.words[start:end])


RANK_REACH = 3
"""Words a rank may stand from what it ranks: "the second bridge", "ranks second among the
lakes"."""


def rank_of(
    words: tuple[str, ...], ranked: frozenset[str], cues: SuperlativeCues, language: str
) -> str:
    """The rank a sentence gives one of the ``ranked`` nouns, in any inflection, without a
    cue ("the second bridge built", "sixième parmi les gares"; German ranks by stem: "die
    zweite Brücke"); "" where it gives none."""
    for at, word in enumerate(words):
        rank = word in cues.ordinals or (
            cues.compounds
            and any(word.startswith(o) and len(word) <= len(o) + 2 for o in cues.ordinals)
        )
        near = words[max(at - RANK_REACH, 0) : at] + words[at + 1 : at + 1 + RANK_REACH]
        if rank and any(one_stem(stem_in(language, w), r) for w in near for r in ranked):
            return " ".join(words[at : at + 2])
    return ""
