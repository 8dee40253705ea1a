"""Numbers that end a name or open one ("Flight 77", "Despicable Me 2", "the 90th FA
Community Shield"): they name one thing among its kind, and the passage names another thing
when it writes the same name with another number."""

from __future__ import annotations

import re
from collections.abc import Callable

from ragguard.language import lexicon_or_fallback
from ragguard.scoring.checks.dates import MONTH
from ragguard.scoring.checks.numbers import Quantity
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.quantity_match import comparable, same_quantity
from ragguard.scoring.checks.words import WORD
from ragguard.scoring.lexical.text import stopwords_of

NAME_WORDS = 2
"""Words of a name read beside its number: "Team Fortress 2", "US Airways Flight 1549"."""
NAME_WINDOW = 80
"""Characters read on either side of a number for its name: two words and more."""
NAME_END = re.compile(r'[,;:()\[\]"]')
"""Marks that end a name's stretch of text ("from DC, United 93" is named "United")."""

Read = Callable[[str, int, int, int], list[str]]
"""How a name is read beside a number: text, the number's start and end, words wanted."""


def _value_at(text: str, value: str) -> int:
    """Where ``value`` is written in ``text`` as a number of its own (not the "2" of
    "2007"), or -1."""
    found = re.search(rf"(?<![\w.,]){re.escape(value)}(?![\w])", text)
    return found.start() if found else -1


def _before(text: str, start: int, end: int, count: int) -> list[str]:
    """The last ``count`` words before the number, within its stretch of text."""
    window = max(start - NAME_WINDOW, 0)
    marks = [m.end() for m in NAME_END.finditer(text, window, start)]
    return WORD.findall(text, marks[-1] if marks else window, start)[-count:]


def _after(text: str, start: int, end: int, count: int) -> list[str]:
    """The first ``count`` words after the number, within its stretch of text."""
    mark = NAME_END.search(text, end, end + NAME_WINDOW)
    return WORD.findall(text, end, mark.start() if mark else end + NAME_WINDOW)[:count]


def _name(claim: Sentence, q: Quantity, read: Read, leading: bool) -> tuple[str, ...]:
    """The capitalised words right beside a number written in digits with no bound
    ("Nearly 40" is no name), lower-cased, less months and function words at the name's
    outer edge ("The iPhone 4" is "iphone"; "Despicable Me 2" keeps "me")."""
    if not q.text[:1].isdigit() or q.bound:
        return ()
    at = _value_at(claim.text, q.text)
    if at < 0:
        return ()
    words = read(claim.text, at, at + len(q.text), NAME_WORDS)
    run: list[str] = []
    for word in reversed(words) if leading else words:
        if not any(c.isupper() for c in word) or MONTH.fullmatch(word):
            break  # a script with no case writes no capitalised name
        run.append(word)
    stop = stopwords_of(claim.language)
    while run and run[-1].lower() in stop:
        run.pop()
    return tuple(w.lower() for w in (reversed(run) if leading else run))


def name_before(claim: Sentence, q: Quantity) -> tuple[str, ...]:
    """The name that ``q`` ends in the claim ("Flight 77" gives "flight"); empty if none."""
    return _name(claim, q, _before, leading=True)


def name_after(claim: Sentence, q: Quantity) -> tuple[str, ...]:
    """The name that ``q`` opens in the claim ("the 90th FA Community Shield" gives "fa
    community"); empty if none."""
    return _name(claim, q, _after, leading=False)


def ends_a_name(claim: Sentence, q: Quantity) -> bool:
    """Whether ``q`` ends a name in the claim (``name_before``)."""
    return bool(name_before(claim, q))


def _named_by(
    q: Quantity, sentences: tuple[Sentence, ...], name: tuple[str, ...], read: Read
) -> str | None:
    """The first other number of ``q``'s kind the passage writes beside ``name``; None where
    it writes ``q`` there too."""
    rival = None
    for sentence in sentences:
        for e in sentence.quantities:
            if e.bound or not comparable(q, e):
                continue
            at = _value_at(sentence.text, e.text)
            beside = read(sentence.text, at, at + len(e.text), len(name)) if at >= 0 else []
            if tuple(w.lower() for w in beside) != name:
                continue
            if same_quantity(q, e):
                return None
            rival = rival or e.text
    return rival


def named_rival(claim: Sentence, q: Quantity, sentences: tuple[Sentence, ...]) -> str | None:
    """Another number the passage writes beside the name ``q`` ends or opens, where it
    never writes ``q`` there ("Despicable Me 3" against "Despicable Me 2"; "the 94th FA
    Community Shield" against "the 90th FA Community Shield"). A number that opens a name
    may count it ("19 Supreme Court Justices"), and a German capital marks any noun ("im Jahr
    1912"), so there the claim's value must be written nowhere in the passage."""
    before = name_before(claim, q)
    name = before or name_after(claim, q)
    if not name:
        return None
    unwritten_only = not before or lexicon_or_fallback(claim.language).nouns_capitalized
    if unwritten_only and any(same_quantity(q, e) for s in sentences for e in s.quantities):
        return None  # "im Jahr 1912": a German capital marks a noun, not a name
    return _named_by(q, sentences, name, _before if before else _after)
