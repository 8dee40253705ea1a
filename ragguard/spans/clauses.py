"""The clauses of one sentence, so that an opinion clause can be set aside and the factual
clause beside it still scored ("The Eiffel Tower is in Berlin, and I think it is beautiful.").

Boundaries are each language's ``[clauses]`` words (``ragguard/language/data/<code>.toml``):
a conjunction after a comma or semicolon (", and"), or after a space when an opener starts
the next clause ("and I love it"). Inside a clause, asides may be set aside on their own: a
piece between commas (", which I think is beautiful,", an appositive ", a beautiful river,",
", in my view the finest,"), a parenthesis ("(breathtaking)"), and a last piece after a
comma when a relative word opens it (", which is a lovely sight."; not a comma splice:
"Try the bakery, it is wonderful" is advice). A lead before a comma is no aside: "In my
opinion, ..." says the whole sentence is an opinion. A list ("Paris, London, and Berlin")
splits too, but a main clause of fewer than ``MIN_WORDS`` words is no clause of its own,
unless an opener starts it ("je l'adore"). Each clause carries the ranges of the sentence
that setting it aside removes: its words and the joiner that ties it to the rest, so what
remains reads as a sentence ("The Eiffel Tower is in Berlin.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from ragguard.language import SUPPORTED, UNDETERMINED, lexicon, phrase_pattern, read_as

MIN_WORDS = 3
"""A subject, a verb and what it says: fewer words are a list's item, not a clause."""

_PARENTHESIS = re.compile(r"\s*\([^()]*\)")
_COMMA = re.compile(r",(?=\s)")

_TRAILING = re.compile(r"[\s.!?।…\"'”’)]*$")


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause: its text as read alone, and the ranges of the sentence (start, end) that
    setting it aside removes (none for a sentence's only main clause: it cannot be)."""

    text: str
    aside: tuple[tuple[int, int], ...]
    main: bool = True
    """A main clause, not an aside inside one (a parenthesis, an appositive, a lead)."""


@dataclass(frozen=True, slots=True)
class _Rules:
    joiner: re.Pattern[str]
    relative: re.Pattern[str]
    conjunction: re.Pattern[str]
    first_person: re.Pattern[str]
    opener: re.Pattern[str]
    article: re.Pattern[str]


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
    first_person = phrase_pattern(words.get("first_person", ()))
    articles = phrase_pattern(words.get("articles", ())).pattern
    return _Rules(
        joiner,
        re.compile(rf"\s*(?:{relatives})", re.IGNORECASE),
        re.compile(rf"\s*(?:{conjunctions})(?!\w)", re.IGNORECASE),
        first_person,
        re.compile(openers, re.IGNORECASE),
        re.compile(rf"\W*(?:(?:{articles})\s+)?$", re.IGNORECASE),
    )


def on_subject(text: str, start: int, end: int, language: str) -> bool:
    """Whether the cue at ``start:end`` is an attribute of the subject that opens ``text``
    ("The beautiful Eiffel Tower is in Berlin", "El hermoso puente ..."): nothing but an
    article before it, a word after it, and it neither ranks ("The best cities are ...",
    ``_ranks``) nor speaks for the speaker ("I love the beaches"). Such a word judges no
    predicate, so it cannot hide the fact the predicate states. Text of undetermined
    language may be in any: each supported language's articles count."""
    codes = SUPPORTED if language == UNDETERMINED else (language,)
    return any(_attribute(text, start, end, code) for code in codes)


def _attribute(text: str, start: int, end: int, language: str) -> bool:
    rules = _rules(language)
    cue = text[start:end]
    return (
        rules is not None
        and rules.article.match(text, 0, start) is not None
        and re.match(r"\s+\w", text[end:]) is not None
        and rules.first_person.search(cue) is None
        and not _ranks(cue, language)
    )


def _ranks(cue: str, language: str) -> bool:
    """Whether ``cue`` ranks or compares (a superlative or comparative of the language's
    ``[superlatives]`` and ``comparisons_preferences`` words): a subject picked out by rank
    is the claim itself ("The best pizza is in Naples")."""
    found = lexicon(read_as(language))
    if found is None:
        return False
    ranks = found.superlatives
    words = cue.lower().split()
    comparisons = found.subjective.get("comparisons_preferences", ())
    return (
        cue.lower() in comparisons
        or any(w in ranks.analytic for w in words)
        or any(
            w.endswith(ranks.endings) and w not in ranks.not_superlative and len(w) > 3
            for w in words
        )
    )


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
    inner = _asides(text, end, rules)
    cuts = [
        (m.start(), m.end())
        for m in rules.joiner.finditer(text, 0, end)
        if not any(a <= m.start() < b for a, b in inner)
    ]
    if not inner and not cuts:
        return whole
    found = [Clause(text[a:b].strip(" ,;()"), ((a, b),), main=False) for a, b in inner]
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
    mains = [c for c in found if c.main]
    if any(len(c.text.split()) < MIN_WORDS and not rules.opener.match(c.text) for c in mains):
        return whole
    return found


def _asides(text: str, end: int, rules: _Rules) -> list[tuple[int, int]]:
    """The ranges of the asides of ``text[:end]`` (the module docstring's kinds), each with
    the commas or the space that set it apart, in order, none overlapping."""
    found = [(m.start(), m.end()) for m in _PARENTHESIS.finditer(text)]
    commas = [
        m.start()
        for m in _COMMA.finditer(text, 0, end)
        if not any(a <= m.start() < b for a, b in found)
    ]
    if not commas:
        return found
    bounds = [*commas, end]
    pieces = [(comma, stop, text[comma + 1 : stop]) for comma, stop in pairwise(bounds)]
    listed = False  # the pieces before ", and C" are a list's items ("A, B, and C")
    for i, (comma, stop, piece) in reversed(list(enumerate(pieces))):
        joined = rules.conjunction.match(piece) is not None
        if joined or listed:
            listed = True  # a joiner's clause or a list's item, not an aside
        elif i < len(pieces) - 1:
            found.append((comma, stop + 1))
        elif rules.relative.match(piece):
            found.append((comma, stop))
    return _merged(found)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` in order, overlapping ones joined."""
    merged: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


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
