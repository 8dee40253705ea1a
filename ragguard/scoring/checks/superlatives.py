"""The superlative check: a claim that ranks its subject ("the tallest structure in Paris",
"the most visited monument", "the only", "the first") where the passage ranks it otherwise
("the sixth-tallest", "the longest") contradicts the passage.

The cues are each language's ``[superlatives]`` table (``ragguard.language``). A passage
states the ranking when one of its sentences writes the same cue ("tallest"; for an
analytic one, with the same word after it: "most visited"), whatever it ranks: which
subject holds the rank is the entity check's question, not this one's. A ranking no
sentence states fires only against a *rival*: a sentence about the same thing (it shares
``MIN_SHARED`` content words with the claim) that ranks with another cue or another rank.
A ranking the passage never mentions fires only where the passage, about the claim's
subject, ranks nothing at all (``_ranks_nothing``): elsewhere it is only content the passage
does not cover (the ``uncovered`` check's); ``docs/accuracy.md`` has the training-set
figures behind this.
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues, lexicon, lexicon_or_fallback, negation_positions
from ragguard.scoring.checks.parse import Sentence, overlap
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in


def _cues(language: str) -> SuperlativeCues | None:
    found = lexicon(language)
    return found.superlatives if found is not None else None


def _is_cue(word: str, cues: SuperlativeCues) -> bool:
    if word in cues.words or word in cues.analytic:
        return True
    return word not in cues.not_superlative and any(
        word.endswith(end) and len(word) > len(end) + 2 for end in cues.endings
    )


def _noun_between(words: tuple[str, ...], lead: int, word: str, cues: SuperlativeCues) -> bool:
    """Whether a noun stands between an article and the analytic cue ``word``."""
    return (
        cues.noun_between
        and word in cues.analytic
        and lead > 0
        and words[lead] not in cues.after
        and words[lead - 1] in cues.after
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
        rank_at = lead
        if ordinal:
            lead -= 1  # "the second-largest"
        elif _noun_between(words, lead, word, cues):
            lead -= 1  # "el puente más largo"
        elif _noun_between(words, lead - 1, word, cues) and words[lead - 1] in cues.ordinals:
            ordinal, rank_at = True, lead - 1  # "el segundo puente más largo"
            lead -= 2
        if cues.after and (lead < 0 or words[lead] not in cues.after):
            continue
        key: tuple[str, ...] = (word,)
        if word in cues.analytic:
            if at + 1 >= len(words) or words[at + 1] in stopwords:
                continue
            key = (word, words[at + 1])
        if ordinal:
            key = (words[rank_at], *key)
        start = lead if cues.after else rank_at if ordinal else at
        found.append((" ".join(words[start : at + len(key) - ordinal]), key))
    return found


def _states(sentence: Sentence, key: tuple[str, ...], ordinals: frozenset[str]) -> bool:
    """Whether the sentence writes ``key``; a key without an ordinal only where no ordinal
    comes before it ("the sixth-largest" does not state "the largest")."""
    words, ranked = sentence.words, key[0] in ordinals
    if len(key) == 1 and key[0] not in sentence.word_set:
        return False
    if ranked:  # the rank next to the cue or a noun between ("el segundo puente más largo")
        return any(
            words[i] == key[0]
            and key[1:] in (words[i + 1 : i + len(key)], words[i + 2 : i + 1 + len(key)])
            for i in range(len(words))
        )
    return any(
        words[i : i + len(key)] == key and not (set(words[max(i - 2, 0) : i]) & ordinals)
        for i in range(len(words) - len(key) + 1)
    )


def ranked_nouns(
    words: tuple[str, ...], phrase: str, key: tuple[str, ...], cues: SuperlativeCues, language: str
) -> frozenset[str]:
    """What a ranking ranks: the content words beside its phrase or inside it, less its
    ``key`` ("lake" of "the largest lake", "pont" of "le pont le plus long", "puente" of
    "el puente más largo"), stemmed."""
    stop, written = lexicon_or_fallback(language).stopwords, tuple(phrase.split())
    for start in range(len(words) - len(written) + 1):
        if words[start : start + len(written)] == written:
            near = words[max(start - 1, 0) : start + len(written) + 1]
            left = [w for w in near if w not in stop and w not in key and w not in cues.after]
            return frozenset(stem_in(language, w) for w in left if not _is_cue(w, cues))
    return frozenset()


def rival(
    claim: Sentence, phrase: str, key: tuple[str, ...], sentences: tuple[Sentence, ...]
) -> str | None:
    """The ranking of a sentence about the claim's subject that ranks the same thing
    otherwise than ``key`` ("the sixth-largest lake" against "the largest lake", "the
    longest bridge" against "the newest bridge"); None where a sentence states ``key`` or
    none ranks that thing otherwise. A ranking of something else ("the most plentiful
    element" against "the most abundant in the universe") is no rival: likely a paraphrase."""
    cues = _cues(claim.language)
    if cues is None or any(_states(s, key, cues.ordinals) for s in sentences):
        return None
    stop = lexicon_or_fallback(claim.language).stopwords
    ranked = ranked_nouns(claim.words, phrase, key, cues, claim.language)
    for sentence in sentences:
        if not (ranked and overlap(claim.content, sentence)):
            continue
        for other, its in rankings(sentence.words, cues, stop):
            if ranked & ranked_nouns(sentence.words, other, its, cues, claim.language):
                return other
    return None


def superlative_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The rankings of the claim that an evidence sentence about the same thing ranks
    otherwise (``rival``)."""
    cues = _cues(claim.language)
    if cues is None:
        return []
    stop = lexicon_or_fallback(claim.language).stopwords
    denied = negation_positions(claim.words, claim.language)
    found = []
    for phrase, key in rankings(claim.words, cues, stop):
        if _negated(claim.words, phrase, denied):
            continue
        other = rival(claim, phrase, key, sentences)
        if other is None and _ranks_nothing(claim, key, sentences, cues, stop):
            other = ""
        if other is not None:
            found.append(Reason("superlative", phrase, other))
    return found


def _name_words(sentence: Sentence) -> frozenset[str]:
    """The words of the sentence's names, lower case: "Manchester" ends like a cue."""
    return frozenset(w.lower() for name in sentence.names for w in name.split())


UNRANKED_ANCHOR = 0.6
"""Share of the claim's content words a passage sentence must hold for a passage that ranks
nothing to be about the claim's subject."""


def _ranks_nothing(
    claim: Sentence,
    key: tuple[str, ...],
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
    stop: frozenset[str],
) -> bool:
    """Whether the passage, about the claim's subject (a sentence holds ``UNRANKED_ANCHOR``
    of its words), ranks nothing at all: no cue, no ordinal, none of ``ranking_words``, nor
    the adverb of the word an analytic cue ranks by ("directly": "the most direct"). A
    ranking such a passage never writes is added, not paraphrased ("the longest bridge in
    Riga" against "crosses the river in Riga ... 455 metres long")."""
    if not any(overlap(claim.content, s) >= UNRANKED_ANCHOR for s in sentences):
        return False
    analytic = key[-2:-1] and key[-2] in cues.analytic
    ranked_by = {key[-1] + end for end in cues.adverb_endings} if analytic else set()
    marks = cues.ordinals | cues.ranking_words
    return not any(
        s.word_set & marks
        or s.word_set & ranked_by
        or any(_is_cue(w, cues) for w in s.word_set - _name_words(s))
        or rankings(s.words, cues, stop)  # a ranking in a name still ranks ("the First War")
        for s in sentences
    )


def denied_by_rival(claim: Sentence, cue: int, sentences: tuple[Sentence, ...]) -> bool:
    """Whether the ranking a negation cue denies ("not the largest") is denied by the
    passage too: a sentence about the same thing ranks it otherwise ("the sixth-largest")."""
    cues = _cues(claim.language)
    if cues is None:
        return False
    stop = lexicon_or_fallback(claim.language).stopwords
    following = claim.words[cue + 1 :]
    return any(
        rival(claim, phrase, key, sentences) is not None
        for phrase, key in rankings(following, cues, stop)
        if following[: len(phrase.split())] == tuple(phrase.split())
    )


def _negated(words: tuple[str, ...], phrase: str, denied: list[int]) -> bool:
    """Whether a negation cue stands right before the ranking ("not the largest"): a
    denied ranking claims no rank, so no passage need state one (the negation check reads
    the rest)."""
    first = phrase.split()[0]
    return any(cue + 1 < len(words) and words[cue + 1] == first for cue in denied)
