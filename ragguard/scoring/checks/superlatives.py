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

from ragguard.language import (
    PeriodWords,
    SuperlativeCues,
    lexicon_or_fallback,
    negation_governs_before,
    negation_positions,
    section,
)
from ragguard.scoring.checks.comparisons import (
    compared_otherwise,
    compared_with_all,
    compared_words,
    comparison_only,
    negated_than,
    one_grade,
    rank_of,
    ranking_comparisons,
    states_by_comparison,
    states_compared,
)
from ragguard.scoring.checks.holders import (
    clauses_of,
    compared_held_by_another,
    held_by_another,
    own_clauses,
)
from ragguard.scoring.checks.narrowed import held_before, narrower, narrower_place
from ragguard.scoring.checks.parse import MIN_SHARED, Sentence, name_words, overlap
from ragguard.scoring.checks.rankings import (
    among,
    cue_at,
    cue_base,
    cues_of,
    is_cue,
    key_positions,
    phrase_at,
    ranked_nouns,
    rankings,
    ranks_no_fact,
    same_ranking,
    shared_count,
    split_rank,
    unranked,
)
from ragguard.scoring.checks.runners_up import SECOND, second_to_another
from ragguard.scoring.checks.subject_rankings import (
    claimed_rank_findings,
    ranked_by_another_measure,
    ranked_by_the_same_measure,
)
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in


def _states(
    sentence: Sentence, key: tuple[str, ...], cues: SuperlativeCues, alone: bool = True
) -> bool:
    """Whether the sentence writes ``key``, each word in any of its inflections ("höchsten"
    of "höchste", "les plus fréquentées" of "la plus fréquentée"); for a ranking claimed
    ``alone``, a key without an ordinal only where no ordinal comes before it ("the
    sixth-largest" does not state "the largest") and not among others ("one of the busiest"
    does not state "the busiest"). A ranking among others is stated by a rank ("the
    third-largest" is "one of the largest")."""
    words, ordinals = sentence.words, cues.ordinals
    if key[0] in ordinals:  # the rank next to the cue, or a noun between ("el segundo puente")
        return any(
            ordinals.get(words[i]) == ordinals[key[0]]
            and key[1:] in (words[i + skip : i + skip + len(key) - 1] for skip in (1, 2, 3))
            for i in range(len(words))
        )
    if states_by_comparison(sentence, key, cues):  # "no bridge is longer than A"
        return True
    base = cue_base(key[0], cues)
    reach = 3 if key[0] in cues.analytic else 2  # "la sixième gare la plus fréquentée"
    if base == key[0] and key[0] not in sentence.word_set:
        return False
    if not alone and cues.compounds:  # "zweitverkehrsreichste": one of the busiest
        words = tuple(unranked(w, cues) for w in words)
    return any(
        not (alone and any(w in ordinals for w in words[max(i - reach, 0) : i]))
        and not (alone and among(words, i, cues) is not None)
        for i in key_positions(words, key, cues)
    )


def _among_phrase(words: tuple[str, ...], phrase: str, cues: SuperlativeCues) -> str:
    """A ranking ``phrase`` of ``words`` with the ``among`` words that rank it among others
    ("one of the busiest"), or an empty string where it ranks alone."""
    start = phrase_at(words, phrase)
    found = among(words, cue_at(words, phrase, cues), cues)
    if found is None:
        return ""
    return " ".join(words[min(found[0], start) : max(found[1], start + len(phrase.split()))])


def _closes(words: tuple[str, ...], phrase: str, stop: frozenset[str]) -> bool:
    """Whether only function words (``stop``, with the words of the claim's names) follow the
    ranking ``phrase`` ("is the busiest.", "is the oldest in Riga", "सबसे व्यस्त है"): it
    ranks nothing the claim names ("the most abundant in the universe" ranks within the
    universe)."""
    start = phrase_at(words, phrase)
    return start >= 0 and all(w in stop for w in words[start + len(phrase.split()) :])


def rival(
    claim: Sentence, phrase: str, key: tuple[str, ...], sentences: tuple[Sentence, ...]
) -> str | None:
    """The ranking of a sentence about the claim's subject that ranks the same thing
    otherwise than ``key`` ("the sixth-largest lake" against "the largest lake", "the
    longest bridge" against "the newest bridge"); None where a sentence states ``key`` or
    none ranks that thing otherwise. A ranking of something else ("the most plentiful
    element" against "the most abundant in the universe") is no rival: likely a paraphrase."""
    cues = cues_of(claim.language)
    if cues is None:
        return None
    alone = among(claim.words, cue_at(claim.words, phrase, cues), cues) is None
    stating = [s for s in sentences if _states(s, key, cues, alone)]
    rank, top = split_rank(key, cues)
    second = rank == SECOND
    wanted = (stating and alone) or (second and not stating)
    subject = _subject(claim, phrase, key, cues) if wanted else frozenset()
    otherwise = [
        second_to_another(s, key, subject, cues)
        or narrower(claim, phrase, key, s, cues)
        or narrower_place(claim, phrase, key, s, cues)
        or held_before(claim, key, s, cues)
        for s in (stating if alone else ())
    ]
    if otherwise and all(otherwise):  # "the largest lake after Lake Vorna", "the largest
        return otherwise[0]  # natural lake" against "the largest lake"
    if stating:
        return None
    # "the second largest" of "the largest after A"
    if second and any(second_to_another(s, top, subject, cues) for s in sentences):
        return None
    return _ranked_otherwise(claim, phrase, key, sentences, cues)


def _ranked_otherwise(
    claim: Sentence,
    phrase: str,
    key: tuple[str, ...],
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
) -> str | None:
    """``rival``'s search, once no sentence states ``key``."""
    stop = lexicon_or_fallback(claim.language).stopwords
    ranked = ranked_nouns(claim.words, phrase, key, cues, claim.language)
    bare = not ranked and _closes(claim.words, phrase, stop | name_words(claim))
    for sentence in sentences:
        if not ((ranked or bare) and overlap(claim.content, sentence)):
            continue
        for other, its in rankings(sentence.words, cues, stop):
            # a ranking with no noun ("is the busiest.", "of all the bridges ..., A is the
            # longest") ranks what its sentence is about; the same ranking among others
            # ranks the same thing
            nouns = ranked_nouns(sentence.words, other, its, cues, claim.language)
            if (
                bare
                or same_ranking(its, key, cues)
                or shared_count(ranked, nouns or sentence.content)
                or _ranks_subject_otherwise(claim, phrase, key, ranked, other, its, sentence, cues)
            ):
                return _among_phrase(sentence.words, other, cues) or other
        compared = compared_otherwise(sentence, key, cues)  # "no bridge is longer than A"
        if compared and (bare or ranked & sentence.content):
            return compared
    for sentence in sentences if key[0] not in cues.ordinals and ranked else ():
        ranked_by_rank = rank_of(sentence.words, ranked, cues, claim.language)
        if ranked_by_rank and shared_count(claim.content, sentence.content) >= MIN_SHARED:
            return ranked_by_rank  # "the second bridge built", "elle se classe sixième"
    return None


def _ranks_subject_otherwise(
    claim: Sentence,
    phrase: str,
    key: tuple[str, ...],
    ranked: frozenset[str],
    other: str,
    its: tuple[str, ...],
    sentence: Sentence,
    cues: SuperlativeCues,
) -> bool:
    """Whether the sentence's ranking ``other`` ranks the claim's subject under another
    noun: by the claim's measure with another rank, or by another measure
    (``subject_rankings``)."""
    at = phrase_at(sentence.words, other)
    scope = frozenset(sentence.words[at + len(other.split()) :]) if at >= 0 else frozenset()
    subject = _subject(claim, phrase, key, cues) - scope  # not "Arvenia" of "Arvenia's tallest"
    before = _before(sentence, other)
    language = claim.language
    return ranked_by_the_same_measure(
        key, its, subject, before, cues, language
    ) or ranked_by_another_measure(key, its, ranked, sentence, subject, before, cues)


def _before(sentence: Sentence, phrase: str) -> frozenset[str]:
    """The content words of the sentence before its ranking ``phrase``."""
    stop = lexicon_or_fallback(sentence.language).stopwords
    at = max(phrase_at(sentence.words, phrase), 0)
    return frozenset(w for w in sentence.words[:at] if w not in stop)


def _subject(
    claim: Sentence, phrase: str, key: tuple[str, ...], cues: SuperlativeCues
) -> frozenset[str]:
    """What the claim ranks: the words of its names before its ranking ``phrase`` ("mount
    kessel"), else the content words before it less the nouns it ranks."""
    before = _before(claim, phrase)
    named = name_words(claim) & before
    if named:
        return frozenset(named)
    return before - ranked_nouns(claim.words, phrase, key, cues, claim.language)


def superlative_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The rankings of the claim that an evidence sentence about the same thing ranks
    otherwise (``rival``)."""
    cues = cues_of(claim.language)
    if cues is None:
        return []
    stop = lexicon_or_fallback(claim.language).stopwords
    denied = negation_positions(claim.words, claim.language)
    found = []
    own = rankings(claim.words, cues, stop)
    for phrase, key in own:
        if _negated(claim, phrase, denied):
            continue
        if _in_a_period(claim, key):
            continue  # "la primera mitad del siglo XX" ranks no one
        other = rival(claim, phrase, key, sentences)
        if other is None:
            other = _held_otherwise(claim, phrase, key, sentences)
        # "the First Division" ranks no one; "in the first place" no thing
        idiom = ranks_no_fact(claim.words, phrase, key, cues, claim.language)
        unread = other is None and not idiom and key[-1] not in name_words(claim)
        if unread and _ranks_nothing(claim, phrase, key, sentences, cues, stop):
            other = ""
        if other is None and _widened(claim, key, sentences, cues):
            other = ""  # "the longest bridge in the world" against "... in Riga"
        if other is not None:
            found.append(Reason("superlative", phrase, other))
    if not found and not denied:  # a denied or already read rank is no claimed one
        found = claimed_rank_findings(claim, own, sentences, cues, stop)
    return found + _compared_with_all_findings(claim, sentences, cues, stop)


def _held_otherwise(
    claim: Sentence, phrase: str, key: tuple[str, ...], sentences: tuple[Sentence, ...]
) -> str | None:
    """The ranking a clause about the claim's subject gives it, or else the other thing a
    clause that states the claim's ranking gives it to, where that clause holds another
    thing's label (``holders.held_by_another``: "The Orlen Bridge is the longest bridge in
    Riga" against "The Kellan Bridge is the longest bridge in Riga"; "Lake Vorna is the
    largest lake in Latvia and Lake Tessel is the second largest" against "Lake Tessel is
    the largest lake in Latvia")."""
    cues = cues_of(claim.language)
    if cues is None:
        return None
    alone = among(claim.words, cue_at(claim.words, phrase, cues), cues) is None
    parts = clauses_of(sentences)
    stating = [c for c in parts if _states(c, key, cues, alone)]
    ranked = ranked_nouns(claim.words, phrase, key, cues, claim.language)
    held = held_by_another(claim, ranked, stating, parts) if stating else None
    if held is None:
        return None
    holder, mine = held
    return _ranked_otherwise(claim, phrase, key, own_clauses(mine, parts), cues) or holder


def _widened(
    claim: Sentence, key: tuple[str, ...], sentences: tuple[Sentence, ...], cues: SuperlativeCues
) -> bool:
    """Whether the claim ranks within the widest scope (``widest``: "in the world", "der
    Welt", "du monde") where a passage sentence states the ranking and none ranks so wide:
    a ranking within a city is not one within the world."""
    if not cues.widest & claim.word_set or any(cues.widest & s.word_set for s in sentences):
        return False
    return any(_states(s, key, cues) for s in sentences)


def _compared_with_all_findings(
    claim: Sentence, sentences: tuple[Sentence, ...], cues: SuperlativeCues, stop: frozenset[str]
) -> list[Reason]:
    """The claim's comparisons with all others ("older than any other bridge") that no
    sentence states as a ranking of the compared word's stem ("the oldest"), against a
    ``rival`` ranking or a passage about the claim's subject that ranks nothing; and those a
    clause states of another thing (``held_by_another``)."""
    found: list[Reason] = []
    comparisons = compared_with_all(claim, cues)
    parts = clauses_of(sentences) if comparisons else ()  # clauses only where one compares
    for _, compared, phrase in comparisons:
        stating = [c for c in parts if states_compared(c, compared, cues, stop)]
        if stating:  # unless it states the ranking of another ("A is the longest, B second")
            holder = compared_held_by_another(claim, phrase, compared, stating, parts, cues, stop)
            if holder is not None:
                found.append(Reason("superlative", phrase, holder))
            continue
        if negation_positions(claim.words, claim.language):
            continue  # a denied comparison ("no bridge is longer than A") is read by its holder
        other = _ranked_otherwise(claim, phrase, (compared,), sentences, cues)
        if other is None and _ranks_nothing(claim, phrase, (compared,), sentences, cues, stop):
            other = ""
        if other is not None:
            found.append(Reason("superlative", phrase, other))
    return found


def _in_a_period(claim: Sentence, key: tuple[str, ...]) -> bool:
    """Whether the ranking's first word opens a part of a period the claim writes (the
    language's ``[periods]`` halves and parts: "first half of the", "primera mitad del")."""
    words = section(claim.language, "periods", PeriodWords)
    parts = (*words.century_halves, *words.century_parts, *words.decade_parts)
    text = f" {' '.join(claim.words)} "
    return any(part.split()[0] == key[0] and f" {part} " in text for part in parts)


UNRANKED_ANCHOR = 0.6
"""Share of the claim's content words a passage sentence must hold for a passage that ranks
nothing to be about the claim's subject."""


def _ranks_nothing(
    claim: Sentence,
    phrase: str,
    key: tuple[str, ...],
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
    stop: frozenset[str],
) -> bool:
    """Whether the passage, about the claim's subject, ranks nothing at all. The sentences
    about it are those that share words with the claim; together they hold
    ``UNRANKED_ANCHOR`` of its words besides its ranking's ("The Kellan Bridge, the longest
    bridge in Riga, opened in 1931" against "The Kellan Bridge crosses the river in Riga.
    It opened in 1931."). None of them, nor a sentence that writes a noun the claim ranks
    ("C'est le 2e plus grand lac du pays"), may hold a cue, an ordinal, one of
    ``ranking_words``, a negated comparison, nor the adverb of the word an analytic cue
    ranks by ("directly": "the most direct"); a sentence about something else may ("the
    first year of the new railway"). A ranking such a passage never writes is added, not
    paraphrased ("the longest bridge in Riga" against "crosses the river in Riga ... 455
    metres long"). Reading the cues by what they rank ("its largest room") would fire on
    summaries' paraphrases too (docs/accuracy.md)."""
    rest = claim.content - {stem_in(claim.language, w) for w in key}
    about = [s for s in sentences if overlap(rest, s)]
    if len(rest & frozenset().union(*(s.content for s in about))) < UNRANKED_ANCHOR * len(rest):
        return False
    ranked = ranked_nouns(claim.words, phrase, key, cues, claim.language)
    about += [s for s in sentences if shared_count(ranked, s.content) and s not in about]
    analytic = key[-2:-1] and key[-2] in cues.analytic
    ranked_by = {key[-1] + end for end in cues.adverb_endings} if analytic else set()
    marks = cues.ranking_words.union(cues.ordinals)
    top = split_rank(key, cues)[0] is None  # "only A is longer than B" ranks B second
    return not any(
        (read := s.word_set - comparison_only(s, cues, adverbs=top)) & marks
        or s.word_set & ranked_by
        or any(is_cue(w, cues) for w in read - name_words(s))  # not "Manchester"
        or rankings(s.words, cues, stop)  # a ranking in a name still ranks ("the First War")
        or ranking_comparisons(s, cues)  # "no bridge is longer than A"
        for s in about
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
    cues = cues_of(claim.language)
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
    cues = cues_of(claim.language)
    words = claim.words
    if cues is None or not negated_than(cues).intersection(words):
        return False
    compared = compared_words(words, cues)
    stop = lexicon_or_fallback(claim.language).stopwords
    return any(
        key[0] not in cues.ordinals and any(one_grade(w, key[-1]) for w in compared)
        for s in sentences
        for _, key in rankings(s.words, cues, stop)
    )


def ranked_by_comparison(claim: Sentence, sentence: Sentence) -> bool:
    """Whether the sentence's negation is a negated comparison that states a ranking of the
    claim ("no bridge in Riga is longer than A" against "A is the longest bridge in Riga"):
    it negates nothing the claim affirms."""
    cues = cues_of(claim.language)
    if cues is None:
        return False
    stop = lexicon_or_fallback(claim.language).stopwords
    return any(
        states_by_comparison(sentence, key, cues) for _, key in rankings(claim.words, cues, stop)
    )
