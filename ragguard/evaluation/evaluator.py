"""The Evaluator: one path for live and replayed traces.

A batch of traces becomes three model calls at most: abstention embeddings for all spans,
relevance for all (query, item) pairs, support for all (span, item) pairs. Per-trace
problems become per-trace outcomes, never a failed batch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Unpack

from ragguard.config import Config
from ragguard.errors import MediaError, TraceValidationError
from ragguard.evaluation.assemble import assemble, lite
from ragguard.evaluation.limits import check_limits
from ragguard.evaluation.models import GivenModels, Models
from ragguard.evaluation.plan import (
    ItemPlan,
    Outcome,
    PairScore,
    SpanPlan,
    TracePlan,
    UnreadPair,
)
from ragguard.language import UNDETERMINED, unreadable
from ragguard.media import Decoded, Visual, best_frames, decoded_visual, unreadable_file
from ragguard.metrics import SCORED_KINDS, DriftMonitor, answer_sentences
from ragguard.runtime import Stopwatch
from ragguard.runtime import clear_caches as caches_clear_caches
from ragguard.schema import CalibrationStatus, Evaluation, FieldIssue, Thresholds, Trace
from ragguard.scoring.checks import answer_readings, polar_reading, question_reading
from ragguard.scoring.encoders import one_blas_thread
from ragguard.scoring.interface import Claim, Evidence, item_evidence
from ragguard.scoring.lite import Languages
from ragguard.scoring.wiring import on_scale
from ragguard.spans import ItemRef

if TYPE_CHECKING:
    from ragguard.judge import Ruling


class Evaluator:
    """Scores traces with the models of its bundle (``Models``), handed to it or built."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        models: Models | None = None,
        **given: Unpack[GivenModels],
    ) -> None:
        self.models = models or Models.build(config, **given)
        self.config = self.models.config
        self._drift = DriftMonitor(
            self.config.calibration.fitted.score_quantiles if self.config.calibration.fitted else ()
        )
        self._models_only = False

    @contextlib.contextmanager
    def models_only(self) -> Iterator[None]:
        """Batches evaluated in this block use the local models alone: no judge, no
        calibration or drift state (``Guard.warmup``'s synthetic trace is no traffic to
        judge or to learn from, and its span must not reach the state file)."""
        self._models_only = True
        try:
            yield
        finally:
            self._models_only = False

    def clear_caches(self) -> None:
        """Forget every content-hash cache: embeddings, parsed passages and checked pairs,
        text tokens, relevance scores. Benchmarks call it to time a cold start; models stay
        loaded."""
        caches_clear_caches()

    def evaluate_batch(self, traces: Sequence[Trace]) -> list[Outcome]:
        """Evaluate traces together; a bad trace yields its error, the others go on."""
        with one_blas_thread():
            return self._evaluate_batch(traces)

    def _evaluate_batch(self, traces: Sequence[Trace]) -> list[Outcome]:
        watch = Stopwatch()
        plans = [TracePlan(trace) for trace in traces]
        outcomes: list[Outcome | None] = [check_limits(t, self.config.limits) for t in traces]
        with watch.stage("spans"):
            self._analyze([p for p, o in zip(plans, outcomes, strict=True) if o is None])
            for index, plan in enumerate(plans):
                if outcomes[index] is None:
                    outcomes[index] = self._citation_policy(plan)
            live = [p for p, o in zip(plans, outcomes, strict=True) if o is None]
        with watch.stage("media"):
            decoded: Decoded = {}
            for plan in live:
                self._collect_evidence(plan, decoded)
        with watch.stage("relevance"):
            self._score_relevance(live)
        with watch.stage("support"):
            self._score_support(live)
        with watch.stage("answer"):
            self._score_answers(live)
        if not live:
            return outcomes  # type: ignore[return-value]
        built = iter(self._assemble(live, watch))
        return [next(built) if o is None else o for o in outcomes]

    def _analyze(self, plans: Sequence[TracePlan]) -> None:
        """Every trace's spans, in one analyzer call."""
        analyses = self.models.analyzer.analyze_many(
            [
                (
                    p.trace.response,
                    [ItemRef(i.id, i.modality) for i in p.trace.items],
                    p.trace.response_spans,
                )
                for p in plans
            ]
        )
        for plan, spans in zip(plans, analyses, strict=True):
            plan.spans = [SpanPlan(span) for span in spans]

    def _score_answers(self, plans: Sequence[TracePlan]) -> None:
        read = [self._answer_sentences(p) for p in plans]
        results = self.models.answer_scorer.score(
            [(p.trace.query, sentences) for p, (sentences, _) in zip(plans, read, strict=True)],
            [languages for _, languages in read],
            [self._answer_items(p) for p in plans],
        )
        for plan, result in zip(plans, results, strict=True):
            plan.answer = result

    def _assemble(self, live: Sequence[TracePlan], watch: Stopwatch) -> Iterator[Evaluation]:
        """The lite verdicts, the judge's rulings on them, and the evaluations built from
        both, with the batch's timings shared among its traces."""
        share = 1.0 / len(live)
        timing = {name: ms * share for name, ms in watch.ms.items()}
        timing |= {"total": watch.total_ms() * share, "batch_size": float(len(live))}
        models = self.models
        thresholds = Thresholds(
            relevance=models.relevance_scorer.threshold,
            support=models.support_threshold,
            answer_relevance=models.answer_scorer.threshold,
        )
        verdicts = [lite(plan, thresholds) for plan in live]
        rulings: list[Ruling | None] = [None] * len(live)
        if models.judge is not None and not self._models_only:
            with watch.stage("judge"):
                rulings = [*models.judge.rule([v.draft for v in verdicts])]
            timing["judge"] = watch.ms["judge"] * share  # waiting on the judge, not compute
        calibration = None
        if self.config.calibration.source != "off" and not self._models_only:
            for v in verdicts:
                self._drift.add(v.draft.spans)  # lite scores: the judge leaves them be
            calibration = self._calibration_status()
        return (
            assemble(plan, v, ruling, timing, calibration)
            for plan, v, ruling in zip(live, verdicts, rulings, strict=True)
        )

    def _answer_sentences(self, plan: TracePlan) -> tuple[list[str], Languages | None]:
        """What answer relevance reads, and the question's and the answer's languages when
        they are not both English (None: the MiniLM head reads it). Nothing when a side is
        in a language no loaded head reads (docs/languages.md)."""
        policy = self.models.policy
        asked = policy.language(plan.trace.query, UNDETERMINED)
        answered = [
            policy.fixed or work.language or work.span.language
            for work in plan.spans
            if work.span.kind in SCORED_KINDS
        ]
        spoken = {asked, *answered} - {UNDETERMINED}
        if policy.english_only(spoken):
            return answer_sentences(plan.analysed, plan.readings), None
        if policy.unread(*spoken) is not None:
            return [], None
        # a question too short to tell its language is read in the answer's, and back
        other = policy.other_language(answered, asked)
        asked = other if asked == UNDETERMINED else asked
        return answer_sentences(plan.analysed, plan.readings), (asked, other)

    def _answer_items(self, plan: TracePlan) -> list[str]:
        """The item texts answer relevance reads: all of them, or, where other languages
        are routed to another encoder, those read as English (the English head learned
        from English passages, and only their MiniLM vectors are in the cache)."""
        policy = self.models.policy
        evidence = [item.evidence for item in plan.items]
        return [e.text for e in evidence if e is not None and e.text and policy.reads_as_english(e)]

    def _calibration_status(self) -> CalibrationStatus:
        """Where the support decision's calibration stands, for every exporter to show."""
        calibration = self.config.calibration
        judge = self.models.judge
        store = judge.calibration if judge is not None else None
        fitted = store.fitted if store is not None else calibration.fitted
        if fitted is not None and self._drift.reference != fitted.score_quantiles:
            self._drift.reference = list(fitted.score_quantiles)
        if store is not None:
            n_samples, agreement = store.n_samples, store.agreement()
        else:
            n_samples, agreement = (fitted.n_labels if fitted else 0), None
        drift = self._drift.distance()
        return CalibrationStatus(
            source="judge" if calibration.source == "judge" else "file",
            fitted=fitted is not None,
            threshold=self.models.support_threshold,
            band=None if judge is None else judge.band,
            n_samples=n_samples,
            agreement=None if agreement is None else round(agreement, 4),
            drift=drift,
            drifted=drift is not None and drift > calibration.drift_threshold,
        )

    def _citation_policy(self, plan: TracePlan) -> TraceValidationError | None:
        if self.config.unknown_citations != "error" or not plan.trace.has_context:
            return None  # with no context given, a marker can name nothing, rightly or not
        for span in plan.analysed:
            if span.unknown_citations:
                known = ", ".join(i.id for i in plan.trace.items) or "none"
                return TraceValidationError(
                    "response",
                    f"citation {', '.join(span.unknown_citations)!s} in {span.text!r} names no "
                    f"retrieved item (item ids: {known}; positions 1..{len(plan.trace.items)})",
                    trace_id=plan.trace.trace_id,
                )
        return None

    def _collect_evidence(self, plan: TracePlan, decoded: Decoded) -> None:
        """Text evidence for text items (and for media ones with no image scorer, through
        their surrogate); decoded pixels for media items when an image scorer is set.
        ``decoded`` holds this batch's media, so an image in many traces is read once."""
        with_pixels, media = self.models.visual_scorer is not None, self.config.media
        policy = self.models.policy
        written = policy.of_trace(plan.trace)
        for index, item in enumerate(plan.trace.items):
            work = ItemPlan()
            if with_pixels and item.modality != "text":
                outcome = decoded_visual(item, decoded, self.config.image, self.config.media)
                if isinstance(outcome, MediaError):
                    work.unscorable = str(outcome)
                    plan.issues.append(
                        FieldIssue(field=f"items[{index}].{outcome.field}", message=outcome.message)
                    )
                else:
                    work.visual = outcome
            elif not with_pixels:
                for kind in ("image", "video"):
                    path = getattr(item, kind)
                    problem = None if path is None else unreadable_file(path, kind, media)
                    if problem is not None and item.pixels is None:
                        plan.issues.append(
                            FieldIssue(field=f"items[{index}].{kind}", message=problem)
                        )
            media_judged = with_pixels and item.modality != "text"
            text = None if media_judged else item_evidence(item)
            # each item's language is named once, for relevance, support and routing
            work.evidence = text and replace(text, language=policy.of_item(text, written))
            plan.items.append(work)

    def _score_relevance(self, plans: Sequence[TracePlan]) -> None:
        queries: list[str] = []
        evidence: list[Evidence] = []
        policy = self.models.policy
        for plan in plans:
            asked = policy.language(plan.trace.query)
            for work in plan.items:
                e = work.evidence
                unread = e and policy.unread(asked, policy.of_item(e))
                if unread:
                    work.unscorable = unread
                elif e is not None:
                    queries.append(plan.trace.query)
                    evidence.append(e)
        scores = iter(self.models.relevance_scorer.relevance(queries, evidence).tolist())
        for plan in plans:
            for work in plan.items:
                if work.evidence is not None and work.unscorable is None:
                    work.relevance = next(scores)
        pairs = [
            (work, plan.trace.query, work.visual)
            for plan in plans
            for work in plan.items
            if work.visual is not None
        ]
        if pairs:
            scorer = self.models.visual_scorer
            assert scorer is not None
            best = best_frames([(q, v) for _, q, v in pairs], scorer.relevance)
            eta = self.models.relevance_scorer.threshold
            for (work, _, _), (score, time_s) in zip(pairs, best, strict=True):
                work.relevance = on_scale(score, scorer.threshold, eta)
                work.relevance_frame_s = time_s

    def _score_support(self, plans: Sequence[TracePlan]) -> None:
        """Every (objective span, item) pair of the batch in one support call, and every
        (span, frame) pair in one image-scorer call."""
        pairs = _SupportPairs()
        for plan in plans:
            self._support_pairs(plan, pairs)
        scorer = self.models.support_scorer
        # an ExplainingSupportScorer gives reasons; one attribute look-up, since an isinstance
        # check against the Protocol would probe every member of the scorer
        explain = getattr(scorer, "support_with_reasons", None)
        if explain is not None:
            array, reasons = explain(pairs.claims, pairs.evidence)
        else:
            array, reasons = scorer.support(pairs.claims, pairs.evidence), [()] * len(pairs.keys)
        for at, score, why in zip(pairs.keys, array.tolist(), reasons, strict=True):
            at.span.pairs[at.item] = PairScore(score, why)
        if pairs.visual:
            pixels = self.models.visual_scorer
            assert pixels is not None
            best = best_frames(
                pairs.visual, lambda cs, frames: pixels.support(cs, [[f] for f in frames])
            )
            eta = scorer.threshold
            for at, (score, time_s) in zip(pairs.visual_keys, best, strict=True):
                support = on_scale(score, pixels.threshold, eta)
                at.span.pairs[at.item] = PairScore(support, frame_s=time_s)

    def _support_pairs(self, plan: TracePlan, pairs: _SupportPairs) -> None:
        """One trace's readings and languages, and its pairs to score (or why unread)."""
        use_context, policy = self.config.support.use_context, self.models.policy
        position = {item.id: i for i, item in enumerate(plan.trace.items)}
        evidence = [item.evidence for item in plan.items]
        for work in plan.spans:
            if work.span.kind == "objective":
                span = work.span
                work.language = policy.of_span(span.text, span.language, plan.trace, evidence)
        # an opinion clause set aside (span.aside) is not part of the claim that is scored;
        # a span is read in the language it is scored in ("Lukas Weber l'a construit.")
        claims_read = [
            replace(s, text=s.claim_text, aside=(), language=w.language or s.language)
            for s, w in zip(plan.analysed, plan.spans, strict=True)
        ]
        readings = answer_readings(plan.trace.query, claims_read, use_context)
        for work, reading in zip(plan.spans, readings, strict=True):
            work.reading = reading
        for work in plan.spans:
            span = work.span
            if span.kind != "objective" or work.language is None:
                continue
            language = work.language
            # a fragment answer ("Lukas Weber.") claims what its question makes of it
            first = work is plan.spans[0]
            # read as written: "It is the Kellan Bridge." presents a fragment, names no "it"
            asked = None
            if first:  # or a bare yes or no, what it says of its yes/no question
                query, written = plan.trace.query, span.claim_text
                asked = question_reading(query, written, language)
                asked = asked or polar_reading(query, written, language)
            claim = Claim(asked or work.reading, span.context if use_context else None, language)
            wanted = {position[i] for i in (*span.references, *span.citations)}
            if not span.references:
                wanted.update(range(len(plan.trace.items)))
            for i in sorted(wanted):
                item = evidence[i]
                written = policy.of_item(item) if item else ""
                unread = item and (
                    unreadable(claim.text)
                    or unreadable(item.text or "")
                    or policy.unread(language, written)
                )
                if unread:
                    work.unread[i] = UnreadPair(unread, written)
                elif item is not None:
                    across = True if work.all_across is None else work.all_across
                    work.all_across = across and written != language
                    pairs.add(work, i, claim, item)
                visual = plan.items[i].visual
                if visual is not None:
                    pairs.visual_keys.append(_PairAt(work, i))
                    pairs.visual.append((claim, visual))


@dataclass(frozen=True, eq=False)
class _PairAt:
    """Whose a scored pair is: a span's work and the index of its item."""

    span: SpanPlan
    item: int


@dataclass
class _SupportPairs:
    """A batch's pairs for the support call and the image scorer's, with whose they are."""

    keys: list[_PairAt] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    visual_keys: list[_PairAt] = field(default_factory=list)
    visual: list[tuple[Claim, Visual]] = field(default_factory=list)

    def add(self, work: SpanPlan, item: int, claim: Claim, evidence: Evidence) -> None:
        self.keys.append(_PairAt(work, item))
        self.claims.append(claim)
        self.evidence.append(evidence)
