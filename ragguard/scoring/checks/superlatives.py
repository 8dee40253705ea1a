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

from functools import cache

from ragguard.language import (
    SuperlativeCues,
    lexicon,
    lexicon_or_fallback,
    negation_governs_before,
    negation_positions,
)
from ragguard.scoring.checks.comparisons import (
    compared_otherwise,
    compared_words,
    negated_comparison,
    rank_of,
    states_by_comparison,
)
from ragguard.scoring.checks.parse import MIN_SHARED, Sentence, overlap
from ragguard.scoring.checks.words import one_stem
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in


def _cues(language: str) -> SuperlativeCues | None:
    found = lexicon(language)
    return found.superlatives if found is not None else None


def _is_cue(word: str, cues: SuperlativeCues) -> bool:
    if word in cues.words or word in cues.analytic:
        return True
    if word in cues.not_superlative or (cues.compounds and _ends_a_compound(word, cues)):
        return False
    return any(word.endswith(end) and len(word) > len(end) + 2 for end in cues.endings)


def _ends_a_compound(word: str, cues: SuperlativeCues) -> bool:
    """Whether a compound ends in a word that ranks nothing ("fahrgäste", "nordküste")."""
    return any(word.endswith(w) for w in cues.not_superlative if len(w) >= 4)


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
        elif word in cues.analytic and lead >= 2 and _ranks_a_noun(words, lead, cues):
            ordinal, rank_at = True, lead - 2  # "la sixième gare la plus fréquentée"
            lead -= 3
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


def _ranks_a_noun(words: tuple[str, ...], lead: int, cues: SuperlativeCues) -> bool:
    """Whether an ordinal and a noun come before the article ``lead`` of an analytic cue:
    "la sixième gare la plus fréquentée" ranks the station sixth."""
    return (
        words[lead] in cues.after
        and words[lead - 1] not in cues.after
        and words[lead - 2] in cues.ordinals
    )


def _states(
    sentence: Sentence, key: tuple[str, ...], cues: SuperlativeCues, alone: bool = True
) -> bool:
    """Whether the sentence writes ``key``, each word in any of its inflections ("höchsten"
    of "höchste", "les plus fréquentées" of "la plus fréquentée"); a key without an ordinal
    only where no ordinal comes before it ("the sixth-largest" does not state "the
    largest"), and, for a ranking claimed ``alone``, not among others ("one of the busiest"
    does not state "the busiest")."""
    words, ordinals = sentence.words, cues.ordinals
    if key[0] in ordinals:  # the rank next to the cue, or a noun between ("el segundo puente")
        return any(
            ordinals.get(words[i]) == ordinals[key[0]]
            and key[1:] in (words[i + skip : i + skip + len(key) - 1] for skip in (1, 2, 3))
            for i in range(len(words))
        )
    if states_by_comparison(sentence, key, cues):  # "no bridge is longer than A"
        return True
    base = _cue_base(key[0], cues)
    reach = 3 if key[0] in cues.analytic else 2  # "la sixième gare la plus fréquentée"
    if base == key[0] and key[0] not in sentence.word_set:
        return False
    return any(
        _same_ranking(words[i : i + len(key)], key, cues)
        and not any(w in ordinals for w in words[max(i - reach, 0) : i])
        and not (alone and among(words, i, cues) is not None)
        for i in range(len(words) - len(key) + 1)
    )


AMONG_REACH = 5
"""Words an ``among`` phrase may stand from the cue it ranks among others: "l'une des gares
les plus fréquentées", "सबसे व्यस्त स्टेशनों में से एक"."""


def among(words: tuple[str, ...], at: int, cues: SuperlativeCues) -> tuple[int, int] | None:
    """Where the phrase of the language's ``among`` stands that ranks the cue at ``at``
    among others ("one of" the busiest); None where the cue ranks alone."""
    if not cues.among or at < 0:
        return None
    start = at + 1 if cues.among_follows else max(at - AMONG_REACH, 0)
    end = at + 1 + AMONG_REACH if cues.among_follows else at
    for phrase in cues.among:
        written = tuple(phrase.split())
        for first in range(start, end - len(written) + 1):
            if words[first : first + len(written)] == written:
                return first, first + len(written)
    return None


def _among_phrase(words: tuple[str, ...], phrase: str, cues: SuperlativeCues) -> str:
    """A ranking ``phrase`` of ``words`` with the ``among`` words that rank it among others
    ("one of the busiest"), or an empty string where it ranks alone."""
    start = _phrase_at(words, phrase)
    found = among(words, _cue_at(words, phrase, cues), cues)
    if found is None:
        return ""
    return " ".join(words[min(found[0], start) : max(found[1], start + len(phrase.split()))])


def _closes(words: tuple[str, ...], phrase: str, stop: frozenset[str]) -> bool:
    """Whether only function words follow the ranking ``phrase`` ("is the busiest.",
    "सबसे व्यस्त है"): it ranks nothing the claim names ("the most abundant in the universe"
    ranks within the universe)."""
    start = _phrase_at(words, phrase)
    return start >= 0 and all(w in stop for w in words[start + len(phrase.split()) :])


def _same_ranking(one: tuple[str, ...], other: tuple[str, ...], cues: SuperlativeCues) -> bool:
    """Whether two rankings' keys are one, each word in any inflection ("verkehrsreichsten",
    "les plus fréquentées")."""
    return (
        len(one) == len(other)
        and _inflected(one[1:], other[1:])
        and _same_head(one[0], other[0], cues)
    )


def _same_head(one: str, other: str, cues: SuperlativeCues) -> bool:
    """Whether two rankings' first words are one: ranks of one value ("segundo", "segunda"),
    or cues of one base."""
    if one in cues.ordinals or other in cues.ordinals:
        return cues.ordinals.get(one) == cues.ordinals.get(other)
    return _cue_base(one, cues) == _cue_base(other, cues)


def _inflected(words: tuple[str, ...], key: tuple[str, ...]) -> bool:
    """Whether ``words`` are ``key``'s, each in any inflection ("fréquentées", "fréquentée")."""
    return len(words) == len(key) and all(one_stem(a, b) for a, b in zip(words, key, strict=True))


def _cue_at(words: tuple[str, ...], phrase: str, cues: SuperlativeCues) -> int:
    """Where the cue of a ranking ``phrase`` stands in ``words``; -1 where it is not."""
    start = _phrase_at(words, phrase)
    if start < 0:
        return -1
    end = start + len(phrase.split())
    return next((i for i in range(start, end) if _is_cue(words[i], cues)), -1)


def _phrase_at(words: tuple[str, ...], phrase: str) -> int:
    """Where a ranking ``phrase`` (as ``rankings`` reads it) first starts in ``words``; -1
    where it does not."""
    written = tuple(phrase.split())
    return next(
        (s for s in range(len(words) - len(written) + 1) if words[s : s + len(written)] == written),
        -1,
    )


def _cue_base(word: str, cues: SuperlativeCues) -> str:
    """A cue less its inflected ending ("höchsten", "höchste": "höch"); any other word as is."""
    if not _is_cue(word, cues):
        return word
    return next(
        (word[: -len(end)] for end in _longest_first(cues.endings) if word.endswith(end)), word
    )


@cache
def _longest_first(endings: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(endings, key=len, reverse=True))


def ranked_nouns(
    words: tuple[str, ...], phrase: str, key: tuple[str, ...], cues: SuperlativeCues, language: str
) -> frozenset[str]:
    """What a ranking ranks: the content words beside its phrase or inside it, less its
    ``key`` ("lake" of "the largest lake", "pont" of "le pont le plus long", "puente" of
    "el puente más largo"), stemmed."""
    stop, start, length = (
        lexicon_or_fallback(language).stopwords,
        _phrase_at(words, phrase),
        len(phrase.split()),
    )
    if start < 0:
        return frozenset()
    near = words[max(start - 1, 0) : start + length + 1]
    left = [w for w in near if w not in stop and w not in key and w not in cues.after]
    if not [w for w in left if not _is_cue(w, cues)]:  # "the longest of Riga's bridges"
        left = [w for w in _partitive_group(words, start + length, cues) if w not in stop]
    return frozenset(stem_in(language, w) for w in left if not _is_cue(w, cues))


def _shared(ours: frozenset[str], theirs: frozenset[str]) -> int:
    """How many of ``ours`` ``theirs`` holds in any inflection ("ponts", "pont"): a sentence
    that names its subject with a pronoun is about it still ("elle se classe sixième parmi
    les gares")."""
    return sum(any(one_stem(a, b) for b in theirs) for a in ours)


PARTITIVE_REACH = 3
"""Words after a partitive a ranking's group may take: "of Riga's bridges"."""


def _partitive_group(words: tuple[str, ...], end: int, cues: SuperlativeCues) -> tuple[str, ...]:
    """The words of the group a ranking with no noun ranks within, after a word of the
    language's ``partitive`` ("of", "des", "de los", "der"); none without one."""
    for phrase in cues.partitive:
        written = tuple(phrase.split())
        if words[end : end + len(written)] == written:
            return words[end + len(written) : end + len(written) + PARTITIVE_REACH]
    return ()


def rival(
    claim: Sentence, phrase: str, key: tuple[str, ...], sentences: tuple[Sentence, ...]
) -> str | None:
    """The ranking of a sentence about the claim's subject that ranks the same thing
    otherwise than ``key`` ("the sixth-largest lake" against "the largest lake", "the
    longest bridge" against "the newest bridge"); None where a sentence states ``key`` or
    none ranks that thing otherwise. A ranking of something else ("the most plentiful
    element" against "the most abundant in the universe") is no rival: likely a paraphrase."""
    cues = _cues(claim.language)
    if cues is None:
        return None
    alone = among(claim.words, _cue_at(claim.words, phrase, cues), cues) is None
    if any(_states(s, key, cues, alone) for s in sentences):
        return None
    stop = lexicon_or_fallback(claim.language).stopwords
    ranked = ranked_nouns(claim.words, phrase, key, cues, claim.language)
    bare = not ranked and _closes(claim.words, phrase, stop)
    for sentence in sentences:
        if not ((ranked or bare) and overlap(claim.content, sentence)):
            continue
        for other, its in rankings(sentence.words, cues, stop):
            # a ranking closing the claim with no noun ("is the busiest.") ranks what its
            # sentence is about; the same ranking among others ranks the same thing
            if (
                bare
                or _same_ranking(its, key, cues)
                or _shared(ranked, ranked_nouns(sentence.words, other, its, cues, claim.language))
            ):
                return _among_phrase(sentence.words, other, cues) or other
        compared = compared_otherwise(sentence, key, cues)  # "no bridge is longer than A"
        if compared and (bare or ranked & sentence.content):
            return compared
    for sentence in sentences if key[0] not in cues.ordinals and ranked else ():
        ranked_by_rank = rank_of(sentence.words, ranked, cues, claim.language)
        if ranked_by_rank and _shared(claim.content, sentence.content) >= MIN_SHARED:
            return ranked_by_rank  # "the second bridge built", "elle se classe sixième"
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
        if _negated(claim, phrase, denied):
            continue
        other = rival(claim, phrase, key, sentences)
        in_a_name = key[-1] in _name_words(claim)  # "the First Division" ranks no one
        if other is None and not in_a_name and _ranks_nothing(claim, key, sentences, cues, stop):
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
    of its words besides a rank), ranks nothing at all: no cue, no ordinal, none
    of ``ranking_words``, no negated comparison, nor the adverb of the word an analytic cue
    ranks by ("directly": "the most direct"). A ranking such a passage never writes is
    added, not paraphrased ("the longest bridge in Riga" against "crosses the river in Riga
    ... 455 metres long")."""
    rest = claim.content - {stem_in(claim.language, w) for w in key if w in cues.ordinals}
    if not any(overlap(rest, s) >= UNRANKED_ANCHOR for s in sentences):
        return False
    analytic = key[-2:-1] and key[-2] in cues.analytic
    ranked_by = {key[-1] + end for end in cues.adverb_endings} if analytic else set()
    marks = cues.ranking_words.union(cues.ordinals)
    return not any(
        s.word_set & marks
        or s.word_set & ranked_by
        or any(_is_cue(w, cues) for w in s.word_set - _name_words(s))
        or rankings(s.words, cues, stop)  # a ranking in a name still ranks ("the First War")
        or negated_comparison(s, cues)  # "no bridge is longer than A"
        for s in sentences
    )


DENIAL_REACH = 3
"""Words a negation cue may stand from the ranking it denies: "not the largest", "no es la
estación más concurrida", "n'est pas la gare la plus fréquentée", "सबसे व्यस्त स्टेशन नहीं है"."""


def _denies(words: tuple[str, ...], cue: int, phrase: str, language: str) -> bool:
    """Whether the negation cue at ``cue`` denies the ranking ``phrase``: the phrase starts
    within ``DENIAL_REACH`` words after it (ends within them before it, in a language whose
    negation governs the words before it)."""
    written = tuple(phrase.split())
    if negation_governs_before(language):
        starts = range(max(cue - DENIAL_REACH - len(written) + 1, 0), cue - len(written) + 1)
    else:
        starts = range(cue + 1, cue + 1 + DENIAL_REACH)
    return any(words[s : s + len(written)] == written for s in starts)


def denied_by_rival(claim: Sentence, cue: int, sentences: tuple[Sentence, ...]) -> bool:
    """Whether the ranking a negation cue denies ("not the largest") is denied by the
    passage too: a sentence about the same thing ranks it otherwise ("the sixth-largest")."""
    cues = _cues(claim.language)
    if cues is None:
        return False
    stop = lexicon_or_fallback(claim.language).stopwords
    return any(
        rival(claim, phrase, key, sentences) is not None
        for phrase, key in rankings(claim.words, cues, stop)
        if _denies(claim.words, cue, phrase, claim.language)
    )


def _negated(claim: Sentence, phrase: str, denied: list[int]) -> bool:
    """Whether a negation cue denies the ranking (``_denies``: "not the largest"): a denied
    ranking claims no rank, so no passage need state one (the negation check reads the
    rest)."""
    return any(_denies(claim.words, cue, phrase, claim.language) for cue in denied)


def compared_as_ranked(claim: Sentence, sentences: tuple[Sentence, ...]) -> bool:
    """Whether the claim compares with a word of ``than`` in the terms of a ranking a passage
    sentence states without a rank: "no station in Riga is busier than Quenby Station" says
    "Quenby Station is the busiest station in Riga", so its negation denies nothing the
    passage affirms. A ranked passage ("the sixth-busiest") is not met."""
    cues = _cues(claim.language)
    words = claim.words
    if cues is None or not cues.than.intersection(words):
        return False
    compared = compared_words(words, cues)
    stop = lexicon_or_fallback(claim.language).stopwords
    return any(
        key[0] not in cues.ordinals and any(one_stem(key[-1], w) for w in compared)
        for s in sentences
        for _, key in rankings(s.words, cues, stop)
    )


def ranked_by_comparison(claim: Sentence, sentence: Sentence) -> bool:
    """Whether the sentence's negation is a negated comparison that states a ranking of the
    claim ("no bridge in Riga is longer than A" against "A is the longest bridge in Riga"):
    it negates nothing the claim affirms."""
    cues = _cues(claim.language)
    if cues is None:
        return False
    stop = lexicon_or_fallback(claim.language).stopwords
    return any(
        states_by_comparison(sentence, key, cues) for _, key in rankings(claim.words, cues, stop)
    )
