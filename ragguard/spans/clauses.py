"""The clauses of one sentence, so that an opinion clause can be set aside and the factual
clause beside it still scored ("The Eiffel Tower is in Berlin, and I think it is beautiful.").

Boundaries are each language's ``[clauses]`` words (``ragguard/language/data/<code>.toml``):
a conjunction after a comma or semicolon (", and"), or after a space when an opener starts
the next clause ("and I love it"); and a relative clause between commas (", which I think is
beautiful,"). A list ("Paris, London, and Berlin") splits too, but a piece of fewer than
``MIN_WORDS`` words is no clause of its own, unless an opener starts it ("je l'adore").
Each clause carries the ranges of the sentence that setting it aside removes: its words and
the joiner that ties it to the rest, so what remains reads as a sentence ("The Eiffel Tower
is in Berlin.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragguard.language import lexicon, phrase_pattern, read_as

MIN_WORDS = 3
"""A subject, a verb and what it says: fewer words are a list's item, not a clause."""

_TRAILING = re.compile(r"[\s.!?।…\"'”’)]*$")


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause: its text as read alone, and the ranges of the sentence (start, end) that
    setting it aside removes (none for a sentence's only main clause: it cannot be)."""

    text: str
    aside: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class _Rules:
    joiner: re.Pattern[str]
    relative: re.Pattern[str]
    first_person: re.Pattern[str]
    opener: re.Pattern[str]


@cache
def _rules(language: str) -> _Rules | None:
    found = lexicon(read_as(language))
    words = found.clauses if found is not None else {}
    if not words.get("conjunctions"):
        return None
    conjunctions = phrase_pattern(words["conjunctions"]).pattern
    openers = phrase_pattern(words.get("openers", ())).pattern
    relatives = phrase_pattern(words.get("relatives", ())).pattern
    joiner = re.compile(
        rf"\s*[,;]\s+(?:{conjunctions})\s+|\s+(?:{conjunctions})\s+(?={openers})", re.IGNORECASE
    )
    relative = re.compile(rf",\s+(?={relatives})[^,;.!?।]+,", re.IGNORECASE)
    first_person = phrase_pattern(words.get("first_person", ()))
    return _Rules(joiner, relative, first_person, re.compile(openers, re.IGNORECASE))


def about_speaker(text: str, language: str) -> bool:
    """Whether the clause has a first-person word: it tells the speaker's experience, which
    no passage states ("and I enjoyed it")."""
    rules = _rules(language)
    return rules is not None and rules.first_person.search(text.replace("’", "'")) is not None


def clauses(text: str, language: str) -> list[Clause]:
    """The clauses of ``text``; one (the whole text, nothing to set aside) when it has no
    boundary or a piece is too short to be a clause."""
    rules = _rules(language)
    whole = [Clause(text, ())]
    if rules is None:
        return whole
    body_end = _TRAILING.search(text)
    end = body_end.start() if body_end else len(text)
    inner = [(m.start(), m.end()) for m in rules.relative.finditer(text, 0, end)]
    cuts = [
        (m.start(), m.end())
        for m in rules.joiner.finditer(text, 0, end)
        if not any(a <= m.start() < b for a, b in inner)
    ]
    if not inner and not cuts:
        return whole
    found = [Clause(text[a + 1 : b - 1].strip(), ((a, b),)) for a, b in inner]
    starts = [0, *(b for _, b in cuts)]
    ends = [*(a for a, _ in cuts), end]
    for i, (start, stop) in enumerate(zip(starts, ends, strict=True)):
        holes = [(a, b) for a, b in inner if start <= a and b <= stop]
        pieces, at = [], start
        for a, b in holes:
            pieces.append(text[at:a])
            at = b
        pieces.append(text[at:stop])
        read = " ".join(" ".join(pieces).split())
        if not cuts:  # the sentence's only main clause: setting it aside leaves no sentence
            found.append(Clause(read, ()))
            continue
        joined = (start, starts[1]) if i == 0 else (cuts[i - 1][0], stop)
        found.append(Clause(read, _without(joined, holes)))
    if any(len(c.text.split()) < MIN_WORDS and not rules.opener.match(c.text) for c in found):
        return whole
    return found


def _without(span: tuple[int, int], holes: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """``span`` less the ranges of ``holes`` inside it (a clause's own relative clauses are
    set aside, or not, on their own)."""
    ranges, at = [], span[0]
    for a, b in holes:
        if a > at:
            ranges.append((at, a))
        at = max(at, b)
    if at < span[1]:
        ranges.append((at, span[1]))
    return tuple(ranges)
