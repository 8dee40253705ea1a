"""Typed contradiction checks: decisive, explained mismatches between a claim and evidence.

Cosine similarity scores "The Eiffel Tower is in Berlin" close to a passage that says Paris,
so the lite support scorer runs these checks beside its head and lets a fired one overrule
it. Each check looks for a *slot* of the claim (a quantity, a date, a name, a polarity) that
the evidence fills differently in the sentence that talks about the same thing: the
*anchor*, the evidence sentence sharing the most of the claim's other content words. A slot
value that the evidence states elsewhere, in a sentence that shares as much of the claim,
does not fire (the claim then joins two sentences of the passage).

Pure Python and regular expressions; passages are parsed once (cached), so a check costs a
few set intersections per evidence sentence. ``CHECKS`` lists every check; the modules of
this package hold one concern each (``numbers`` reads quantities, ``quantities`` checks
them, and so on); every word list is its language's data file
(``ragguard/language/data/<code>.toml``; English's lists by name:
``ragguard.scoring.lexical.vocabulary``).
"""

from __future__ import annotations

import re
import typing as _typing
from collections.abc import Callable
from dataclasses import dataclass

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.language import (
    SUPPORTED,
    UNDETERMINED,
    answers_the_question,
    detect,
    kinds_off,
    normalized,
    read_as,
    skeleton,
)
from ragguard.runtime import clear_caches as caches_clear_caches
from ragguard.runtime import memoized
from ragguard.schema import CONTRADICTIONS, KINDS, CheckKind
from ragguard.scoring.checks.casing import recased
from ragguard.scoring.checks.coverage import uncovered_findings
from ragguard.scoring.checks.entities import name_findings
from ragguard.scoring.checks.months import month_findings, weekday_findings
from ragguard.scoring.checks.numbers import Quantity, quantities
from ragguard.scoring.checks.parse import Sentence, parse, parse_passage, sentences_of
from ragguard.scoring.checks.periods import periods
from ragguard.scoring.checks.polarity import polarity_findings, ranking_denied, sentence_cues
from ragguard.scoring.checks.proper_names import names
from ragguard.scoring.checks.quantity_match import same_quantity
from ragguard.scoring.checks.quantity_rules import quantity_findings
from ragguard.scoring.checks.superlatives import superlative_findings
from ragguard.scoring.checks.written_numbers import in_passage_digits
from ragguard.scoring.interface.protocols import Reason

if _typing.TYPE_CHECKING:
    from ragguard.scoring.checks.answers import answer_readings, question_reading
    from ragguard.scoring.checks.polar_answers import polar_reading

__all__ = [
    "CHECKS",
    "CONTRADICTIONS",
    "Check",
    "Findings",
    "Quantity",
    "answer_readings",
    "check",
    "checked_language",
    "clear_caches",
    "in_passage_digits",
    "names",
    "negation_explained",
    "polar_reading",
    "quantities",
    "question_reading",
    "same_quantity",
]

Findings = Callable[[Sentence, tuple[Sentence, ...]], list[Reason]]
"""A check: the reasons it finds for a parsed claim against the parsed evidence sentences."""


@dataclass(frozen=True, slots=True)
class Check:
    """One check of the registry: the kinds of reason it gives (each a row of
    ``ragguard.schema.check_kinds.KINDS``, which says whether it vetoes support) and the
    function."""

    kinds: tuple[CheckKind, ...]
    findings: Findings
    whole_claim: bool = False
    """Asked once of the whole claim, not of each of its sentences."""


CHECKS: tuple[Check, ...] = (
    Check(("number", "date"), quantity_findings),
    Check(("date",), month_findings),
    Check(("date",), weekday_findings),
    Check(("negation",), polarity_findings),
    Check(("entity",), name_findings),
    Check(("superlative",), superlative_findings),
    Check(("uncovered",), uncovered_findings, whole_claim=True),
)
"""Every check, in the order its reasons are listed."""


def _covers_the_table() -> None:
    """The checks give exactly the kinds the table says a check gives."""
    given = {kind for c in CHECKS for kind in c.kinds}
    table = {row.kind for row in KINDS if row.given_by == "check"}
    if given != table:
        raise TypeError(f"CHECKS give {sorted(given)}, check_kinds.KINDS says {sorted(table)}")


_covers_the_table()


def clear_caches() -> None:
    """Forget parsed passages and checked pairs (benchmarks time a cold start with it):
    every cache of this package, as ``ragguard.runtime.caches`` registers them."""
    caches_clear_caches(__name__)


def checked_language(claim: str, passage: str, fallback: str = UNDETERMINED) -> str | None:
    """The language both texts are checked in: the claim's, else the passage's, else
    ``fallback`` (the language the trace is read in: two short sentences may show none of
    their own), else English. None when the checks cannot read the pair: the two are in
    different languages (the checks compare words), or in one ragguard has no word lists
    for."""
    claim_language, passage_language = detect(claim), detect(passage)
    known = UNDETERMINED not in (claim_language, passage_language)
    if known and claim_language != passage_language:
        return None
    shown = claim_language if claim_language != UNDETERMINED else passage_language
    language = read_as(shown if shown != UNDETERMINED else fallback)
    return language if language in SUPPORTED else None


def _read_pair(
    claim: str, passage: str, fallback: str = UNDETERMINED
) -> tuple[str, str, str] | None:
    """Both texts as the checks read them (normalised, then their skeleton) and their
    language; None where the checks cannot read the pair (``checked_language``)."""
    claim, passage = normalized(claim), normalized(passage)
    language = checked_language(claim, passage, fallback)
    if language is None:
        return None
    return skeleton(claim), skeleton(passage), language


_CIRCA_END = re.compile(r"\b(?:c|ca)\.$", re.IGNORECASE)
_RANK_END = re.compile(r"(?<![\d.,])\d{1,2}\.$")


def _claim_sentences(claim: str, language: str = "en") -> list[str]:
    """The claim's sentences as the evidence is split, less the stops of "c." and "ca."
    before a number ("built c. 1925" is one sentence with an approximate year) and of a
    rank that a century follows ("im 18. Jahrhundert": ``periods``)."""
    parts: list[str] = []
    for part in sentences_of(claim, language):
        circa = parts and _CIRCA_END.search(parts[-1]) and part[:1].isdigit()
        rank = parts and _RANK_END.search(parts[-1])
        if circa or (rank and periods(parts[-1][-3:] + " " + part, language)):
            parts[-1] += " " + part
        else:
            parts.append(part)
    return parts


@memoized(entries=65_536)
def check(claim: str, passage: str, fallback: str = UNDETERMINED) -> tuple[Reason, ...]:
    """Every check that fires for ``claim`` against ``passage``: contradictions (number,
    date, negation, entity) first, then uncovered content. Each sentence of a longer claim
    is checked on its own. Both texts are compared normalised (``ragguard.language.normalize``):
    in Unicode's composed form, so "Café" written with a combining accent is the same name as
    "Café" written with one letter, and without zero-width characters, so "n\u200bot" is
    "not". Once their language is known, both are read as their skeleton (``skeleton``:
    "⑤⓪⓪" is 500, "nоt" with a Cyrillic o is "not").
    They are read in their language (``checked_language``; ``fallback`` where neither
    shows one), less the checks it switches off (``ragguard.language.checks_off``); a pair
    the checks cannot read gets none."""
    read = _read_pair(claim, passage, fallback)
    if read is None:
        return ()
    claim, passage, language = read
    claim = in_passage_digits(claim, passage, language)  # "from 1866 to ...", as the passage
    off = kinds_off(language)
    run = [c for c in CHECKS if not off.intersection(c.kinds)]
    sentences = parse_passage(passage, language)
    if "entity" not in off:
        claim = recased(claim, passage, language)
    findings: list[Reason] = []
    for part in _claim_sentences(claim, language):
        parsed = parse(part, language)
        if sentences and parsed.content:
            for each in run:
                if not each.whole_claim:
                    findings += each.findings(parsed, sentences)
    whole = parse(claim, language)
    for each in run:
        if each.whole_claim:
            findings += each.findings(whole, sentences)
    return tuple(findings)


@memoized(entries=65_536)
def negation_explained(claim: str, passage: str, fallback: str = UNDETERMINED) -> bool:
    """Whether the claim's negation says what the passage's ranking says ("not the largest"
    against "the sixth-largest": ``polarity.ranking_denied``), or only answers a yes/no
    question ("No, it opened in 1931."). The support head's ``negation_mismatch`` feature
    then counts no mismatch."""
    read = _read_pair(claim, passage, fallback)
    if read is None or "negation" in kinds_off(read[2]):
        return False
    claim, passage, language = read
    sentences = parse_passage(passage, language)
    parsed = parse(claim, language)
    cues = sentence_cues(parsed)
    if not cues and answers_the_question(parsed.words, parsed.text, language):
        return True
    return any(ranking_denied(parsed, cue, sentences) for cue in cues)


__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
