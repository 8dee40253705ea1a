"""The Evaluator: one path for live and replayed traces.

A batch of traces becomes three model calls at most: abstention embeddings for all spans,
relevance for all (query, item) pairs, support for all (span, item) pairs. Per-trace
problems become per-trace outcomes, never a failed batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ragguard.calibration.fingerprint import applied, model_fingerprint
from ragguard.config import Config
from ragguard.errors import MediaError, TraceValidationError
from ragguard.evaluation.assemble import assemble
from ragguard.evaluation.limits import check_limits
from ragguard.evaluation.plan import Outcome, TracePlan
from ragguard.language.normalize import unreadable
from ragguard.media.evidence import Decoded, decoded_visual, unreadable_file
from ragguard.media.visual import Visual, best_frames
from ragguard.metrics.answer import SCORED_KINDS, answer_sentences
from ragguard.metrics.rate import DriftMonitor
from ragguard.runtime import caches
from ragguard.runtime.timing import Stopwatch
from ragguard.schema import (
    CalibrationStatus,
    Evaluation,
    FieldIssue,
    Trace,
)
from ragguard.scoring.answer import AnswerRelevanceScorer
from ragguard.scoring.antecedents import answer_readings
from ragguard.scoring.blas import one_blas_thread
from ragguard.scoring.embeddings import TextEmbedder
from ragguard.scoring.evidence import Claim, Evidence, item_evidence
from ragguard.scoring.factory import (
    build_relevance,
    build_support,
    build_visual,
    check_models,
    language_policy,
    relevance_with_languages,
    with_languages,
)
from ragguard.scoring.multilingual import multilingual_embedder
from ragguard.scoring.protocols import RelevanceScorer, SupportScorer, VisualScorer
from ragguard.scoring.routing import LanguagePolicy, on_scale
from ragguard.spans import ItemRef, SpanAnalyzer

if TYPE_CHECKING:
    from ragguard.calibration.state import CalibrationStore
    from ragguard.judge.cascade import Cascade


class Evaluator:
    """Scores traces with the configured backends; models load lazily, once."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        relevance: RelevanceScorer | None = None,
        support: SupportScorer | None = None,
        embedder: TextEmbedder | None = None,
        analyzer: SpanAnalyzer | None = None,
        visual: VisualScorer | None = None,
        judge: Cascade | None = None,
    ) -> None:
        caches.max_bytes()  # a bad RAGGUARD_CACHE_MAX_BYTES fails here, named, not mid-batch
        self.config = applied(config or Config())
        supplied = dict(relevance=relevance, support=support, image=visual, embedding=embedder)
        check_models(self.config, skip={role for role, x in supplied.items() if x is not None})
        self._judge = judge
        self._judge_built = judge is not None
        self._embedder = embedder
        self._relevance = relevance
        self._support = support
        self._analyzer = analyzer
        self._visual = visual
        self._visual_built = visual is not None
        self._answer: AnswerRelevanceScorer | None = None
        self._multilingual: TextEmbedder | None = None
        own = support is not None or relevance is not None or embedder is not None
        self.policy: LanguagePolicy = language_policy(self.config, own_models=own)
        self._drift = DriftMonitor(
            self.config.calibration.fitted.score_quantiles if self.config.calibration.fitted else ()
        )

    @property
    def embedder(self) -> TextEmbedder:
        if self._embedder is None:
            self._embedder = TextEmbedder(
                self.config.embedding_model,
                cache_size=self.config.cache_size,
                threads=self.config.threads,
                precision=self.config.embedding_precision,
            )
        return self._embedder

    @property
    def multilingual_embedder(self) -> TextEmbedder:
        """multilingual-E5 for text MiniLM cannot read (built here, loaded on first use)."""
        if self._multilingual is None:
            settings = self.config.multilingual
            self._multilingual = multilingual_embedder(
                settings.model, threads=settings.threads, cache_size=self.config.cache_size
            )
        return self._multilingual

    def clear_caches(self) -> None:
        """Forget every content-hash cache: embeddings, parsed passages and checked pairs,
        text tokens, relevance scores. Benchmarks call it to time a cold start; models stay
        loaded."""
        caches.clear_caches()

    @property
    def relevance_scorer(self) -> RelevanceScorer:
        if self._relevance is None:
            english = build_relevance(self.config.relevance, self.embedder)
            self._relevance = relevance_with_languages(
                english, self.multilingual_embedder, self.policy
            )
        return self._relevance

    @property
    def support_scorer(self) -> SupportScorer:
        if self._support is None:
            english = build_support(self.config.support, self.embedder)
            self._support = with_languages(
                english, self.config, self.multilingual_embedder, self.policy
            )
        return self._support

    @property
    def answer_scorer(self) -> AnswerRelevanceScorer:
        """Answer relevance on the same embedder (its cache already holds the vectors)."""
        if self._answer is None:
            self._answer = AnswerRelevanceScorer(
                self.embedder, threshold=self.config.answer.threshold
            )
        return self._answer

    @property
    def visual_scorer(self) -> VisualScorer | None:
        """The image/video scorer; None when ``image.backend = "none"``."""
        if not self._visual_built:
            self._visual = build_visual(self.config.image)
            self._visual_built = True
        return self._visual

    @property
    def judge(self) -> Cascade | None:
        """The LLM-judge cascade run after each batch; None when ``judge.backend = "none"``."""
        if not self._judge_built:
            if self.config.judge.backend != "none":
                from ragguard.judge.cascade import Cascade

                self._judge = Cascade(self.config.judge, calibration=self._calibration_store())
            self._judge_built = True
        return self._judge

    def _calibration_store(self) -> CalibrationStore | None:
        """``[calibration] source = "judge"``: the pipeline's judge-labelled sample."""
        if self.config.calibration.source != "judge":
            return None
        from ragguard.calibration.state import CalibrationStore

        return CalibrationStore(
            self.config.calibration,
            pipeline=self.config.exporters.pipeline,
            fingerprint=model_fingerprint(self.config),
            default_threshold=self.support_scorer.threshold,
            default_band=self.config.judge.band,
        )

    @property
    def support_threshold(self) -> float:
        """The support eta in force: the judge calibration's once it has fitted one, else
        the scorer's (the head's, or a file calibration's)."""
        judge = self.judge
        store = judge.calibration if judge is not None else None
        return store.threshold if store is not None else self.support_scorer.threshold

    @property
    def analyzer(self) -> SpanAnalyzer:
        if self._analyzer is None:
            # unknown citations are always flagged here; the policy is applied per trace
            self._analyzer = SpanAnalyzer(
                self.config.spans, embed=self.embedder.encode, unknown_citations="flag"
            )
        return self._analyzer

    def evaluate_batch(self, traces: Sequence[Trace]) -> list[Outcome]:
        """Evaluate traces together; a bad trace yields its error, the others go on."""
        with one_blas_thread():
            return self._evaluate_batch(traces)

    def _evaluate_batch(self, traces: Sequence[Trace]) -> list[Outcome]:
        watch = Stopwatch()
        plans = [TracePlan(trace) for trace in traces]
        outcomes: list[Outcome | None] = [check_limits(t, self.config.limits) for t in traces]
        within = [p for p, o in zip(plans, outcomes, strict=True) if o is None]

        with watch.stage("spans"):
            analyses = self.analyzer.analyze_many(
                [
                    (
                        p.trace.response,
                        [ItemRef(i.id, i.modality) for i in p.trace.items],
                        p.trace.response_spans,
                    )
                    for p in within
                ]
            )
            for plan, spans in zip(within, analyses, strict=True):
                plan.spans = spans
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
            results = self.answer_scorer.score(
                [(p.trace.query, self._answer_sentences(p)) for p in live]
            )
            for plan, result in zip(live, results, strict=True):
                plan.answer = result

        share = 1.0 / max(len(live), 1)
        timing = {name: ms * share for name, ms in watch.ms.items()}
        timing |= {"total": watch.total_ms() * share, "batch_size": float(len(live))}
        for index, plan in enumerate(plans):
            if outcomes[index] is None:
                outcomes[index] = assemble(
                    plan,
                    timing,
                    self.relevance_scorer.threshold,
                    self.support_threshold,
                    self.answer_scorer.threshold,
                )
        if self.judge is not None and live:
            with watch.stage("judge"):
                self.judge.apply(traces, outcomes)  # type: ignore[arg-type]
            judge_ms = round(watch.ms["judge"] * share, 3)
            for outcome in outcomes:
                if isinstance(outcome, Evaluation):
                    outcome.timing_ms["judge"] = judge_ms  # waiting on the judge, not compute
        if self.config.calibration.source != "off" and live:
            evaluations = [o for o in outcomes if isinstance(o, Evaluation)]
            for evaluation in evaluations:
                self._drift.add(evaluation.spans)
            status = self._calibration_status()
            for evaluation in evaluations:
                evaluation.calibration = status
        return outcomes  # type: ignore[return-value]

    def _answer_sentences(self, plan: TracePlan) -> list[str]:
        """What answer relevance reads; nothing when the query or the answer is not English,
        since its head reads MiniLM's English features only (docs/languages.md)."""
        policy = self.policy
        spoken = {policy.language(plan.trace.query)}
        spoken.update(
            policy.fixed or plan.languages.get(i, s.language)
            for i, s in enumerate(plan.spans)
            if s.kind in SCORED_KINDS
        )
        english = not policy.limited or spoken <= {"en", "und"}
        return answer_sentences(plan.spans, plan.readings) if english else []

    def _calibration_status(self) -> CalibrationStatus:
        """Where the support decision's calibration stands, for every exporter to show."""
        calibration = self.config.calibration
        judge = self.judge
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
            threshold=self.support_threshold,
            band=None if judge is None else judge.band,
            n_samples=n_samples,
            agreement=None if agreement is None else round(agreement, 4),
            drift=drift,
            drifted=drift is not None and drift > calibration.drift_threshold,
        )

    def _citation_policy(self, plan: TracePlan) -> TraceValidationError | None:
        if self.config.unknown_citations != "error" or not plan.trace.has_context:
            return None  # with no context given, a marker can name nothing, rightly or not
        for span in plan.spans:
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
        with_pixels, media = self.visual_scorer is not None, self.config.media
        for index, item in enumerate(plan.trace.items):
            visual = None
            if with_pixels and item.modality != "text":
                outcome = decoded_visual(item, decoded, self.config.image, self.config.media)
                if isinstance(outcome, MediaError):
                    plan.unscorable[index] = str(outcome)
                    plan.issues.append(
                        FieldIssue(field=f"items[{index}].{outcome.field}", message=outcome.message)
                    )
                else:
                    visual = outcome
            elif not with_pixels:
                for kind in ("image", "video"):
                    path = getattr(item, kind)
                    problem = None if path is None else unreadable_file(path, kind, media)
                    if problem is not None and item.pixels is None:
                        plan.issues.append(
                            FieldIssue(field=f"items[{index}].{kind}", message=problem)
                        )
            plan.visuals.append(visual)
            media_judged = with_pixels and item.modality != "text"
            text = None if media_judged else item_evidence(item)
            # each item's language is named once, for relevance, support and routing
            plan.evidence.append(text and replace(text, language=self.policy.of_item(text)))

    def _score_relevance(self, plans: Sequence[TracePlan]) -> None:
        queries: list[str] = []
        evidence: list[Evidence] = []
        policy = self.policy
        for plan in plans:
            asked = policy.language(plan.trace.query)
            for i, e in enumerate(plan.evidence):
                unread = e and policy.unread(asked, policy.of_item(e))
                if unread:
                    plan.unscorable[i] = unread
                elif e is not None:
                    queries.append(plan.trace.query)
                    evidence.append(e)
        scores = iter(self.relevance_scorer.relevance(queries, evidence).tolist())
        for plan in plans:
            plan.relevance = [
                None if e is None or i in plan.unscorable else next(scores)
                for i, e in enumerate(plan.evidence)
            ]
        pairs = [
            (plan, i, plan.trace.query, visual)
            for plan in plans
            for i, visual in enumerate(plan.visuals)
            if visual is not None
        ]
        if pairs:
            scorer = self.visual_scorer
            assert scorer is not None
            best = best_frames([(q, v) for _, _, q, v in pairs], scorer.relevance)
            eta = self.relevance_scorer.threshold
            for (plan, i, _, _), (score, time_s) in zip(pairs, best, strict=True):
                plan.relevance[i] = on_scale(score, scorer.threshold, eta)
                plan.relevance_frame[i] = time_s

    def _score_support(self, plans: Sequence[TracePlan]) -> None:
        keys: list[tuple[TracePlan, int, int]] = []
        claims: list[Claim] = []
        evidence: list[Evidence] = []
        visual_keys: list[tuple[TracePlan, int, int]] = []
        visual_pairs: list[tuple[Claim, Visual]] = []
        use_context, policy = self.config.support.use_context, self.policy
        for plan in plans:
            position = {item.id: i for i, item in enumerate(plan.trace.items)}
            plan.readings = answer_readings(plan.trace.query, plan.spans, use_context)
            for s, span in enumerate(plan.spans):
                if span.kind != "objective":
                    continue
                language = policy.of_span(span.text, span.language, plan.trace, plan.evidence)
                plan.languages[s] = language
                claim = Claim(plan.readings[s], span.context if use_context else None, language)
                wanted = {position[i] for i in (*span.references, *span.citations)}
                if not span.references:
                    wanted.update(range(len(plan.trace.items)))
                for i in sorted(wanted):
                    item = plan.evidence[i]
                    written = policy.of_item(item) if item else ""
                    unread = item and (
                        unreadable(claim.text)
                        or unreadable(item.text or "")
                        or policy.unread(language, written)
                    )
                    if unread:
                        plan.unread[(s, i)] = (unread, written)
                    elif item is not None:
                        plan.across[s] = plan.across.get(s, True) and written != language
                        keys.append((plan, s, i))
                        claims.append(claim)
                        evidence.append(item)
                    visual = plan.visuals[i]
                    if visual is not None:
                        visual_keys.append((plan, s, i))
                        visual_pairs.append((claim, visual))
        scorer = self.support_scorer
        # an ExplainingSupportScorer gives reasons; one attribute look-up, since an isinstance
        # check against the Protocol would probe every member of the scorer
        explain = getattr(scorer, "support_with_reasons", None)
        if explain is not None:
            array, reasons = explain(claims, evidence)
        else:
            array, reasons = scorer.support(claims, evidence), [()] * len(claims)
        for (plan, s, i), score, why in zip(keys, array.tolist(), reasons, strict=True):
            plan.support[(s, i)] = score
            plan.reasons[(s, i)] = why
        if visual_pairs:
            pixels = self.visual_scorer
            assert pixels is not None
            best = best_frames(
                visual_pairs, lambda cs, frames: pixels.support(cs, [[f] for f in frames])
            )
            eta = scorer.threshold
            for (plan, s, i), (score, time_s) in zip(visual_keys, best, strict=True):
                plan.support[(s, i)] = on_scale(score, pixels.threshold, eta)
                plan.support_frame[(s, i)] = time_s
