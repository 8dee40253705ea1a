"""Rankings a passage says without a superlative: a negated comparison, or a rank beside
what it ranks ("the second bridge built"). "No bridge in Riga is longer than the Harlow
Bridge." and "No other bridge is as long as the Harlow Bridge." state "the longest bridge
in Riga" ("Keine Brücke ist länger als ...",
"Aucun pont n'est plus long que ...", "Ningún puente es más largo que ...", "कोई भी पुल
... से लंबा नहीं है"), and ranks the bridges by length, not by age.

The words are each language's ``[superlatives]`` table: ``than`` (or ``than_equal``: "as"
of "as long as"), the comparative beside it
(before it, or after it where ``compared_after``), less ``not_compared`` ("other than",
"more than five"), and its negation cues. A comparative states a ranking whose last word
shares its stem ("longer", "longest"). The claim's side (a claim's negated comparison
against a passage's ranking) is ``superlatives.compared_as_ranked``.

A comparison with all others states the ranking too: "A is longer than any other bridge"
("als jede andere", "que tout autre", "que cualquier otro", "किसी भी अन्य ... से"), by the
phrases of the language's ``than_all``.
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues, lexicon_or_fallback, negation_positions
from ragguard.scoring.checks.parse import Sentence, name_words
from ragguard.scoring.checks.rankings import among, cue_at, rankings
from ragguard.scoring.checks.words import one_stem, unmarked
from ragguard.scoring.lexical.text import stem_in, stopwords_of

COMPARED_REACH = 2
"""Words a compared word may stand from the word of ``than`` in a claim: "busier than",
"more visited than" (``superlatives.compared_as_ranked``)."""


def negated_than(cues: SuperlativeCues) -> frozenset[str]:
    """The words that close a comparison a negation may turn into a ranking: ``than`` and
    ``than_equal`` ("than" of "no bridge is longer than", "as" of "no bridge is as long as")."""
    return cues.than | cues.than_equal


def compared_words(words: tuple[str, ...], cues: SuperlativeCues) -> list[str]:
    """The words within ``COMPARED_REACH`` of each word of ``than`` or ``than_equal`` after
    a word of ``none`` (a negated comparison's words: "no bridge is as long as")."""
    than = negated_than(cues)
    return [
        near
        for at, word in enumerate(words)
        if word in than and cues.none.intersection(words[:at])
        for near in (
            *words[max(at - COMPARED_REACH, 0) : at],
            *words[at + 1 : at + 1 + COMPARED_REACH],
        )
    ]


def negated_comparison(sentence: Sentence, cues: SuperlativeCues) -> list[tuple[int, str]]:
    """Where each word of ``than`` stands in a negated comparison ("no bridge is longer
    than"), with its comparative; none where the sentence negates nothing ("A is longer
    than B" ranks nothing), no word of ``none`` comes before it ("A is not longer than B")
    or a word of ``than`` compares nothing ("other than")."""
    words, than = sentence.words, negated_than(cues)
    if not than.intersection(words) or not negation_positions(words, sentence.language):
        return []
    stop, step = lexicon_or_fallback(sentence.language).stopwords, 1 if cues.compared_after else -1
    found = []
    for at, word in enumerate(words):
        near = at + step
        if word in than and 0 <= near < len(words) and cues.none.intersection(words[:at]):
            compared = words[near]
            if compared not in stop and compared not in cues.not_compared:
                found.append((at, compared))
    return found


THAN_ALL_GAP = 1
"""Words (the noun) that may stand between a ``than_all`` phrase and the word of ``than``
after it, where the compared word follows ``than``: "किसी भी अन्य पुल से लंबा"."""


def compared_with_all(sentence: Sentence, cues: SuperlativeCues) -> list[tuple[int, str, str]]:
    """Each comparison of the sentence with all others ("older than any other bridge"): where
    its word of ``than`` stands, its compared word ("older"; "ancien" of "plus ancien") and
    the phrase as read ("older than any other"). In a negated sentence only a comparison
    after a word of ``none`` (``_negated_with_all``): "not longer than any other" ranks
    nothing."""
    words = sentence.words
    if not negated_than(cues).intersection(words):
        return []  # no comparison at all: the cheap test first
    if negation_positions(words, sentence.language):
        return _negated_with_all(sentence, cues)
    if not cues.than_all or not cues.than.intersection(words):
        return []
    found = []
    for at, word in enumerate(words):
        if word not in cues.than:
            continue
        phrase = _than_all_at(words, at, cues, cues.than_all)
        if phrase is None:
            phrase = _than_all_at(words, at, cues, cues.than_others)
            if phrase is not None and not _placed_only(sentence, phrase[1], cues):
                phrase = None  # "than the other lakes nearby": a few others
        compared = _compared_beside(words, at, cues, sentence.language)
        if phrase is None or compared is None:
            continue
        start, end = min(phrase[0], compared), max(phrase[1], compared + 1)
        found.append((at, words[compared], " ".join(words[start:end])))
    return found


def _negated_with_all(sentence: Sentence, cues: SuperlativeCues) -> list[tuple[int, str, str]]:
    """A negated comparison with a word of ``none`` before it, as ``compared_with_all`` gives
    a comparison: "no bridge in Riga is longer than A" compares A with every other bridge."""
    words, step = sentence.words, 1 if cues.compared_after else -1
    return [
        (at, compared, " ".join(words[min(at, at + step) : max(at, at + step) + 1]))
        for at, compared in negated_comparison(sentence, cues)
    ]


def _than_all_at(
    words: tuple[str, ...], at: int, cues: SuperlativeCues, phrases: tuple[str, ...]
) -> tuple[int, int] | None:
    """Where the phrase of ``phrases`` (``than_all``, ``than_others``) of the word of ``than``
    at ``at`` stands: right after it, or before it, up to ``THAN_ALL_GAP`` words away, where
    the compared word follows."""
    for phrase in phrases:
        written = tuple(phrase.split())
        if cues.compared_after:
            starts = range(max(at - len(written) - THAN_ALL_GAP, 0), at - len(written) + 1)
        else:
            starts = range(at + 1, at + 2)
        for start in starts:
            if words[start : start + len(written)] == written:
                return start, start + len(written)
    return None


def _placed_only(sentence: Sentence, end: int, cues: SuperlativeCues) -> bool:
    """Whether nothing follows the noun after a ``than_others`` phrase (ending at ``end``)
    but function words, names and ``place_kinds`` words ("bridges in Riga", "of the
    city"). Where the compared word follows (Hindi), what stands before the phrase is the
    scope, read by the place rules."""
    if cues.compared_after:
        return True
    stop = lexicon_or_fallback(sentence.language).stopwords
    placed = stop | name_words(sentence) | cues.place_kinds
    return all(w in placed for w in sentence.words[end + 1 :])


def _compared_beside(
    words: tuple[str, ...], at: int, cues: SuperlativeCues, language: str
) -> int | None:
    """Where the compared word of the word of ``than`` at ``at`` stands: the first word within
    ``COMPARED_REACH`` on its side that is neither a function word nor one of
    ``not_compared`` ("ज़्यादा व्यस्त": "व्यस्त")."""
    stop = lexicon_or_fallback(language).stopwords
    reach = (
        range(at + 1, min(at + 1 + COMPARED_REACH, len(words)))
        if cues.compared_after
        else range(at - 1, max(at - 1 - COMPARED_REACH, -1), -1)
    )
    return next(
        (i for i in reach if words[i] not in stop and words[i] not in cues.not_compared), None
    )


def ranking_comparisons(sentence: Sentence, cues: SuperlativeCues) -> list[tuple[int, str]]:
    """The comparisons of the sentence that state a ranking, with their compared words: the
    negated ones ("no bridge is longer than A") and those with all others ("A is longer
    than any other bridge")."""
    with_all = [(at, compared) for at, compared, _ in compared_with_all(sentence, cues)]
    return negated_comparison(sentence, cues) + with_all


NAMED_REACH = 4
"""Words after a word of ``than`` the name it compares with may stand: "than the Orlen Bridge",
"que le pont Orlen"."""


def comparison_only(
    sentence: Sentence, cues: SuperlativeCues, adverbs: bool = False
) -> frozenset[str]:
    """The words of the sentence's comparisons with one named thing, which rank nothing:
    each word of ``than`` with a compared word next to it and a word of one of the
    sentence's names within ``NAMED_REACH`` after it, and the analytic cue just before the
    compared word ("than" of "longer than the Orlen Bridge"; "plus", "que" of "plus long que
    le pont Orlen"); with ``adverbs``, a cue of ``words`` none of ``after`` leads too ("Only
    the Orlen Bridge is longer", "Seul le pont Orlen"): it ranks the thing compared second,
    none first. None where a comparison states a ranking (``ranking_comparisons``): "older
    than the rocks above" may say "the oldest" in other words."""
    words = sentence.words
    if not cues.than.intersection(words) or ranking_comparisons(sentence, cues):
        return frozenset()
    named = name_words(sentence)
    found: set[str] = set()
    for at, word in enumerate(words):
        if word not in cues.than or not named.intersection(words[at + 1 : at + 1 + NAMED_REACH]):
            continue
        compared = _compared_beside(words, at, cues, sentence.language)
        if compared is None or abs(compared - at) > 1:  # "shows other than PBS"
            continue
        found.add(word)
        if compared > 0 and words[compared - 1] in cues.analytic:
            found.add(words[compared - 1])
    if found and adverbs:
        found.update(
            w
            for at, w in enumerate(words)
            if w in cues.words and (at == 0 or words[at - 1] not in cues.after)
        )
    return frozenset(found)


def states_by_comparison(sentence: Sentence, key: tuple[str, ...], cues: SuperlativeCues) -> bool:
    """Whether the sentence says the ranking ``key`` (no rank: "the longest", not "the
    second-longest") as a comparison (``ranking_comparisons``)."""
    return _states(ranking_comparisons(sentence, cues), key, cues)


def _states(found: list[tuple[int, str]], key: tuple[str, ...], cues: SuperlativeCues) -> bool:
    """Whether one of the comparatives ``found`` says ``key``: its last word's stem."""
    return key[0] not in cues.ordinals and any(one_grade(w, key[-1]) for _, w in found)


def one_grade(compared: str, ranked: str) -> bool:
    """Whether a compared word is the ranking word ``ranked`` in another degree: one stem
    ("longer", "longest"), or the plain word that ``ranked`` extends, read without umlauts
    or accents and without a last "y" or "e" ("old" of "oldest", "busy" of "busiest",
    "alt" of "älteste": "as old as", "so alt wie")."""
    if one_stem(ranked, compared):
        return True
    plain, extended = unmarked(compared), unmarked(ranked)
    return len(plain) >= PLAIN_LETTERS and (
        extended.startswith(plain) or (plain[-1] in "ye" and extended.startswith(plain[:-1]))
    )


PLAIN_LETTERS = 3
"""Letters a plain word needs to be read as the start of a ranking word ("old")."""


def compared_otherwise(sentence: Sentence, key: tuple[str, ...], cues: SuperlativeCues) -> str:
    """The words of a comparison that states a ranking by another word than ``key`` ("longer
    than" against "the oldest"); "" where the sentence states ``key`` or makes none."""
    found = ranking_comparisons(sentence, cues)
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
    found = rank_beside(words, ranked, cues, language)
    return " ".join(words[found[0] : found[0] + 2]) if found else ""


def rank_beside(
    words: tuple[str, ...],
    ranked: frozenset[str],
    cues: SuperlativeCues,
    language: str,
    first: bool = False,
    reach: int = RANK_REACH,
    letters: int = 4,
) -> tuple[int, float] | None:
    """Where an ordinal stands within ``reach`` words of one of the ``ranked`` nouns (in
    another inflection, sharing ``letters`` at least: ``one_stem``), and its value; with
    ``first``, a word of ``first_ranks`` too ("ranks first among the lakes"). None where
    none does."""
    for at, word in enumerate(words):
        value = rank_value(word, cues, first)
        near = words[max(at - reach, 0) : at] + words[at + 1 : at + 1 + reach]
        if value is not None and any(
            one_stem(stem_in(language, w), r, letters) for w in near for r in ranked
        ):
            return at, value
    return None


def rank_value(word: str, cues: SuperlativeCues, first: bool = False) -> float | None:
    """The rank a word gives: an ordinal's value ("second", and "zweiten" of "zweitgrößte"
    where the language joins ordinals to words), or 1 for a word of ``first_ranks`` with
    ``first``; None for any other word."""
    value = 1.0 if first and word in cues.first_ranks else cues.ordinals.get(word)
    if value is None and cues.compounds:
        stems = ((o, v) for o, v in cues.ordinals.items() if len(word) <= len(o) + 2)
        value = next((v for o, v in stems if word.startswith(o)), None)
    return value


def states_compared(
    sentence: Sentence, compared: str, cues: SuperlativeCues, stop: frozenset[str]
) -> bool:
    """Whether the sentence ranks alone, without a rank, by the stem of ``compared``:
    "the oldest" or "older than all others" says "older than any other"."""
    if states_by_comparison(sentence, (compared,), cues):
        return True
    return any(
        key[0] not in cues.ordinals
        and one_stem(compared, key[-1])
        and among(sentence.words, cue_at(sentence.words, phrase, cues), cues) is None
        for phrase, key in rankings(sentence.words, cues, stop)
    )


def _compared_against(sentence: Sentence) -> tuple[int, str] | None:
    """Where the sentence's comparison word stands, and the first content word after it."""
    than = lexicon_or_fallback(sentence.language).superlatives.than
    stop = stopwords_of(sentence.language)
    words = sentence.words
    at = next((i for i, w in enumerate(words) if w in than), None)
    if at is None:
        return None
    after = next((w for w in words[at + 1 :] if w not in stop and w.isalpha()), "")
    return (at, after) if after else None


def compared_conversely(claim: Sentence, anchor: Sentence) -> bool:
    """Whether the two sentences compare the same two things the other way round: what the
    anchor compares against stands before the claim's comparison word, and what the claim
    compares against before the anchor's ("metals have higher melting points than
    nonmetals" and "nonmetals have lower melting points than metals")."""
    mine, theirs = _compared_against(claim), _compared_against(anchor)
    if mine is None or theirs is None:
        return False
    (claim_at, claim_other), (anchor_at, anchor_other) = mine, theirs
    language = claim.language
    before_claim = {stem_in(language, w) for w in claim.words[:claim_at]}
    before_anchor = {stem_in(language, w) for w in anchor.words[:anchor_at]}
    return stem_in(language, anchor_other) in before_claim and (
        stem_in(language, claim_other) in before_anchor
    )
