"""A sentence read with its antecedent: "It was completed in 1889." after "The Eiffel Tower
is a lattice tower in Paris." is read as "The Eiffel Tower was completed in 1889.".

No coreference model: a sentence that opens with a listed pronoun ("it", "er", "il") takes
the subject of the sentence before, else of the passage's first sentence; one that opens
with a definite description ("the tower") takes the earlier subject that holds its last word
("The Eiffel Tower"). A subject is the words before the first listed verb (or, in English, a
word ending in "-ed"), when they are a short phrase that is not a pronoun itself. The lists
are each language's ``[antecedents]`` table (``data/<code>.toml``); a language without
pronouns and verbs there (Hindi: its verb ends the sentence; it lists only its askers) is
read as written. Openers where the pronoun refers to nothing ("it is possible that", "es
gibt", "il y a") are left alone.

A passage that opens with a title, a name and no verb ("Alan Shepard . He was ..."), gives
that name to the pronouns after it. An answer's spans are read the same way, by the question
they answer (``answers``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import cache

from ragguard.language import lexicon
from ragguard.runtime import memoized
from ragguard.scoring.lexical.text import stopwords_of

MAX_SUBJECT_WORDS = 6
"""A longer run of words before the verb is a clause, not a subject."""
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d[\w.,]*", re.UNICODE)


@cache
def antecedent_lists(language: str) -> dict[str, frozenset[str]]:
    """The language's ``[antecedents]`` lists as sets, built once (they are read per sentence)."""
    found = lexicon(language)
    return {k: frozenset(v) for k, v in found.antecedents.items()} if found is not None else {}


def determiners(language: str) -> frozenset[str]:
    """The articles that open a definite description in ``language`` ("the", "der", "la")."""
    return antecedent_lists(language).get("determiners", frozenset())


@cache
def _leaning(language: str) -> frozenset[str]:
    """The language's pronouns and possessives: words that lean on a name written before."""
    lists = antecedent_lists(language)
    return lists.get("pronouns", frozenset()) | lists.get("possessives", frozenset())


def opens_with_pronoun(sentence: str, language: str) -> bool:
    """Whether the sentence opens with one of the language's pronouns or possessives ("She
    took ...", "His debut album ..."): it leans on a name it does not write. Not where the
    pronoun refers to nothing ("It is likely that ...": ``expletives``)."""
    first = _TOKEN.search(sentence)
    leans = first is not None and first.group().lower() in _leaning(language)
    return leans and not _expletive(sentence, language)


def _expletive(sentence: str, language: str) -> bool:
    """Whether the sentence opens with one of the language's ``expletives``."""
    lowered = sentence.lower()
    return any(
        lowered.startswith(e + " ") or lowered == e
        for e in antecedent_lists(language).get("expletives", ())
    )


def subject(sentence: str, language: str = "en", longest: int = MAX_SUBJECT_WORDS) -> str | None:
    """The sentence's subject as written ("The Eiffel Tower"), or None when it has none that
    can be found (no listed verb within ``longest`` words, or a pronoun subject)."""
    lists = antecedent_lists(language)
    verbs, endings = lists.get("verbs", frozenset()), lists.get("verb_endings", frozenset())
    if not verbs:
        return None
    tokens = list(itertools.islice(_TOKEN.finditer(sentence), longest + 1))
    for index, token in enumerate(tokens):
        word = token.group().lower()
        is_verb = word in verbs or (
            index > 0 and token.group().islower() and any(word.endswith(e) for e in endings)
        )
        if not is_verb:
            continue
        if index == 0:
            return None
        first = tokens[0].group().lower()
        if first in _leaning(language):
            return None
        last = _subject_end([t.group() for t in tokens[:index]], language)
        return sentence[tokens[0].start() : tokens[last].end()].rstrip(",;: ")
    return None


def _subject_end(words: list[str], language: str) -> int:
    """The last subject word before the verb: a lower-case word after a name, or a function
    word, is an adverb ("Anna Brandt later founded", "The tower also has")."""
    last = len(words) - 1
    while last > 0 and words[last].islower():
        after_name = last > 1 and words[last - 1][:1].isupper()
        if not after_name and words[last] not in stopwords_of(language):
            break
        last -= 1
    return last


_PARENTHESIS = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")


def _title(sentence: str, language: str) -> str | None:
    """A passage's opening title, a name and no verb, less its parentheses ("Hebe (mythology)
    ."): a retrieved page often opens with what its pronouns stand for."""
    bare = _PARENTHESIS.sub("", sentence).strip().rstrip(".").strip()
    tokens = _TOKEN.findall(bare)
    verbs = antecedent_lists(language).get("verbs", frozenset()) | _leaning(language)
    stops = stopwords_of(language)
    plain = [t for t in tokens if t.lower() in verbs or (t.islower() and t not in stops)]
    if plain or not tokens or len(tokens) > MAX_SUBJECT_WORDS or not tokens[0][:1].isupper():
        return None
    return bare


MAX_DESCRIPTION_WORDS = 3
"""A definite description is short and names nothing ("the tower", "the old tower"); "The
library of Berlin" is a subject of its own."""


def _opening(
    sentence: str, antecedents: Sequence[str], language: str, descriptions: bool = True
) -> str | None:
    """``sentence`` with its opening pronoun or (with ``descriptions``) definite description
    replaced by the antecedent it leans on (the first of ``antecedents`` that fits), else
    None."""
    lists = antecedent_lists(language)
    first = _TOKEN.search(sentence)
    if first is None or not antecedents:
        return None
    word = first.group().lower()
    if word not in _leaning(language) and word not in lists.get("determiners", ()):
        return None  # most sentences: nothing to resolve, found by one set look-up
    if _expletive(sentence, language):
        return None
    if word in lists.get("pronouns", ()):
        return capitalized(antecedents[0]) + sentence[first.end() :]
    if word in lists.get("possessives", ()):
        owner = capitalized(antecedents[0])
        return f"{owner}'s{sentence[first.end() :]}"
    if not descriptions or word not in lists.get("determiners", ()):
        return None
    described = subject(sentence, language)
    if described is None:
        return None
    described_words = _TOKEN.findall(described)
    if len(described_words) > MAX_DESCRIPTION_WORDS or any(
        w[:1].isupper() for w in described_words[1:]
    ):
        return None
    head = described_words[-1].lower()
    for antecedent in antecedents:
        known = {w.lower() for w in _TOKEN.findall(antecedent)}
        if head in known and described.lower() != antecedent.lower():
            return capitalized(antecedent) + sentence[len(described) :]
    return None


def capitalized(text: str) -> str:
    """``text`` with its first letter capitalized: an antecedent that opens a sentence."""
    return text[:1].upper() + text[1:]


@memoized(entries=16_384)
def resolve(sentences: tuple[str, ...], language: str = "en") -> tuple[str, ...]:
    """Each sentence read with its antecedent (see the module docstring); the first sentence
    and those that lean on nothing as written."""
    if not antecedent_lists(language).get("verbs"):
        return sentences
    out: list[str] = []
    first: str | None = None
    previous: str | None = None
    for index, sentence in enumerate(sentences):
        resolved = sentence
        if index:
            candidates = [s for s in (previous, first) if s]
            resolved = _opening(sentence, list(dict.fromkeys(candidates)), language) or sentence
        found = subject(resolved, language)
        if index == 0:
            found = found or _title(sentence, language)
            first = found
        previous = found or previous
        out.append(resolved)
    return tuple(out)


def with_antecedent(sentence: str, antecedent: str | None, language: str = "en") -> str:
    """One sentence read with a given antecedent, when it opens with a pronoun (an answer's
    span with its question's subject: "It stands in Paris." -> "The Eiffel Tower stands in
    Paris."). A definite description is left as written: an answer's "The library of
    Berlin" or "the tower" says what it is about."""
    if not antecedent:
        return sentence
    return _opening(sentence, [antecedent], language, descriptions=False) or sentence
