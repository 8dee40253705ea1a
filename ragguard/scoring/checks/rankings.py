"""How a sentence ranks: the rankings it writes ("the tallest", "the most visited", "the
second-longest", "el puente más largo"), by its language's ``[superlatives]`` table
(``ragguard.language``), what each ranks ("bridge" of "the longest bridge"), and whether a
ranking stands among others ("one of the busiest"). The superlative check
(``superlatives``) compares a claim's rankings with the passage's."""

from __future__ import annotations

from functools import cache

from ragguard.language import SUPPORTED, SuperlativeCues, lexicon, lexicon_or_fallback
from ragguard.scoring.checks.words import has_ending, one_stem
from ragguard.scoring.lexical.text import stem_in


def cues_of(language: str) -> SuperlativeCues | None:
    """The language's ``[superlatives]`` table; None without a lexicon."""
    found = lexicon(language)
    return found.superlatives if found is not None else None


def is_cue(word: str, cues: SuperlativeCues) -> bool:
    """Whether ``word`` ranks by itself or by its ending ("only", "most", "tallest")."""
    if word in cues.words or word in cues.analytic:
        return True
    if word in cues.not_superlative or (cues.compounds and _ends_a_compound(word, cues)):
        return False
    return has_ending(word, cues.endings)


def unranked(word: str, cues: SuperlativeCues) -> str:
    """A cue less the rank it is joined to, where the language joins them ("zweitgrößte":
    "größte"); any other word as it is."""
    for ordinal in cues.ordinals:
        rest = word[len(ordinal) :]
        if word.startswith(ordinal) and rest != word and is_cue(rest, cues):
            return rest
    return word


def split_rank(key: tuple[str, ...], cues: SuperlativeCues) -> tuple[float | None, tuple[str, ...]]:
    """A ranking's key as its rank and the key less it (("second", "highest") -> 2,
    ("highest",); ("zweitgrößte",) -> 2, ("größte",)); no rank (None) and the key as it is
    for the top."""
    if key and key[0] in cues.ordinals:
        return cues.ordinals[key[0]], key[1:]
    if key and cues.compounds and unranked(key[0], cues) != key[0]:
        value = next(v for o, v in cues.ordinals.items() if key[0].startswith(o))
        return value, (unranked(key[0], cues), *key[1:])
    return None, key


def key_positions(words: tuple[str, ...], key: tuple[str, ...], cues: SuperlativeCues) -> list[int]:
    """Where ``words`` write ``key``, each word in any of its inflections (``same_ranking``)."""
    return [
        at
        for at in range(len(words) - len(key) + 1)
        if same_ranking(words[at : at + len(key)], key, cues)
    ]


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


def _intensifier_at(words: tuple[str, ...], end: int, cues: SuperlativeCues) -> int:
    """The length of an ``intensifiers`` phrase that ends at ``end`` right after a word of
    ``after`` ("very" of "the very largest", "mit abstand" of "der mit Abstand größte");
    0 where none does. It says how plainly, not what, a ranking ranks."""
    for phrase in cues.intensifiers:
        written = tuple(phrase.split())
        start = end - len(written) + 1
        if start >= 1 and words[start : end + 1] == written and words[start - 1] in cues.after:
            return len(written)
    return 0


def rankings(
    words: tuple[str, ...], cues: SuperlativeCues, stopwords: frozenset[str] = frozenset()
) -> list[tuple[str, tuple[str, ...]]]:
    """Each ranking of a sentence's ``words`` (lower case): the phrase as read ("the most
    visited") and the words a passage must write to state it (("most", "visited")). A rank
    keeps its ordinal (("second", "longest")): "the second-longest" is not "the longest". An
    analytic cue before a function word (``stopwords``: "the most with") ranks nothing."""
    found: list[tuple[str, tuple[str, ...]]] = []
    ends: set[int] = set()
    for at, word in enumerate(words):
        if not is_cue(word, cues):
            continue
        lead = at - 1
        ordinal = lead >= 0 and words[lead] in cues.ordinals
        rank_at = lead
        if ordinal:
            lead -= 1  # "the second-largest"
        elif _noun_between(words, lead, word, cues):
            lead -= 1  # "el puente más largo"
        elif _noun_between(words, lead - 1, word, cues) and words[lead - 1] not in cues.ordinals:
            lead -= 2  # "el nudo ferroviario más concurrido"
        elif _noun_between(words, lead - 1, word, cues) and words[lead - 1] in cues.ordinals:
            ordinal, rank_at = True, lead - 1  # "el segundo puente más largo"
            lead -= 2
        elif _noun_between(words, lead - 2, word, cues) and words[lead - 1] in stopwords:
            lead -= 3  # "la masa de agua más grande"
        elif word in cues.analytic and lead >= 2 and _ranks_a_noun(words, lead, cues):
            ordinal, rank_at = True, lead - 2  # "la sixième gare la plus fréquentée"
            lead -= 3
        lead -= _intensifier_at(words, lead, cues)  # "the very largest", "der weitaus größte"
        grouped = lead >= 1 and _counted(words[lead]) and words[lead - 1] in _openers(cues)
        if grouped:
            lead -= 1  # "the three longest", "l'un des trois plus longs": among the top
        coordinated = lead >= 1 and words[lead] in cues.coordinators and lead in ends
        opened = grouped or coordinated
        if cues.after and not opened and (lead < 0 or words[lead] not in cues.after):
            continue  # "the longest and oldest" ranks by age too
        key: tuple[str, ...] = (word,)
        if word in cues.analytic:
            if at + 1 >= len(words) or words[at + 1] in stopwords:
                continue
            key = (word, words[at + 1])
        if ordinal:
            key = (words[rank_at], *key)
        start = lead if cues.after or coordinated else rank_at if ordinal else at
        found.append((" ".join(words[start : at + len(key) - ordinal]), key))
        ends.add(at + len(key) - ordinal)
    return found


GROUP_COUNTS = range(2, 21)
"""The counts a group of the top may have ("the three longest", "die zehn größten")."""


@cache
def _counts() -> frozenset[str]:
    """The number words of every supported language for ``GROUP_COUNTS``."""
    found = (lexicon(code) for code in SUPPORTED)
    return frozenset(
        word
        for lex in found
        if lex is not None
        for word, value in lex.numbers.words.items()
        if value in GROUP_COUNTS
    )


def _openers(cues: SuperlativeCues) -> frozenset[str]:
    """The words a group of the top may follow: an article of ``after``, or the last word
    of an ``among`` phrase ("l'un des trois plus longs")."""
    return frozenset(cues.after) | {phrase.split()[-1] for phrase in cues.among}


def _counted(word: str) -> bool:
    """Whether ``word`` counts a group of the top: a number from 2 to 20, in digits or in
    words of any supported language."""
    return (word.isdigit() and int(word) in GROUP_COUNTS) or word in _counts()


def _ranks_a_noun(words: tuple[str, ...], lead: int, cues: SuperlativeCues) -> bool:
    """Whether an ordinal and a noun come before the article ``lead`` of an analytic cue:
    "la sixième gare la plus fréquentée" ranks the station sixth."""
    return (
        words[lead] in cues.after
        and words[lead - 1] not in cues.after
        and words[lead - 2] in cues.ordinals
    )


AMONG_REACH = 5
"""Words an ``among`` phrase may stand from the cue it ranks among others: "l'une des gares
les plus fréquentées", "सबसे व्यस्त स्टेशनों में से एक"."""


def among(words: tuple[str, ...], at: int, cues: SuperlativeCues) -> tuple[int, int] | None:
    """Where the phrase of the language's ``among`` stands that ranks the cue at ``at``
    among others ("one of" the busiest), or the count of a group right before it ("the
    three longest"); None where the cue ranks alone."""
    if at >= 1 and _counted(words[at - 1]):
        return at - 1, at  # "among the three longest", "zu den drei längsten"
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


def same_ranking(one: tuple[str, ...], other: tuple[str, ...], cues: SuperlativeCues) -> bool:
    """Whether two rankings' keys are one, each word in any inflection ("verkehrsreichsten",
    "les plus fréquentées")."""
    return (
        len(one) == len(other)
        and _inflected(one[1:], other[1:])
        and _same_head(one[0], other[0], cues)
    )


def _same_head(one: str, other: str, cues: SuperlativeCues) -> bool:
    """Whether two rankings' first words are one: ranks of one value ("segundo", "segunda"),
    or cues of one base; a plain word is no cue of its base ("long", "longest")."""
    if one in cues.ordinals or other in cues.ordinals:
        return cues.ordinals.get(one) == cues.ordinals.get(other)
    if is_cue(one, cues) != is_cue(other, cues):
        return False  # "long" of "455 metres long" is no "longest"
    return cue_base(one, cues) == cue_base(other, cues)


def _inflected(words: tuple[str, ...], key: tuple[str, ...]) -> bool:
    """Whether ``words`` are ``key``'s, each in any inflection ("fréquentées", "fréquentée")."""
    return len(words) == len(key) and all(one_stem(a, b) for a, b in zip(words, key, strict=True))


def cue_at(words: tuple[str, ...], phrase: str, cues: SuperlativeCues) -> int:
    """Where the cue of a ranking ``phrase`` stands in ``words``; -1 where it is not."""
    start = phrase_at(words, phrase)
    if start < 0:
        return -1
    end = start + len(phrase.split())
    return next((i for i in range(start, end) if is_cue(words[i], cues)), -1)


def ranks_no_fact(
    words: tuple[str, ...], phrase: str, key: tuple[str, ...], cues: SuperlativeCues, language: str
) -> bool:
    """Whether a ranking ``phrase`` opens an idiom (``occasions``: "in the first place") or
    ranks by a judgement (the language's evaluative words: "the most enjoyable", "the
    prettiest"): nothing a passage must rank for the claim to hold, though a rival ranking
    may still contradict it."""
    start = phrase_at(words, phrase)
    end = start + len(phrase.split())
    if start >= 0 and end < len(words) and words[end] in cues.occasions:
        return True
    judged = _evaluative(language)
    return " ".join(key) in judged or key[-1] in judged


@cache
def _evaluative(language: str) -> frozenset[str]:
    """The language's evaluative words (``[subjective] evaluative``), lower case."""
    return frozenset(lexicon_or_fallback(language).subjective.get("evaluative", ()))


def phrase_at(words: tuple[str, ...], phrase: str) -> int:
    """Where a ranking ``phrase`` (as ``rankings`` reads it) first starts in ``words``; -1
    where it does not."""
    written = tuple(phrase.split())
    return next(
        (s for s in range(len(words) - len(written) + 1) if words[s : s + len(written)] == written),
        -1,
    )


def cue_base(word: str, cues: SuperlativeCues) -> str:
    """A cue less its inflected ending ("höchsten", "höchste": "höch"); any other word as is."""
    if not is_cue(word, cues):
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
    "el puente más largo"), stemmed; with a ranking joined to it by a coordinator, what
    that one ranks too ("the oldest and longest bridge", "el puente más largo y más
    antiguo")."""
    start = phrase_at(words, phrase)
    if start < 0:
        return frozenset()
    found = _own_nouns(words, start, phrase, key, cues, language)
    end = start + len(phrase.split())
    for other, its in _coordinated(words, start, end, cues, language):
        found |= _own_nouns(words, phrase_at(words, other), other, its, cues, language)
    return found


def _own_nouns(
    words: tuple[str, ...],
    start: int,
    phrase: str,
    key: tuple[str, ...],
    cues: SuperlativeCues,
    language: str,
) -> frozenset[str]:
    stop, end = lexicon_or_fallback(language).stopwords, start + len(phrase.split())
    near = words[max(start - 1, 0) : end + 1]
    left = [w for w in near if w not in stop and w not in key and w not in cues.after]
    if not [w for w in left if not is_cue(w, cues)]:  # "the longest of Riga's bridges"
        left = [w for w in _partitive_group(words, end, cues) if w not in stop]
    return frozenset(stem_in(language, w) for w in left if not is_cue(w, cues))


def _coordinated(
    words: tuple[str, ...], start: int, end: int, cues: SuperlativeCues, language: str
) -> list[tuple[str, tuple[str, ...]]]:
    """The rankings joined by a coordinator to the one from ``start`` to ``end``: the one
    ending at the coordinator before it, the one starting at (or after) the one after it."""
    if not cues.coordinators:
        return []
    before = start if words[start] in cues.coordinators else start - 1
    after = end if end < len(words) and words[end] in cues.coordinators else -1
    if before < 1 or words[before] not in cues.coordinators:
        before = -1
    if before < 0 and after < 0:
        return []
    stop = lexicon_or_fallback(language).stopwords
    joined = []
    for other, its in rankings(words, cues, stop):
        at = phrase_at(words, other)
        if (at >= 0 and at + len(other.split()) == before) or (
            after >= 0 and at in (after, after + 1)
        ):
            joined.append((other, its))
    return joined


def shared_count(ours: frozenset[str], theirs: frozenset[str]) -> int:
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
