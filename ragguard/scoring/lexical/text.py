"""Cheap text utilities for scoring: evidence windows and content tokens.

Evidence passages are long and scored for every request, so they are cut with a fast regex
rather than the careful response splitter in ``ragguard.spans``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable
from functools import cache

from ragguard.language import (
    WORD,
    detect,
    english_numerals,
    lexicon,
    lexicon_or_fallback,
    negation_positions,
    read_as,
)
from ragguard.runtime import clear_caches as caches_clear_caches
from ragguard.runtime import memoized
from ragguard.scoring.lexical.vocabulary import HEAD_NEGATING_VERBS, HEAD_NEGATION_WORDS, STOPWORDS

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
"""A language read as the heads were trained (``trained_reading``: English, and undetermined
text): the split the shipped heads were trained on."""
_SENTENCE_END_ANY = re.compile(
    r"(?<=[.!?])[\"')\]»”]*\s+(?=[\"'(\[¿¡«„“]?[A-Z0-9À-ÖØ-Þ\u0900-\u097f])"
    r"|(?<=[।॥])\s*(?=\S)|\n+"
)
"""Other languages: a stop before a capital, a digit or a Devanagari letter (no case
there), or Hindi's danda (।, ॥) before anything; a sentence may open with "¿" or "¡"."""
_TOKEN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)*")
ANY_SCRIPT_TOKEN = re.compile(WORD + r"|\d+(?:[.,]\d+)*")
"""Words of any script, combining marks included (Devanagari's vowel signs), and numbers;
elisions apart ("n'est")."""
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)*(?![\w])")
_CAPITALIZED = re.compile(r"\b[A-Z][a-zA-Z]+\b")
_NEGATION = re.compile(
    r"\b(?:" + "|".join(HEAD_NEGATION_WORDS) + r"|(?:" + "|".join(HEAD_NEGATING_VERBS) + r") to)\b"
    r"|n't\b",
    re.IGNORECASE,
)
"""The head's negation: ``lexicon.HEAD_NEGATION_WORDS``, a negating verb before "to", "n't"."""

_ANAPHOR = re.compile(
    r"\b(?:it|its|he|she|his|her|hers|they|their|them|this|these|those|there"
    r"|the former|the latter)\b",
    re.IGNORECASE,
)

MAX_SENTENCES = 64
"""Longer evidence is cut: alignment cost grows with sentences, support rarely lies deep."""


@cache
def trained_reading(language: str) -> bool:
    """Whether text of ``language`` is read as the shipped heads were trained (``[reading]
    trained`` in its data file: ASCII tokens, digits as written, the light stemmer, the
    Latin sentence split, the head's negation words); a language without a lexicon is read
    by Unicode classes."""
    found = lexicon(language)
    return found is not None and found.trained_reading


def evidence_sentences(text: str) -> list[str]:
    """Split evidence into sentences (fast, approximate), at most ``MAX_SENTENCES``."""
    trained = trained_reading(read_as(detect(text)))
    parts = [p.strip() for p in (_SENTENCE_END if trained else _SENTENCE_END_ANY).split(text)]
    return [p for p in parts if p][:MAX_SENTENCES] or [text.strip()]


def clear_caches() -> None:
    """Forget the token caches (benchmarks time a cold start with it)."""
    caches_clear_caches(__name__)


_VOWEL = re.compile("[aeiouy]")
_KEPT_S = ("ss", "us", "is")
"""Endings whose "s" is no plural: "kiss", "status", "analysis"."""


@memoized(entries=65_536)
def stem(token: str) -> str:
    """Light suffix stripping so that a word's forms meet: "kiss"/"kisses"/"kissing",
    "sit"/"sitting", "close"/"closed"/"closing", "study"/"studied"/"studies": an anchor
    sentence in a paraphrase must share enough words with the claim for a check to read it
    (why it cuts more than "s"/"ed"/"ing": ``docs/history/measurements.md``)."""
    word = token
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif (word.endswith("es") and len(word) > 5 and word[-3] in "sxz") or word.endswith("ches"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(_KEPT_S):
        word = word[:-1]
    for suffix in ("ing", "eed", "ed"):
        rest = word[: -len(suffix)]
        if word.endswith(suffix) and len(rest) >= 3 and _VOWEL.search(rest):
            word = rest + ("ee" if suffix == "eed" else "")
            if word[-1] == word[-2] and word[-1] not in "aeiouylsz":
                word = word[:-1]
            elif word.endswith("i"):
                word = word[:-1] + "y"
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def token_language(text: str, language: str | None = None) -> str:
    """The language whose word lists read ``text``: ``language`` (a code the caller knows,
    such as the span's) or the detected one; ``read_as`` for undetermined text. A language
    without a lexicon is tokenized by Unicode classes with English's stopwords."""
    return read_as(detect(text) if language is None else language)


def _tokens(text: str, language: str) -> list[str]:
    """Lower-cased words and numbers; with the regex the heads were trained on where the
    language is read so (``trained_reading``)."""
    if trained_reading(language):
        return [m.lower() for m in _TOKEN.findall(text)]
    return [m.lower() for m in ANY_SCRIPT_TOKEN.findall(english_numerals(text, language))]


def stopwords_of(language: str) -> frozenset[str]:
    """The function words of a language (``token_language``); English's for a language
    without a lexicon."""
    return lexicon_or_fallback(language).stopwords


def stem_in(language: str, token: str) -> str:
    """``stem`` where the language is read as the heads were trained (English); other
    languages' words are kept whole (no stemmer of theirs)."""
    return stem(token) if trained_reading(language) else token


@memoized(entries=65_536)
def content_tokens(text: str, language: str | None = None) -> frozenset[str]:
    """Lower-cased tokens that are not stopwords of the text's language (``token_language``);
    English ones crudely stemmed. Any script: a Hindi sentence has tokens too. Memoized:
    pass ``language`` by position."""
    language = token_language(text, language)
    stop = stopwords_of(language)
    return frozenset(stem_in(language, t) for t in _tokens(text, language) if t not in stop)


@memoized(entries=65_536)
def bigrams(text: str, language: str | None = None) -> frozenset[tuple[str, str]]:
    language = token_language(text, language)
    tokens = [stem_in(language, t) for t in _tokens(text, language)]
    return frozenset(itertools.pairwise(tokens))


@memoized(entries=65_536)
def numbers(text: str, language: str | None = None) -> frozenset[str]:
    """Numbers normalized so that "1,000" and "1000" match, read in the text's notation
    ("3,5" is 3.5 in German, "२०२३" is 2023)."""
    language = token_language(text, language)
    if not trained_reading(language):
        text = english_numerals(text, language)
    return frozenset(n.replace(",", "").lstrip("+") for n in _NUMBER.findall(text))


@memoized(entries=65_536)
def capitalized_words(text: str) -> frozenset[str]:
    """Capitalized words not at the start of the text, lower-cased: the support head's cheap
    stand-in for names (``checks.names`` reads whole names, for the entity check)."""
    found = _CAPITALIZED.findall(text)
    first = _CAPITALIZED.match(text.lstrip())
    if first:
        found = found[1:]
    return frozenset(w.lower() for w in found if w.lower() not in STOPWORDS)


@memoized(entries=65_536)
def is_negated(text: str, language: str | None = None) -> bool:
    """Whether the text holds one of the head's negations (``_NEGATION``), or in another
    supported language one of its negation cues ("nicht", "nunca", "ne ... plus", "नहीं")."""
    language = token_language(text, language)
    if trained_reading(language):
        return _NEGATION.search(text) is not None
    return bool(negation_positions(tuple(_tokens(text, language)), language))


def recall(part: frozenset[Hashable], whole: frozenset[Hashable]) -> float:
    """Share of ``part`` found in ``whole``; 1.0 when ``part`` is empty (nothing to miss)."""
    return len(part & whole) / len(part) if part else 1.0


def decontextualized(claim: str, context: str | None) -> str:
    """MIRAGE's [context][claim] when the claim leans on its context through an anaphor
    ("It was built in 1889."); the bare claim otherwise, so an unrelated preceding sentence
    cannot lend it support or take support away."""
    return f"{context} {claim}" if context and _ANAPHOR.search(claim) else claim
