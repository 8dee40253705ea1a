"""A passage sentence that ranks the claim's subject under another noun: by the claim's measure
with another rank ("the third-highest mountain" against "the tallest peak"), or by another
measure ("the tallest tower" against "the oldest building"). Either way the sentence gives
the subject a ranking the claim's does not match, so the claim's is no paraphrase of it."""

from __future__ import annotations

from ragguard.language import SuperlativeCues
from ragguard.runtime import memoized
from ragguard.scoring.checks.comparisons import one_grade, rank_beside, rank_value
from ragguard.scoring.checks.outranked import outranked_findings
from ragguard.scoring.checks.parse import Sentence, overlap
from ragguard.scoring.checks.rankings import (
    among,
    cue_at,
    cues_of,
    phrase_at,
    ranked_nouns,
    rankings,
    same_ranking,
    shared_count,
    split_rank,
)
from ragguard.scoring.interface.protocols import Reason


def ranked_by_the_same_measure(
    key: tuple[str, ...],
    its: tuple[str, ...],
    subject: frozenset[str],
    before: frozenset[str],
    cues: SuperlativeCues,
    language: str,
) -> bool:
    """Whether a sentence ranks the claim's subject by the claim's measure with another rank,
    whatever noun it ranks: its ranking ``its`` is ``key``, or a word of the same
    ``dimensions`` measure, after a rank, or ``key`` less its rank ("the third-highest
    mountain" against "the tallest peak"), and the claim's ``subject`` stands in the words
    ``before`` it (not "the element hydrogen" against "Helium is the second most abundant
    element, after hydrogen")."""
    (our_rank, ours), (their_rank, theirs) = split_rank(key, cues), split_rank(its, cues)
    if (our_rank is None) == (their_rank is None) or not ours or not theirs:
        return False
    if not same_ranking(ours, theirs, cues) and not _one_measure(ours, theirs, language):
        return False
    return _stands_before(subject, before)


def _one_measure(ours: tuple[str, ...], theirs: tuple[str, ...], language: str) -> bool:
    """Whether two rankings' last words rank by one listed measure ("tallest", "highest")."""
    measure = measure_of(ours[-1], language)
    return measure is not None and measure == measure_of(theirs[-1], language)


def ranked_by_another_measure(
    key: tuple[str, ...],
    its: tuple[str, ...],
    ranked: frozenset[str],
    sentence: Sentence,
    subject: frozenset[str],
    before: frozenset[str],
    cues: SuperlativeCues,
) -> bool:
    """Whether a sentence ranks the claim's subject by another measure of the language's
    ``dimensions`` than the claim's ranking, neither with a rank, where the sentence holds
    none of the nouns the claim ranks (``ranked``). Only measures count: two rankings by
    other words ("the finest", "the highest quality"; "the most evolved", "the most
    successful") may be one said two ways, and the training sets show them supported. A
    claim that its subject is the only one of a kind (``_exclusive``: "the only viaduct") is
    not a ranking by a measure either way, whatever noun the sentence ranks ("the longest
    bridge", "the tallest building" of "the Orsk Tower")."""
    if _exclusive(key, cues, sentence.language) and not _exclusive(its, cues, sentence.language):
        return _stands_before(subject, before)
    if not ranked or shared_count(ranked, sentence.content):
        return False
    if split_rank(key, cues)[0] is not None or split_rank(its, cues)[0] is not None:
        return False
    ours, theirs = measure_of(key[-1], sentence.language), measure_of(its[-1], sentence.language)
    if ours is None or theirs is None or ours == theirs:
        return False
    return _stands_before(subject, before)


def _exclusive(key: tuple[str, ...], cues: SuperlativeCues, language: str) -> bool:
    """Whether a ranking says its subject is the only one of its kind: a word of ``words``
    alone ("only", "seul", "एकमात्र"), not a first rank and of no measure."""
    return (
        len(key) == 1
        and key[0] in cues.words
        and key[0] not in cues.first_ranks
        and measure_of(key[0], language) is None
    )


def _stands_before(subject: frozenset[str], before: frozenset[str]) -> bool:
    """Whether every word of the claim's ``subject`` stands in the words ``before`` the
    sentence's ranking: the sentence ranks the claim's subject, not another thing."""
    return bool(subject) and shared_count(subject, before) == len(subject)


@memoized(entries=4_096)
def measure_of(word: str, language: str) -> int | None:
    """The place in the language's ``dimensions`` of the measure a ranking's word ranks by,
    its plain word in another degree (``one_grade``: "old" of "oldest", "hoch" of
    "höchste"); None for a word of no listed measure."""
    cues = cues_of(language)
    for place, group in enumerate(cues.dimensions if cues is not None else ()):
        if any(one_grade(plain, word) for plain in group.split()):
            return place
    return None


CLAIMED_REACH = 4
"""Words a claimed rank may stand from the noun it ranks among, a word for the place between
("an zweiter Stelle unter den Seen", "el segundo puesto entre las estaciones")."""


def claimed_rank_findings(
    claim: Sentence,
    own: list[tuple[str, tuple[str, ...]]],
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
    stop: frozenset[str],
) -> list[Reason]:
    """A rank the claim gives its subject with no superlative ("ranks second among the
    lakes", "an zweiter Stelle", "se classe deuxième parmi les gares", "दूसरे स्थान पर")
    where a sentence ranks the subject otherwise ("the sixth-largest lake"); else a
    comparison that puts the subject above a thing the passage ranks higher
    (``outranked``: "longer than the Orlen Bridge" against "the longest"). A claim with a
    ranking of its own (``own``, as ``rankings`` reads it) is read by the rules above."""
    if any(key[0] not in cues.first_ranks for _, key in own):
        return []  # "el primer puesto" is read here, as "ranks first"
    if all(rank_value(w, cues, first=True) is None for w in claim.words):
        return outranked_findings(claim, sentences, cues, stop)  # ``rank_beside`` finds none
    for sentence in sentences:
        if not overlap(claim.content, sentence):
            continue
        for other, its in rankings(sentence.words, cues, stop):
            at = cue_at(sentence.words, other, cues)
            nouns = ranked_nouns(sentence.words, other, its, cues, claim.language)
            if among(sentence.words, at, cues) is not None or not nouns or its[-1] in cues.words:
                continue  # "one of the largest" ranks none; "the first", "the only" no measure
            claimed = rank_beside(
                claim.words, nouns, cues, claim.language, first=True, reach=CLAIMED_REACH, letters=3
            )  # "an zweiter Stelle unter den Seen" against "der ... See"
            if claimed is None or claimed[1] == (split_rank(its, cues)[0] or 1):
                continue
            start = max(phrase_at(sentence.words, other), 0)
            subject = frozenset(claim.words[: claimed[0]]) - stop
            if subject & frozenset(sentence.words[:start]):
                return [Reason("superlative", claim.words[claimed[0]], other)]
    return outranked_findings(claim, sentences, cues, stop)
