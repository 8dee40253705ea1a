"""Names as runs of capitalized words, and the keys a name matches by ("Kenyan" meets
"Kenya", "U.N." meets "United Nations"): a cheap stand-in for named entities."""

from __future__ import annotations

import re

from ragguard.runtime.caches import memoized
from ragguard.scoring.checks.dates import CALENDAR_WORDS
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


def names(text: str) -> tuple[str, ...]:
    """Runs of capitalized words as written ("University of Chicago", "J. Smith", "U.S."),
    a run at the start of the text only when it goes on ("The Eiffel Tower" -> "Eiffel
    Tower"; "Water boils" -> nothing). People, places, organisations."""
    tokens = list(NAME_TOKEN.finditer(text))
    found: list[str] = []
    run: list[re.Match[str]] = []
    for index, token in enumerate([*tokens, None]):
        word = token.group(0) if token else ""
        if word[:1].isupper() and word not in NOT_NAMES and word.lower() not in CALENDAR_WORDS:
            run.append(token)  # type: ignore[arg-type]
            continue
        following = tokens[index + 1].group(0) if index + 1 < len(tokens) else ""
        if run and word in NAME_JOINERS and following[:1].isupper():
            run.append(token)  # type: ignore[arg-type]
            continue
        if len(run) == 1 and index == 1:  # a lone capitalized first word: any word
            run = []
        if run and run[0].start() == tokens[0].start():
            first = run[0].group(0).lower()
            if first in SENTENCE_OPENERS or first.endswith("ly"):
                run = run[1:]
        while run and run[0].group(0).lower() in STOPWORDS:
            run = run[1:]
        if run:
            found.append(text[run[0].start() : run[-1].end()])
        run = []
    return tuple(found)


@memoized(entries=65_536)
def word_keys(word: str) -> frozenset[str]:
    """What a word of a name matches: itself, its roots less a demonym or plural ending
    ("Kenyan", "Kenya" -> "keny"; "Smiths" -> "smith") and an irregular country."""
    word = word.lower()
    if len(word) < 2:
        return frozenset()
    keys = {word} | {
        word[: -len(end)]
        for end in _ENDINGS_BY_LAST.get(word[-1], ())
        if word.endswith(end) and len(word) > len(end) + 3
    }
    return frozenset(keys | {IRREGULAR_DEMONYMS[k] for k in keys if k in IRREGULAR_DEMONYMS})


def name_keys(name: str) -> frozenset[str]:
    """The keys of a name's words and its acronym ("United Nations", "U.N." -> "un")."""
    words = [w for w in WORD.findall(name) if w.lower() not in {"of", "the"}]
    acronym = "".join(w[0] for w in words).lower() if len(words) > 1 else ""
    keys = frozenset().union(*(word_keys(w) for w in words))
    return keys | {acronym} if len(acronym) > 1 else keys
