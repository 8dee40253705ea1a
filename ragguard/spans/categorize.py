"""Subjective or objective: evaluative predicates, opinion cues without checkable content,
hedges recorded.

A span is subjective when its predicate is evaluative (a cue of ``cues.EVALUATIVE``:
"beautiful", "better", "worth visiting") and it states no fact (no ``cues.FACTUAL_CUES`` verb,
digit, month or spelled-out quantity), names or not; or when a cue of an opinion class
(``cues.OPINION_CLASSES``: "I think") occurs in it and it has no checkable content
(``cues.CHECKABLE_CONTENT``: a digit, a month, a spelled-out quantity, a name inside the
sentence). The second rule needs names, so it is off where capitals do not mark them (German,
Hindi); the first is not. Cues of the hedge classes
("likely", "some", "may", "often") are returned as the span's hedges and never make it
subjective. Cue matches are guarded against plain false positives:

* "May" followed by a number is the month ("in May 2020", "May 5").
* "most" after "the" or "at" is a superlative or a bound ("the most populous", "at most 5").
* "best"/"better" before "known" is a fact about fame ("best known for").
* A one-word cue in Title Case that does not start the sentence is part of a name
  ("Great Britain", "the Best Picture award", "in May").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

from ragguard.config import SpanConfig
from ragguard.language import MONTHS, kinds_off, lexicon, phrase_pattern, read_as, starts_sentence
from ragguard.spans.clauses import about_speaker, clauses, on_subject
from ragguard.spans.cues import (
    CHECKABLE_CONTENT,
    FACTUAL_CUES,
    HEDGE_CLASSES,
    LEXICON,
    OPINION_CLASSES,
    QUANTITY_WORDS,
)

Category = Literal["objective", "subjective"]

_NUMBER_AHEAD = re.compile(r"\s+\d")
_KNOWN_AHEAD = re.compile(r"\s+known\b", re.IGNORECASE)
_THE_OR_AT_BEHIND = re.compile(r"\b(?:the|at)\s+$", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_TITLE_WORD = re.compile(r"(?<![\w'-])[A-Z][\w'’-]*")
_FIRST_PERSON = frozenset({"I", "I'm", "I'd", "I've", "I'll"})


@dataclass(frozen=True, slots=True)
class SubjectivityRule:
    """Which lexicon classes mark an opinion, and which kinds of checkable content keep an
    opinionated span objective (names from ``lexicon.CHECKABLE_CONTENT``)."""

    opinion_classes: tuple[str, ...] = OPINION_CLASSES
    checkable: tuple[str, ...] = CHECKABLE_CONTENT
    evaluative: bool = True
    """Whether an evaluative predicate with no fact stated makes a span subjective even when
    it has checkable content (names)."""


RAG_CHECK_RULE = SubjectivityRule(opinion_classes=tuple(LEXICON), checkable=(), evaluative=False)
"""RAG-Check's literal rule, for comparison: any cue of any class makes a span subjective."""


class Categorization(NamedTuple):
    kind: Category
    classes: list[str]
    """The lexicon classes with a cue in the span, in lexicon order (why it is subjective)."""
    hedges: list[str]
    """The hedge-class cues in the span as written (lower case), in order of appearance."""
    aside: tuple[tuple[int, int], ...] = ()
    """Offsets in the text of the opinion clauses set aside from an objective sentence."""


class Categorizer:
    """Subjective/objective by the lexicon and a rule, with a config's additions and
    removals applied to the lexicon."""

    def __init__(
        self,
        add: Mapping[str, Sequence[str]] | None = None,
        remove: Sequence[str] = (),
        rule: SubjectivityRule | None = None,
    ) -> None:
        self.rule = rule or SubjectivityRule()
        unknown = [c for c in self.rule.checkable if c not in _CHECKS]
        if unknown:
            raise ValueError(f"unknown checkable content {', '.join(map(repr, unknown))}")
        self.lexicon: Mapping[str, tuple[str, ...]] = merge_lexicon(add or {}, remove)
        self._patterns = {name: _compile(cues) for name, cues in self.lexicon.items() if cues}

    @classmethod
    def from_config(cls, config: SpanConfig) -> Categorizer:
        return cls(config.add_subjective, config.remove_subjective)

    def _matches(
        self,
        text: str,
        patterns: Mapping[str, re.Pattern[str]] | None = None,
        capitals_mark_names: bool = True,
    ) -> dict[str, list[re.Match[str]]]:
        found = {
            name: [
                m
                for m in pattern.finditer(text)
                if not _is_false_positive(text, m, capitals_mark_names)
            ]
            for name, pattern in (self._patterns if patterns is None else patterns).items()
        }
        return {name: matches for name, matches in found.items() if matches}

    def matched_classes(self, text: str) -> list[str]:
        """The lexicon classes with a cue in ``text``, in lexicon order."""
        return list(self._matches(text.replace("’", "'")))

    def categorize(self, text: str, language: str = "en") -> Categorization:
        """The span's kind, the classes that fired and its hedge cues, by the lexicon of
        ``language`` (the configured one for a language whose data file says
        ``configured_subjectivity``, English, and for undetermined text; for another, its
        ``ragguard.language`` lexicon, and never subjective where ``checks_off`` says so).

        A sentence whose clauses (``ragguard.spans.clauses``) are subjective and factual
        (objective, not about the speaker) is objective, its subjective clauses in
        ``aside``: the factual part is scored, the opinion set aside."""
        text = text.replace("’", "'")
        subjective, matches = self._subjective(text, language)
        hedges = _outermost(
            [m for name, ms in matches.items() if name in HEDGE_CLASSES for m in ms]
        )
        aside = self._opinion_clauses(text, language)
        return Categorization(
            "objective" if aside else "subjective" if subjective else "objective",
            list(matches),
            [" ".join(m.group().lower().split()) for m in hedges],
            aside,
        )

    def _opinion_clauses(self, text: str, language: str) -> tuple[tuple[int, int], ...]:
        """The ranges of the subjective clauses of ``text`` when another clause of it is
        factual; none otherwise (one clause, no opinion, or no fact beside it)."""
        parts = clauses(text, language)
        if len(parts) < 2:
            return ()
        subjective = [self._subjective(c.text, language, c.main)[0] for c in parts]
        factual = [
            c.main and not opinion and not about_speaker(c.text, language)
            for c, opinion in zip(parts, subjective, strict=True)
        ]
        settable = all(c.aside for c, opinion in zip(parts, subjective, strict=True) if opinion)
        if not (any(subjective) and any(factual) and settable):
            return ()
        ranges = (
            r for c, opinion in zip(parts, subjective, strict=True) if opinion for r in c.aside
        )
        return tuple(sorted(ranges))

    def _subjective(
        self, text: str, language: str, main: bool = True
    ) -> tuple[bool, dict[str, list[re.Match[str]]]]:
        """Whether ``text`` read as one clause is subjective, and the cues found in it. An
        aside (not ``main``) has no subject of its own: "a marvellous sight" judges."""
        if _configured(language):
            matches = self._matches(text)
            opinion = any(name in self.rule.opinion_classes for name in matches)
            facts = _FACTUAL[-1:] if self.rule.evaluative else ()
            checkable = [*(_CHECKS[c] for c in self.rule.checkable), *facts]
            evaluative = self.rule.evaluative and _judges(text, matches, language, main)
            factual: Sequence[Callable[[str], bool]] = _FACTUAL
        else:
            rule = _language_rule(language)
            matches = self._matches(text, rule.patterns, rule.names)
            opinion = rule.opinions and any(name in OPINION_CLASSES for name in matches)
            checkable = list(rule.checkable)
            evaluative = rule.evaluative and _judges(text, matches, language, main)
            factual = rule.factual
        subjective = (evaluative and not any(states(text) for states in factual)) or (
            opinion and not any(has(text) for has in checkable)
        )
        return subjective, matches


def _judges(
    text: str, matches: Mapping[str, list[re.Match[str]]], language: str, main: bool
) -> bool:
    """Whether an evaluative cue of ``matches`` sits in the predicate: one on the opening
    subject of a main clause ("The beautiful Eiffel Tower is in Berlin",
    ``clauses.on_subject``) judges nothing the sentence claims, so it cannot hide the fact."""
    return any(
        not (main and on_subject(text, m.start(), m.end(), language))
        for m in matches.get("evaluative", ())
    )


def _configured(language: str) -> bool:
    """Whether ``language`` is read with the configured lexicon and ``SubjectivityRule``
    (its data file's ``configured_subjectivity``; undetermined text as ``read_as`` says)."""
    found = lexicon(read_as(language))
    return found is not None and found.configured_subjectivity


@dataclass(frozen=True, slots=True)
class _LanguageRule:
    """The subjectivity rule in a language not read with the configured one: its cues by
    class, whether an opinion cue with nothing checkable is set aside (only where names can
    be found), whether an evaluative predicate is, what checkable content and what a stated
    fact look like."""

    patterns: Mapping[str, re.Pattern[str]]
    opinions: bool
    checkable: tuple[Callable[[str], bool], ...]
    evaluative: bool = False
    factual: tuple[Callable[[str], bool], ...] = ()
    names: bool = False
    """Whether capitals mark names in the language (so a Title Case cue is part of one)."""


@cache
def _language_rule(language: str) -> _LanguageRule:
    """The ``_LanguageRule`` of a language, built once (it depends on no configuration)."""
    found = lexicon(language)
    if found is None:
        return _LanguageRule({}, False, ())
    months = phrase_pattern(found.months)
    quantities = phrase_pattern([*found.spelled, *found.scales])
    facts = phrase_pattern(found.factual)
    checkable: list[Callable[[str], bool]] = [
        _CHECKS["number"],
        lambda text: months.search(text) is not None,
        lambda text: quantities.search(text) is not None,
    ]
    factual = (*checkable, lambda text: facts.search(text) is not None)
    # a capital marks a name only in a script with capitals (not Devanagari) where the
    # language writes no noun capitalized (not German)
    cased = found.script == "latin" and not found.nouns_capitalized
    names = cased and "entity" not in kinds_off(language)
    checkable.append(factual[-1])
    if names:
        checkable.append(_has_proper_name)
    patterns = {name: phrase_pattern(cues) for name, cues in found.subjective.items() if cues}
    allowed = "subjective" not in kinds_off(language)
    return _LanguageRule(patterns, allowed and names, tuple(checkable), allowed, factual, names)


def _outermost(matches: list[re.Match[str]]) -> list[re.Match[str]]:
    """The matches not inside a longer one ("some" inside "some sources say"), by position."""
    ordered = sorted(matches, key=lambda m: (m.start(), -m.end()))
    kept: list[re.Match[str]] = []
    for match in ordered:
        if kept and match.end() <= kept[-1].end():
            continue
        kept.append(match)
    return kept


def has_checkable(kind: str, text: str) -> bool:
    """Whether ``text`` carries checkable content of ``kind`` (one of ``CHECKABLE_CONTENT``)."""
    return _CHECKS[kind](text.replace("’", "'"))


def _has_proper_name(text: str) -> bool:
    return any(
        m.group() not in _FIRST_PERSON and not starts_sentence(text, m.start())
        for m in _TITLE_WORD.finditer(text)
    )


_MONTH = re.compile(rf"\b(?:{'|'.join(m.title() for m in MONTHS)})\b")
_QUANTITY = re.compile(
    rf"(?<![\w-])(?:{'|'.join(re.escape(w) for w in QUANTITY_WORDS)})(?![\w-])", re.IGNORECASE
)
_CHECKS: Mapping[str, Callable[[str], bool]] = {
    "number": lambda text: _DIGIT.search(text) is not None,
    "date": lambda text: _MONTH.search(text) is not None,
    "quantity": lambda text: _QUANTITY.search(text) is not None,
    "proper_name": _has_proper_name,
}
_FACTUAL_PATTERN = phrase_pattern(FACTUAL_CUES)
_FACTUAL: tuple[Callable[[str], bool], ...] = (
    _CHECKS["number"],
    _CHECKS["date"],
    _CHECKS["quantity"],
    lambda text: _FACTUAL_PATTERN.search(text) is not None,
)


def merge_lexicon(
    add: Mapping[str, Sequence[str]], remove: Sequence[str]
) -> dict[str, tuple[str, ...]]:
    """The built-in lexicon plus ``add`` (cues per class), minus ``remove``.

    An entry of ``remove`` that names a class drops the whole class; any other entry is a cue
    dropped from every class. Unknown class names and removals that match nothing raise
    ValueError, so a typo cannot silently leave the lexicon unchanged.
    """
    unknown = [name for name in add if name not in LEXICON]
    if unknown:
        raise ValueError(
            f"add_subjective: unknown lexicon class {', '.join(map(repr, unknown))}; "
            f"known classes: {', '.join(LEXICON)}"
        )
    merged = {
        name: tuple(dict.fromkeys([*cues, *(_normalize(cue) for cue in add.get(name, ()))]))
        for name, cues in LEXICON.items()
    }
    for entry in remove:
        cue = _normalize(entry)
        if cue in merged:
            del merged[cue]
        elif any(cue in cues for cues in merged.values()):
            merged = {name: tuple(c for c in cues if c != cue) for name, cues in merged.items()}
        else:
            raise ValueError(
                f"remove_subjective: {entry!r} is neither a lexicon class nor one of its cues"
            )
    return merged


def _normalize(cue: str) -> str:
    normalized = " ".join(cue.lower().replace("’", "'").split())
    if not normalized:
        raise ValueError("subjectivity cues must not be empty")
    return normalized


def _compile(cues: Sequence[str]) -> re.Pattern[str]:
    """One alternation per class, longest cue first, bounded by non-word, non-hyphen chars."""
    longest_first = sorted(cues, key=len, reverse=True)
    alternation = "|".join(r"\s+".join(map(re.escape, cue.split())) for cue in longest_first)
    return re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])", re.IGNORECASE)


def _is_false_positive(text: str, match: re.Match[str], capitals_mark_names: bool = True) -> bool:
    """The guards listed in the module docstring (the Title Case one only where capitals mark
    names: German capitalises every noun, "ein Meisterwerk")."""
    word = match.group()
    if word == "May" and _NUMBER_AHEAD.match(text, match.end()):
        return True
    if word.lower() == "most" and _THE_OR_AT_BEHIND.search(text, 0, match.start()):
        return True
    if word.lower() in ("best", "better") and _KNOWN_AHEAD.match(text, match.end()):
        return True
    return (
        capitals_mark_names
        and len(word.split()) == 1
        and word.istitle()
        and not starts_sentence(text, match.start())
    )
