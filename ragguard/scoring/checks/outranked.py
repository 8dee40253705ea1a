"""A comparison that puts a thing above one the passage ranks higher.

"The Kellan Bridge is longer than the Orlen Bridge" against "The Orlen Bridge is the
longest bridge in Riga" (or "the second-longest", where the Kellan Bridge is "the
third-longest") says what the ranking denies: nothing outranks the top by its own measure.
The same in each language's words: "länger als", "plus long que", "más largo que", "ओर्लेन
पुल से लंबा".

The comparison is the claim's word of ``[superlatives] than`` with the compared word
before it (after it where ``compared_after``), read in no negation. What is compared
against stands after ``than`` (before it, in Hindi); the claim's subject stands before
the compared word. A passage ranking of the same measure (``comparisons.one_grade``:
"longer", "longest") gives each its rank where its words stand before the ranking; a
ranking with no rank is the first, one among others ("one of the longest") none. A
comparison in the opposite word (``[superlatives] opposites``: "A is shorter than B") is
read with its sides swapped too ("B is longer than A").
"""

from __future__ import annotations

from ragguard.language import SuperlativeCues, negation_positions
from ragguard.scoring.checks.comparisons import one_grade
from ragguard.scoring.checks.measured import measured_above
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.rankings import among, cue_at, phrase_at, rankings, split_rank
from ragguard.scoring.interface.protocols import Reason

SIDE_WORDS = 4
"""Content words read on each side of a comparison as what it compares ("the Orlen
Bridge", "ओर्लेन पुल")."""


def outranked_findings(
    claim: Sentence, sentences: tuple[Sentence, ...], cues: SuperlativeCues, stop: frozenset[str]
) -> list[Reason]:
    """The claim's comparison where the passage ranks what it is compared against above
    the claim's subject, or first (see the module docstring)."""
    words = claim.words
    if negation_positions(words, claim.language) or cues.none.intersection(words):
        return []
    for at, word in enumerate(words):
        if word not in cues.than or word in cues.not_compared:
            continue
        sides = _sides(words, at, cues, stop)
        if sides is None:
            continue
        compared, subject, against = sides
        number = measured_above(subject, against, compared, sentences, cues)
        if number is not None:  # "A is longer than B" where B is 800 metres long, A 500
            return [Reason("superlative", f"{compared} {word}", number)]
        # "A is shorter than B" is also read as "B is longer than A"
        readings = [(compared, subject, against)]
        readings += [(w, against, subject) for w in _opposite_words(compared, cues)]
        for measure, first, second in readings:
            above = _ranked_above(second, first, measure, sentences, cues, stop)
            if above is not None:
                return [Reason("superlative", f"{compared} {word}", above)]
    return []


def _ranked_above(
    against: frozenset[str],
    subject: frozenset[str],
    measure: str,
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
    stop: frozenset[str],
) -> str | None:
    """The passage's ranking of ``against`` where it ranks it first by ``measure`` and the
    subject not at all, or above the subject's rank; None otherwise."""
    theirs = _rank(against, subject, measure, sentences, cues, stop)
    if theirs is None:
        return None
    ours = _rank(subject, against, measure, sentences, cues, stop)
    if (ours is None and theirs[0] == 1) or (ours is not None and ours[0] > theirs[0]):
        return theirs[1]
    return None


def _opposite_words(compared: str, cues: SuperlativeCues) -> list[str]:
    """The plain words of each measure ``opposites`` pairs with the compared word's
    ("long" for "shorter", "kurz" extended as "kürzer")."""
    groups = [g.split() for g in cues.dimensions]
    found: list[str] = []
    for pair in cues.opposites:
        first, second = pair.split()
        for mine, theirs in ((first, second), (second, first)):
            if one_grade(mine, compared):
                found += [w for g in groups if theirs in g for w in g]
    return found


def _sides(
    words: tuple[str, ...], at: int, cues: SuperlativeCues, stop: frozenset[str]
) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """The compared word, the content words of the claim's subject and those of what it is
    compared against, for the word of ``than`` at ``at``; None where a side is empty."""
    if cues.compared_after:  # "केलन पुल ओर्लेन पुल से लंबा है": two runs before "से"
        after = [w for w in words[at + 1 :] if w not in stop]
        before = [w for w in words[:at] if w not in stop]
        if not after or len(before) < 2:
            return None
        compared, half = after[0], len(before) // 2
        subject, against = frozenset(before[:half]), frozenset(before[half:])
    else:
        if at == 0 or words[at - 1] in stop:
            return None
        compared = words[at - 1]
        against = frozenset([w for w in words[at + 1 :] if w not in stop][:SIDE_WORDS])
        subject = frozenset(w for w in words[: at - 1] if w not in stop)
    subject -= {compared}
    return (compared, subject, against) if subject and against else None


def _rank(
    thing: frozenset[str],
    rival: frozenset[str],
    compared: str,
    sentences: tuple[Sentence, ...],
    cues: SuperlativeCues,
    stop: frozenset[str],
) -> tuple[float, str] | None:
    """The rank a passage sentence gives ``thing`` by the compared word's measure, and its
    ranking as written: its words stand before the ranking, nearer it than the ``rival``'s
    ("A is the longest, and B the oldest": "the oldest" is B's)."""
    for sentence in sentences:
        for phrase, key in rankings(sentence.words, cues, stop):
            rank, top = split_rank(key, cues)  # "zweitlängste": 2, "längste"
            if not top or not one_grade(compared, top[-1]):
                continue
            start = max(phrase_at(sentence.words, phrase), 0)
            before = frozenset(sentence.words[:start]) - stop
            if not thing <= before or _nearer(rival, thing, sentence.words[:start]):
                continue
            if among(sentence.words, cue_at(sentence.words, phrase, cues), cues) is not None:
                return None  # "one of the longest": no rank
            return (rank or 1.0), phrase
    return None


def _nearer(first: frozenset[str], second: frozenset[str], words: tuple[str, ...]) -> bool:
    """Whether all of ``first``'s words, one of them its own, stand in a shorter run at the
    end of ``words`` than ``second``'s."""
    if not first - second:
        return False
    return _reach(first, words) > _reach(second, words)


def _reach(thing: frozenset[str], words: tuple[str, ...]) -> int:
    """Where the shortest run at the end of ``words`` that holds all of ``thing`` starts;
    -1 where none does."""
    seen: set[str] = set()
    for at in range(len(words) - 1, -1, -1):
        seen.add(words[at])
        if thing <= seen:
            return at
    return -1
