"""Negation cues, read the same way in every language from its data file: its
``negations``, ``not_negating`` and ``[negation]`` rules (``data/<code>.toml``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragguard.language.wordlists import Lexicon, lexicon, section


@dataclass(frozen=True, slots=True)
class PolarityWords:
    """A language's ``[polarity]`` table."""

    governs_before: bool = False
    """Whether a negation governs the words before it, as in a verb-final language (Hindi
    "वालेंसिया में नहीं रहे": "did not live in Valencia")."""
    answer_words: frozenset[str] = frozenset()
    """The word that answers a yes/no question ("no", "nein", "non", "नहीं"): opening a
    sentence before a comma ("No, it opened in 1931."), it denies the question, not the
    sentence."""
    verb_forms: tuple[str, ...] = ()
    """The forms of one verb that share no stem, a group per entry ("erhalten erhielt
    erhielten erhält"): "hat den Preis nie erhalten" denies "erhielt den Preis"."""
    participle_prefixes: tuple[str, ...] = ()
    """What a past participle opens with ("ge": "gewohnt" is "wohnte" less its ending)."""
    corrective: frozenset[str] = frozenset()
    """Words that put right what a negation denies ("sondern" of "nicht 1931, sondern
    1935"): what the negation governs ends before one."""
    infinitive_markers: frozenset[str] = frozenset()
    """Words before an infinitive at its clause's end ("zu" of "scheiterte daran, den
    Marathon zu beenden"): a negation before one governs the infinitive and its object."""
    companions: frozenset[str] = frozenset()
    """Words that join a negation to make one ("कभी" of "कभी नहीं", never; "कोई" of "कोई
    नहीं", none): part of the cue, not words it governs."""


def one_verb(one: str, other: str, code: str) -> bool:
    """Whether two words are forms of one verb of the language's ``verb_forms``."""
    return any(
        one in group and other in group
        for group in _verb_groups(section(code, "polarity", PolarityWords).verb_forms)
    )


def participle_prefixes(code: str) -> tuple[str, ...]:
    """What a past participle of the language opens with (``PolarityWords``)."""
    return section(code, "polarity", PolarityWords).participle_prefixes


@cache
def _verb_groups(entries: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(entry.split()) for entry in entries)


def corrective_words(code: str) -> frozenset[str]:
    """The words that end what a negation governs (``PolarityWords.corrective``)."""
    return section(code, "polarity", PolarityWords).corrective


def negation_companions(code: str) -> frozenset[str]:
    """The words that join a negation of the language into one (``PolarityWords``)."""
    return section(code, "polarity", PolarityWords).companions


def infinitive_markers(code: str) -> frozenset[str]:
    """The words before an infinitive a negation governs from afar (``PolarityWords``)."""
    return section(code, "polarity", PolarityWords).infinitive_markers


def negation_governs_before(code: str) -> bool:
    """Whether the language's negation governs the words before it (``PolarityWords``)."""
    return section(code, "polarity", PolarityWords).governs_before


def answers_the_question(words: tuple[str, ...], text: str, code: str) -> bool:
    """Whether the sentence ``text`` (its lower-cased ``words``) opens with the language's
    answer to a yes/no question and a comma: "No, it opened in 1931."."""
    if not words or words[0] not in section(code, "polarity", PolarityWords).answer_words:
        return False
    opening = _ANSWER.match(text)
    return opening is not None and opening[1].lower() == words[0]


_ANSWER = re.compile(r"[\W_]*?(\S+?)\s*[,،]")
"""A first word, then a comma."""


def negation_positions(words: tuple[str, ...], code: str) -> list[int]:
    """Positions of the language's negation cues in lower-cased ``words``: its negation
    words and the words with a negating ending ("isn't"), and a word such as French "plus"
    when "ne"/"n'" came just before it ("il n'est plus"). Left out: a cue that negates
    nothing with the words after it ("not only", "nicht nur", "non seulement"), a sign for a
    number ("no 1"), a cue after an alternative ("agree or not") or before a phrase that
    undoes it ("cannot be confused"). Empty for a language without a lexicon."""
    found = lexicon(code)
    if found is None:
        return []
    return [i for i, word in enumerate(words) if _negates(found, words, i, word)]


def _negates(found: Lexicon, words: tuple[str, ...], i: int, word: str) -> bool:
    particle = word in found.particle_negations and any(
        w in found.particles for w in words[max(i - 3, 0) : i]
    )
    suffixed = bool(found.negation_suffixes) and word.endswith(found.negation_suffixes)
    if word not in found.negations and not suffixed and not particle:
        return False
    following = words[i + 1] if i + 1 < len(words) else ""
    if word in found.number_signs and following[:1].isdigit():
        return False  # "my no 1 fav": the sign for a number
    if i and words[i - 1] in found.alternatives:
        return False  # "agree or not", "with or without"
    if any(words[i + 1 : i + 1 + len(after)] == after for after in found.not_negating_after):
        return False  # "cannot be confused with"
    longest = max((len(p) for p in found.not_negating), default=1)
    if any(words[i : i + n] in found.not_negating for n in range(2, longest + 1)):
        return False
    # "sans doute" read from its second word is no cue either
    return not (i and (words[i - 1], word) in found.not_negating)
