"""Names as runs of capitalized words, and the keys a name matches by ("Kenyan" meets
"Kenya", "U.N." meets "United Nations"): a cheap stand-in for named entities."""

from __future__ import annotations

import re
from functools import cache

from ragguard.language import CALENDAR_WORDS, Lexicon, lexicon
from ragguard.runtime import memoized
from ragguard.scoring.checks.words import NAME_TOKEN, WORD
from ragguard.scoring.lexical.vocabulary import (
    DEMONYM_ENDINGS,
    IRREGULAR_DEMONYMS,
    NAME_JOINERS,
    NOT_NAMES,
    SENTENCE_OPENERS,
    STOPWORDS,
)

_ENDINGS_BY_LAST = {
    last: tuple(end for end in DEMONYM_ENDINGS if end[-1] == last)
    for last in {end[-1] for end in DEMONYM_ENDINGS}
}
"""The endings a word's last letter allows: every word of every passage is keyed, so each
word tries only these, not all fifteen."""


_DROPPED_OPENERS = STOPWORDS - CALENDAR_WORDS
"""Stop words a run of capitals drops from its start; a month or weekday that joined it is a
first name ("May Chen")."""


def names(text: str) -> tuple[str, ...]:
    """Runs of capitalized words as written ("University of Chicago", "J. Smith", "U.S."),
    a run at the start of the text only when it goes on ("The Eiffel Tower" -> "Eiffel
    Tower"; "Water boils" -> nothing). People, places, organisations."""
    tokens = list(NAME_TOKEN.finditer(text))
    opening = next((i for i, t in enumerate(tokens) if t.group(0)[:1].isalnum()), 0)
    found: list[str] = []
    run: list[re.Match[str]] = []
    for index, token in enumerate([*tokens, None]):
        word = token.group(0) if token else ""
        if (
            word[:1].isupper()
            and word not in NOT_NAMES
            and not (word.lower() in CALENDAR_WORDS and not _opens_a_name(tokens, index))
            and _ROMAN_ORDINAL.fullmatch(word) is None  # "au XXe siècle"
        ):
            run.append(token)  # type: ignore[arg-type]
            continue
        if not run:
            continue  # most words: no run to go on or to close
        following = tokens[index + 1].group(0) if index + 1 < len(tokens) else ""
        if word in NAME_JOINERS and following[:1].isupper():
            run.append(token)  # type: ignore[arg-type]
            continue
        if len(run) == 1 and index == opening + 1:  # a lone capitalized first word: any
            run = []  # word, after any opening marks ("¿Dónde está ...?")
        if run and run[0].start() == tokens[0].start() and opens_sentences(run[0].group(0).lower()):
            run = run[1:]
        while run and (run[0].group(0).lower() in _DROPPED_OPENERS or _elided(run[0])):
            run = run[1:]  # "May Chen" keeps "May": it joined the run as a first name
        if run and not _broken(text, run[-1].end()):
            found.append(text[run[0].start() : run[-1].end()])
        run = []
    return tuple(found)


_UNREAD = "?\ufffd\u00ad"
"""Marks a text puts for a letter it could not encode ("Saint-Th??gonnec"), and the soft
hyphen that may follow one ("Cham?\u00ad?\u00adbord")."""


def _broken(text: str, end: int) -> bool:
    """Whether a letter the text could not encode cuts a run of capitals from the rest of its
    word ("Th" of "Th??gonnec"): what the name is cannot be read. A question mark before a
    capital ("TGIF?Wanna") closes a question that wants a space."""
    after = text[end : end + 2]
    return len(after) == 2 and after[0] in _UNREAD and (after[1].islower() or after[1] in _UNREAD)


_ROMAN_ORDINAL = re.compile(r"(?:[IVX]|[IVXLC]{2,})(?:e|er|re|ème)")
"""A Roman numeral with an ordinal's ending ("XXe", "Ier"): a century or a rank, no name
(not "Le", "Ce": a lone L or C opens a word)."""


def _elided(token: re.Match[str]) -> bool:
    """Whether a token is an elided word apart from the name it opens ("L'" of "L'Arvenia
    abrite ...": an article, no part of the name)."""
    return token.group(0)[-1:] in "'’"


def _opens_a_name(
    tokens: list[re.Match[str]],
    index: int,
    calendar: frozenset[str] = CALENDAR_WORDS,
    stop: frozenset[str] = STOPWORDS,
) -> bool:
    """Whether the month or weekday at ``index`` is a first name: a capitalized word right
    after it that is no calendar or stop word ("June Bishop", "May Chen", "August Lind"),
    and no day's number before it ("5 June Bishop said": a date)."""
    following = tokens[index + 1].group(0) if index + 1 < len(tokens) else ""
    before = [t.group(0) for t in tokens[max(index - 2, 0) : index]]
    day = before[0] if before[-1:] == ["."] and len(before) == 2 else "".join(before[-1:])
    return (
        following[:1].isupper()
        and following.lower() not in calendar
        and following.lower() not in stop
        and following not in NOT_NAMES
        and not day.isdigit()  # "5 June", "am 5. August": a date
        and tokens[index + 1].start() == tokens[index].end() + 1
    )


def opens_sentences(word: str) -> bool:
    """Whether a lower-cased word is capitalized only where it opens a sentence: an opener
    ("Yesterday") or an adverb in "-ly" ("Sadly")."""
    return word in SENTENCE_OPENERS or word.endswith("ly")


_CLOSES = frozenset([".", ";", ":", "!", "?", ")", "und", "oder"])
"""What may follow a name listed after another ("in Paris, Frankreich."): it closes the phrase."""


def names_in(text: str, language: str) -> tuple[str, ...]:
    """The names of a text in its language: runs of capitals (``names``), or, in a language
    that capitalizes every noun, only the names ``placed_names`` reads."""
    found = lexicon(language)
    if found is not None and found.nouns_capitalized:
        placed = placed_names(text, language)
        runs = [r for r in capitalized_runs(text, language) if not any(p in r for p in placed)]
        return tuple(sorted((*placed, *runs), key=text.find))
    return _without_opening_preposition(names(text), text, found)


def _without_opening_preposition(
    found: tuple[str, ...], text: str, language: Lexicon | None
) -> tuple[str, ...]:
    """The names, less the words that open the text capitalized without naming: a
    preposition of place ("À Madrid, ...", "En Madrid, ..."; "In" is an English stop word
    already), or a function word of the language that is neither an article nor a name's
    joiner, whole or elided ("Fue Tavrin quien ...", "C'est Tavrin qui ..."; "La Paz", "De
    Gaulle" keep theirs)."""
    if not found or language is None or not text.lstrip().startswith(found[0]):
        return found
    words = found[0].split(" ")
    if len(words) < 2:
        return found
    opening = {phrase.split()[0] for phrase in language.place_phrases}
    while len(words) > 1 and (words[0].lower() in opening or _no_name(words[0], language)):
        words = words[1:]
        opening = set()
    return (" ".join(words), *found[1:])


def _no_name(word: str, language: Lexicon) -> bool:
    """Whether a capitalized word opening a text is a function word and no part of a name:
    every part of it (split at an elision) a stop word, and none an article, a joiner or a
    month or weekday (``names`` kept "May" of "May Chen" as a first name)."""
    if word.lower() in CALENDAR_WORDS:
        return False
    function_words = _function_words(language.code)
    return all(p in function_words for p in re.split("['’]", word.lower()) if p)


@cache
def name_articles(code: str) -> frozenset[str]:
    """The language's articles, an elided one less its mark ("l'" -> "l"): a name may open
    with one ("La Paz", "Le Cyrrus")."""
    found = lexicon(code)
    return (
        frozenset(a.rstrip("'") for a in found.clauses.get("articles", ()))
        if found
        else frozenset()
    )


@cache
def _function_words(code: str) -> frozenset[str]:
    """The language's stop words less its articles and the joiners inside names."""
    found = lexicon(code)
    if found is None:
        return frozenset()
    return found.stopwords - name_articles(code) - NAME_JOINERS


def capitalized_runs(text: str, language: str) -> tuple[str, ...]:
    """Two capitalized words or more in a row where a language capitalizes every noun: a
    name, since German joins nouns into one word ("Mira Chandra erhielt", "ist Hana Satos
    Gründung" -> "Hana Satos"). A stop word does not open one ("Die Firma"), and a last
    word with a common noun's ending (``common_endings``) is no part of it."""
    runs: list[str] = []
    read = _capitals(text, language)
    if read is not None:
        found, skip, tokens = read
        common, start = found.common_endings, 0
        while start < len(tokens):
            end = _capitalized_run(tokens, start, skip, found)
            while end - start > 1 and tokens[end - 1].group().lower().endswith(common):
                end -= 1
            if end - start > 1:
                runs.append(text[tokens[start].start() : tokens[end - 1].end()])
            start = max(end, start + 1)
    return tuple(runs)


def placed_names(text: str, language: str) -> tuple[str, ...]:
    """Names where a language that capitalizes every noun (German) writes a place or an
    origin without an article: the capitalized words right after a word of its ``[names]``
    ``bare_after`` ("in Paris", "nach New York", "in Baden-Baden"), unless the first is a
    noun written there bare (``not_names``, ``common_endings``: "in Kraft", "in Ordnung"),
    and one listed after such a name that closes the phrase ("in Paris, Frankreich.")."""
    read = _capitals(text, language)
    if read is None:
        return ()
    found, skip, tokens = read
    out: list[str] = []
    index = 0
    while index < len(tokens) - 1:
        if tokens[index].group().lower() not in found.bare_after:
            index += 1
            continue
        end = _capitalized_run(tokens, index + 1, skip, found)
        first = tokens[index + 1].group().lower()
        if end == index + 1 or first in found.not_names or first.endswith(found.common_endings):
            index += 1
            continue
        out.append(text[tokens[index + 1].start() : tokens[end - 1].end()])
        listed = _capitalized_run(tokens, end + 1, skip, found)
        if end + 1 < len(tokens) and tokens[end].group() == "," and listed > end + 1:
            closing = tokens[listed].group().lower() if listed < len(tokens) else "."
            if closing in _CLOSES:
                out.append(text[tokens[end + 1].start() : tokens[listed - 1].end()])
                end = listed
        index = end
    return tuple(out)


def _capitals(
    text: str, language: str
) -> tuple[Lexicon, frozenset[str], list[re.Match[str]]] | None:
    """What both German name readers read: the language's table, the words no name holds
    (stop words, months, weekdays) and the text's tokens; None without a table."""
    found = lexicon(language)
    if found is None:
        return None
    skip = found.stopwords | found.months.keys() | found.weekdays.keys()
    return found, frozenset(skip), list(NAME_TOKEN.finditer(text))


def _capitalized_run(
    tokens: list[re.Match[str]], start: int, skip: frozenset[str], found: Lexicon
) -> int:
    """The end of the run of capitalized words from ``start`` (``start`` itself when there is
    none), through a hyphen or a joiner between two of them ("Baden-Baden", "Rio de Janeiro")
    and the stop after a title ("Dr. Tavrin"). A month or weekday opens one as a first name
    (``_opens_a_name``: "August Lind")."""
    end = start
    while end < len(tokens):
        word = tokens[end].group()
        if word[:1].isupper() and word[:1].isalpha() and word.lower() not in skip:
            end += 1
            continue
        lower = word.lower()
        dated = lower in found.months or lower in found.weekdays
        if end == start and dated and _opens_a_name(tokens, end, skip, skip):
            end += 1
            continue
        following = tokens[end + 1].group() if end + 1 < len(tokens) else ""
        titled = word == "." and end > start and tokens[end - 1].group().lower() in found.titles
        joins = word == "-" or word in NAME_JOINERS or word == "am" or titled
        if end > start and joins and following[:1].isupper():
            end += 1
            continue
        break
    return end


@memoized(entries=65_536)
def word_keys(word: str) -> frozenset[str]:
    """What a word of a name matches: itself, its roots less a demonym or plural ending
    ("Kenyan", "Kenya" -> "keny"; "Smiths" -> "smith"; an acronym's "PhDs", "DNNs" ->
    "phd", "dnn") and an irregular country."""
    acronym_plural = word.endswith("s") and sum(c.isupper() for c in word) >= 2
    word = word.lower()
    if len(word) < 2:
        return frozenset()
    keys = {word, word[:-1]} if acronym_plural else {word}
    keys |= {
        word[: -len(end)]
        for end in _ENDINGS_BY_LAST.get(word[-1], ())
        if word.endswith(end) and len(word) > len(end) + 3
    }
    return frozenset(keys | {IRREGULAR_DEMONYMS[k] for k in keys if k in IRREGULAR_DEMONYMS})


_ROMAN = re.compile(r"[IVX]+")


@memoized(entries=16_384)
def name_keys(name: str) -> frozenset[str]:
    """The keys of a name's words and its acronym ("United Nations", "U.N." -> "un"; a Roman
    numeral stays whole: "World War II" -> "wwii"); not an acronym that is a function word
    ("Omar Farouk" is no "of", "Isaac Newton" no "in"). Memoized: the entity rules key each
    passage name again for every claim."""
    words = _acronym_words(name)
    cased = any(w[:1].isupper() for w in words)
    keyed = [w for w in words if not (cased and w.islower())]  # "van" of "Pieter van Berg"
    acronym = _acronym(words)
    keys = frozenset().union(*(word_keys(w) for w in keyed))
    return keys | {acronym} if acronym else keys


def spelled_out_acronym(name: str) -> str:
    """The acronym key a name of many words, one of them a whole word, stands for ("lw" of
    "Lukas Weber"); none for one word, or for an acronym written with stops ("U.N."), which
    is the acronym as written."""
    words = _acronym_words(name)
    return _acronym(words) if any(len(w) > 1 for w in words) else ""


def _acronym_words(name: str) -> list[str]:
    """A name's words less "of" and "the", which an acronym skips."""
    return [w for w in WORD.findall(name) if w.lower() not in {"of", "the"}]


def _acronym(words: list[str]) -> str:
    """The initials of a name's words, lower case; a Roman numeral after the first stays
    whole. None for one word, or where the initials spell a function word."""
    initials = (w if _ROMAN.fullmatch(w) and index else w[0] for index, w in enumerate(words))
    acronym = "".join(initials).lower() if len(words) > 1 else ""
    return acronym if len(acronym) > 1 and acronym not in STOPWORDS else ""
