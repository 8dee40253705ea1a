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
that name to the pronouns after it. A pronoun may follow a phrase set off by a comma ("In
2016, she appeared ...") or, in a language whose verb comes second (``[word_order]``), the
verb of a sentence that opens with something else ("Im Jahr 1869 entwarf sie ..."); it
stands for the fullest name the passage gave ("Marsh" after "Elena Marsh is ..."). A
description may stand for a subject by the class an earlier sentence gave it ("X is a 2016
film. The film was announced ..."). An answer's spans are read the same way, by the question
they answer (``answers``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from ragguard.language import NameFrameWords, lexicon, section
from ragguard.runtime import memoized
from ragguard.scoring.lexical.text import stopwords_of

MAX_SUBJECT_WORDS = 6
"""A longer run of words before the verb is a clause, not a subject."""
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d[\w.,]*", re.UNICODE)
_ASIDE = re.compile(r"\([^()]*\)")
"""A parenthesis: an aside that is no part of the subject it follows ("Maria Theresa (13 May
1717 – 29 November 1780) was ...")."""


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
    can be found (no listed verb within ``longest`` words, or a pronoun subject). Words in
    parentheses are not counted: a name's dates or gloss sit there, not its subject."""
    if not antecedent_lists(language).get("verbs"):
        return None
    start = opening_phrase_end(sentence, language)
    masked = _ASIDE.sub(lambda m: " " * len(m.group()), sentence)
    tokens = list(itertools.islice(_TOKEN.finditer(masked, start), longest + 1))
    for index, token in enumerate(tokens):
        if not listed_verb(token.group(), language, ending_too=index > 0):
            continue
        if index == 0:
            return None
        first = tokens[0].group().lower()
        if first in _leaning(language):
            return None
        last = _subject_end([t.group() for t in tokens[:index]], language)
        return sentence[tokens[0].start() : tokens[last].end()].rstrip(",;: ")
    return None


MAX_OPENING_PHRASE = 6
"""Words a phrase set off by a comma before the subject may run to ("In 2016,", "From 2000
to 2009,", "After the war,")."""
_OPENING_PHRASE = re.compile(r"(?:[^,;:.!?]|(?<=\d)[,.](?=\d))*?,(?!\d)\s*")
"""Up to the first comma, past the marks inside a number ("By 1,000 BC, ...")."""


@memoized(entries=16_384)
def opening_phrase_end(sentence: str, language: str = "en") -> int:
    """Where the sentence's main clause starts after an opening phrase set off by a comma
    that opens with a function word and holds no verb or pronoun ("In 2016, she appeared",
    "After the war, the bridge was rebuilt"); 0 where there is none ("Paris, the capital,
    is ...")."""
    found = _OPENING_PHRASE.match(sentence)
    if found is None:
        return 0
    words = _TOKEN.findall(found.group())
    if (
        not words
        or len(words) > MAX_OPENING_PHRASE
        or words[0].lower() not in stopwords_of(language)
    ):
        return 0
    if any(listed_verb(w, language) or w.lower() in _leaning(language) for w in words):
        return 0
    return found.end()


def listed_verb(word: str, language: str, ending_too: bool = True) -> bool:
    """Whether a word is one of the language's ``[antecedents] verbs`` or, written in lower
    case (and with ``ending_too``), ends with one of its ``verb_endings`` ("completed")."""
    lists = antecedent_lists(language)
    lower = word.lower()
    if lower in lists.get("verbs", frozenset()):
        return True
    endings = lists.get("verb_endings", frozenset())
    return ending_too and word.islower() and any(lower.endswith(e) for e in endings)


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
    sentence: str,
    antecedents: Sequence[str],
    language: str,
    descriptions: bool = True,
    classes: Mapping[str, frozenset[str]] | None = None,
) -> str | None:
    """``sentence`` with its opening pronoun or (with ``descriptions``) definite description
    replaced by the antecedent it leans on (the first of ``antecedents`` that fits: it holds
    the description's noun, or its sentence gave it that noun as its class, ``classes``),
    else None."""
    lists = antecedent_lists(language)
    first = _TOKEN.search(sentence, opening_phrase_end(sentence, language))
    if first is None or not antecedents:
        return None
    word = first.group().lower()
    if word not in _leaning(language) and word not in lists.get("determiners", ()):
        first = _inverted_pronoun(sentence, language)  # "Im Jahr 1869 entwarf sie ..."
        if first is None:
            return None  # most sentences: nothing to resolve, found by set look-ups
        word = first.group().lower()
    elif _expletive(sentence, language):
        return None
    opening = sentence[: first.start()]
    put = (lambda text: text) if opening.strip() else capitalized
    if word in lists.get("pronouns", ()):
        return opening + put(antecedents[0]) + sentence[first.end() :]
    if word in lists.get("possessives", ()):
        return f"{opening}{put(antecedents[0])}'s{sentence[first.end() :]}"
    if not descriptions or word not in lists.get("determiners", ()):
        return None
    described = subject(sentence, language)
    if described is None:
        return None
    described_words = _TOKEN.findall(described)
    found = lexicon(language)
    named = found is None or not found.nouns_capitalized  # "Der Roman" names nothing
    if len(described_words) > MAX_DESCRIPTION_WORDS or (
        named and any(w[:1].isupper() for w in described_words[1:])
    ):
        return None
    head = described_words[-1].lower()
    for antecedent in antecedents:
        known = {w.lower() for w in _TOKEN.findall(antecedent)}
        known |= (classes or {}).get(antecedent, frozenset())
        if head in known and described.lower() != antecedent.lower():
            return opening + put(antecedent) + sentence[first.start() + len(described) :]
    return None


@dataclass(frozen=True, slots=True)
class WordOrder:
    """A language's ``[word_order]`` table."""

    verb_second: bool = False
    """A sentence that opens with anything but its subject puts the subject right after its
    verb ("Im Jahr 1869 entwarf sie einen Bahnhof"): a pronoun there leans on an antecedent
    as one opening the sentence does."""


def _inverted_pronoun(sentence: str, language: str) -> re.Match[str] | None:
    """In a verb-second language, the pronoun right after the verb of a sentence that opens
    with a phrase of function words, nouns and numbers ("Im Jahr 1869 entwarf sie",
    "1931 wurde sie eröffnet"); None elsewhere, and where the two open an expletive ("1869
    gab es")."""
    if not section(language, "word_order", WordOrder).verb_second:
        return None
    tokens = list(itertools.islice(_TOKEN.finditer(sentence), MAX_OPENING_PHRASE + 2))
    lists, stops = antecedent_lists(language), stopwords_of(language)
    pronouns, verbs = lists.get("pronouns", frozenset()), lists.get("verbs", frozenset())
    words = [t.group() for t in tokens]
    if len(words) < 3 or not (words[0].lower() in stops or words[0][:1].isdigit()):
        return None
    for index in range(2, len(words)):
        verb, pronoun = words[index - 1], words[index]
        if pronoun.lower() in pronouns and verb.islower() and (verb in verbs or verb not in stops):
            opening = words[: index - 1]
            if any(w.islower() and w not in stops for w in opening):
                return None  # a verb or a lower-case word opened it: no phrase of its own
            expletive = f"{pronoun.lower()} {verb}"
            if any(e.startswith(expletive) for e in lists.get("expletives", ())):
                return None
            return tokens[index]
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
    classes: dict[str, frozenset[str]] = {}
    for index, sentence in enumerate(sentences):
        resolved = sentence
        if index:
            candidates = list(dict.fromkeys(s for s in (_fullest(previous, first), first) if s))
            resolved = _opening(sentence, candidates, language, classes=classes) or sentence
        found = subject(resolved, language)
        if index == 0:
            found = found or _title(sentence, language)
            first = found
        if found and found not in classes:
            classes[found] = _class_given(resolved, found, language)
        previous = found or previous
        out.append(resolved)
    return tuple(out)


def _fullest(previous: str | None, first: str | None) -> str | None:
    """The sentence before's subject, or the first sentence's where that holds every word of
    it: "Marsh" after "Elena Marsh is an architect" is Elena Marsh, by her fullest name."""
    if (
        previous
        and first
        and set(_TOKEN.findall(previous.lower())) < set(_TOKEN.findall(first.lower()))
    ):
        return first
    return previous


MAX_GIVEN_CLASS_WORDS = 5
"""Words a class a passage sentence gives its subject may run to before its noun ("a 2016
American superhero film")."""


def class_after_copula(after: Sequence[str], language: str) -> Sequence[str]:
    """The words of a class that ``after`` (the lower-case words right after a subject)
    gives it: those past a copula of ``[name_frames] copulas`` and an article of
    ``describing`` ("is a 2016 American superhero film" gives "2016 american superhero
    film"); none where the two do not open it, or nothing follows them."""
    frames = section(language, "name_frames", NameFrameWords)
    if len(after) < 3 or after[0] not in frames.copulas or after[1] not in frames.describing:
        return ()
    return after[2:]


def _class_given(sentence: str, found: str, language: str) -> frozenset[str]:
    """The words of the class a sentence gives its subject right after it
    (``class_after_copula``), up to the first function word ("X-Men: Apocalypse is a 2016
    American superhero film based on ..." gives "film" among them), so that "The film"
    after it stands for "X-Men: Apocalypse". Empty where the verb is no copula ("stands in
    a park near the river" gives no "river")."""
    at = sentence.find(found)
    after = [t.lower() for t in _TOKEN.findall(sentence[at + len(found) :] if at >= 0 else "")]
    kind = class_after_copula(after, language)[: MAX_GIVEN_CLASS_WORDS + 1]
    stops = stopwords_of(language)
    return frozenset(itertools.takewhile(lambda w: w not in stops, kind))


def with_antecedent(sentence: str, antecedent: str | None, language: str = "en") -> str:
    """One sentence read with a given antecedent, when it opens with a pronoun (an answer's
    span with its question's subject: "It stands in Paris." -> "The Eiffel Tower stands in
    Paris."). A definite description is left as written: an answer's "The library of
    Berlin" or "the tower" says what it is about."""
    if not antecedent:
        return sentence
    return _opening(sentence, [antecedent], language, descriptions=False) or sentence
