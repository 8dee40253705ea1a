"""The superlative check: a claim that ranks its subject ("the tallest structure in Paris",
"the most visited monument", "the only", "the first") states a comparison; when no passage
sentence states that ranking too, the claim says more than the passages do.

The cues are each language's ``[superlatives]`` table (``ragguard.language``). A passage
states the ranking when one of its sentences writes the same cue ("tallest"; for an
analytic one, with the same word after it: "most visited"), whatever it ranks: which
subject holds the rank is the entity check's question, not this one's.
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues, lexicon, lexicon_or_fallback, negation_positions
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.interface.protocols import Reason


def _cues(language: str) -> SuperlativeCues | None:
    found = lexicon(language)
    return found.superlatives if found is not None else None


def _is_cue(word: str, cues: SuperlativeCues) -> bool:
    if word in cues.words or word in cues.analytic:
        return True
    return word not in cues.not_superlative and any(
        word.endswith(end) and len(word) > len(end) + 2 for end in cues.endings
    )


def rankings(
    words: tuple[str, ...], cues: SuperlativeCues, stopwords: frozenset[str] = frozenset()
) -> list[tuple[str, tuple[str, ...]]]:
    """Each ranking of a sentence's ``words`` (lower case): the phrase as read ("the most
    visited") and the words a passage must write to state it (("most", "visited")). A rank
    keeps its ordinal (("second", "longest")): "the second-longest" is not "the longest". An
    analytic cue before a function word (``stopwords``: "the most with") ranks nothing."""
    found = []
    for at, word in enumerate(words):
        if not _is_cue(word, cues):
            continue
        lead = at - 1
        ordinal = lead >= 0 and words[lead] in cues.ordinals
        if ordinal:
            lead -= 1  # "the second-largest"
        if cues.after and (lead < 0 or words[lead] not in cues.after):
            continue
        key: tuple[str, ...] = (word,)
        if word in cues.analytic:
            if at + 1 >= len(words) or words[at + 1] in stopwords:
                continue
            key = (word, words[at + 1])
        if ordinal:
            key = (words[at - 1], *key)
        start = lead if cues.after else at
        found.append((" ".join(words[start : at + len(key) - ordinal]), key))
    return found


def _states(sentence: Sentence, key: tuple[str, ...], ordinals: frozenset[str]) -> bool:
    """Whether the sentence writes ``key``; a key without an ordinal only where no ordinal
    comes before it ("the sixth-largest" does not state "the largest")."""
    words, ranked = sentence.words, key[0] in ordinals
    if len(key) == 1 and key[0] not in sentence.word_set:
        return False
    return any(
        words[i : i + len(key)] == key and (ranked or i == 0 or words[i - 1] not in ordinals)
        for i in range(len(words) - len(key) + 1)
    )


def superlative_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The rankings of the claim that no evidence sentence states."""
    cues = _cues(claim.language)
    if cues is None:
        return []
    stop = lexicon_or_fallback(claim.language).stopwords
    denied = negation_positions(claim.words, claim.language)
    return [
        Reason("superlative", phrase, "")
        for phrase, key in rankings(claim.words, cues, stop)
        if not _negated(claim.words, phrase, denied)
        and not any(_states(s, key, cues.ordinals) for s in sentences)
    ]


def _negated(words: tuple[str, ...], phrase: str, denied: list[int]) -> bool:
    """Whether a negation cue stands right before the ranking ("not the largest"): a
    denied ranking claims no rank, so no passage need state one (the negation check reads
    the rest)."""
    first = phrase.split()[0]
    return any(cue + 1 < len(words) and words[cue + 1] == first for cue in denied)
