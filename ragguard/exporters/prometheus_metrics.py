"""ragguard's Prometheus metrics: ``METRICS``, the declarative table of every ``ragguard_*``
series (name, help, labels, buckets), and ``MetricSet``, one registry's metrics built from
it, which records an evaluation and syncs the live counters."""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.metrics_core import Metric

from ragguard.exporters.registry import OTHER_PIPELINE
from ragguard.metrics import JUDGE_USES, RateTally, calls_by_use, span_use
from ragguard.runtime import LiveStats
from ragguard.schema import (
    Evaluation,
    Modality,
    SpanEvaluation,
    Verdict,
    unscored_for_language,
    verdict,
)

VERDICTS: tuple[str, ...] = get_args(Verdict)
MODALITIES: tuple[str, ...] = get_args(Modality)
RATIO_BUCKETS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
SECONDS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
JUDGE_SECONDS_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0)

STATS_COUNTERS = {
    "submitted": ("requests_submitted", "Requests handed to the evaluation queue."),
    "sampled_out": ("requests_sampled_out", "Requests not evaluated by sampling."),
    "dropped": ("evaluations_dropped", "Requests dropped because the evaluation queue was full."),
    "failed": ("evaluations_failed", "Requests whose trace could not be built or evaluated."),
    "flagged": ("answers_flagged", "Evaluated answers that failed the configured minimums."),
    "export_errors": (
        "export_errors",
        "Exporter failures: calls that raised, trace-log writes that failed (logged).",
    ),
    "lost": ("evaluations_lost", "Evaluations still pending when the exit flush timed out."),
    "worker_restarts": (
        "worker_restarts",
        "Evaluation processes killed by the watchdog or found dead (a new one starts).",
    ),
    "guard_failed_open": (
        "guard_failed_open",
        "Guard requests let through at once while the evaluation process was down.",
    ),
}
"""LiveStats field -> (metric name after ``ragguard_``, help)."""

logger = logging.getLogger("ragguard.exporters.prometheus")

PIPELINE = ("pipeline",)
BY_MODALITY = ("pipeline", "modality")


@dataclass(frozen=True)
class MetricRow:
    """One ``ragguard_*`` metric: its type, name after ``ragguard_``, help and labels."""

    kind: type[Counter] | type[Gauge] | type[Histogram]
    name: str
    help: str
    labels: tuple[str, ...] = PIPELINE
    buckets: tuple[float, ...] = ()
    """A histogram's."""
    mode: Literal["livesum", "mostrecent"] | None = None
    """A gauge's multi-process mode."""

    def build(self, registry: CollectorRegistry) -> Counter | Gauge | Histogram:
        name, labels, at = self.name, self.labels, registry
        if self.kind is Histogram:
            return Histogram(
                name, self.help, labels, namespace="ragguard", registry=at, buckets=self.buckets
            )
        if self.kind is Gauge:
            mode = self.mode or "all"
            return Gauge(
                name, self.help, labels, namespace="ragguard", registry=at, multiprocess_mode=mode
            )
        return Counter(name, self.help, labels, namespace="ragguard", registry=at)


# A declarative table (docs/architecture.md): attribute of MetricSet -> its metric.
METRICS: dict[str, MetricRow] = {
    "responses": MetricRow(Counter, "responses", "Evaluated responses."),
    "hallucinated": MetricRow(
        Counter,
        "hallucinated_responses",
        "Responses with an objective span the retrieved items do not support.",
    ),
    "abstained": MetricRow(
        Counter, "abstained_responses", "Responses that abstain and claim nothing."
    ),
    "no_context": MetricRow(
        Counter,
        "no_context_responses",
        "Responses evaluated with no context (the trace had no items key): no support "
        "verdict, as ragguard serve's no_context status.",
    ),
    "off_topic": MetricRow(
        Counter,
        "off_topic_responses",
        "Responses that do not address their query (answer_relevant false).",
    ),
    "spans": MetricRow(
        Counter,
        "spans",
        "Response spans by verdict: supported, unsupported, unscored (objective, nothing "
        "to check against), subjective, abstention.",
        ("pipeline", "verdict"),
    ),
    "unread": MetricRow(
        Counter,
        "unscored_language_spans",
        "Objective spans left unscored because no loaded backbone reads their language "
        "(or their items'), by the span's language: install ragguard-eval[multilingual].",
        ("pipeline", "language"),
    ),
    "unknown_citations": MetricRow(
        Counter,
        "unknown_citations",
        "Citation markers naming no retrieved item (e.g. [7] with 3 items), flagged.",
    ),
    "items": MetricRow(Counter, "items", "Retrieved items evaluated.", BY_MODALITY),
    "unscored": MetricRow(
        Counter,
        "unscored_items",
        "Retrieved items with no relevance score (relevance null: no text for an image "
        "or video, unreadable file).",
        BY_MODALITY,
    ),
    "relevance": MetricRow(
        Histogram,
        "item_relevance_ratio",
        "Relevance (RS) of each scored retrieved item to its query.",
        BY_MODALITY,
        RATIO_BUCKETS,
    ),
    "support": MetricRow(
        Histogram,
        "span_support_ratio",
        "Support (CS) of each objective span by its best retrieved item.",
        buckets=RATIO_BUCKETS,
    ),
    "answer_relevance": MetricRow(
        Histogram,
        "answer_relevance_ratio",
        "Per response: how well the answer addresses its query (abstentions not counted).",
        buckets=RATIO_BUCKETS,
    ),
    "citation_precision": MetricRow(
        Histogram,
        "citation_precision_ratio",
        "Per response: share of cited objective spans whose citations support them.",
        buckets=RATIO_BUCKETS,
    ),
    "citation_recall": MetricRow(
        Histogram,
        "citation_recall_ratio",
        "Per response: share of objective spans supported and citing a supporting item.",
        buckets=RATIO_BUCKETS,
    ),
    "duration": MetricRow(
        Histogram,
        "evaluation_duration_seconds",
        "Evaluation compute time per response (amortized over its batch).",
        buckets=SECONDS_BUCKETS,
    ),
    "queue_depth": MetricRow(
        Gauge, "queue_depth", "Requests waiting for or in evaluation.", (), mode="livesum"
    ),
    "judge_calls": MetricRow(
        Counter,
        "judge_calls",
        "In-band spans by what the LLM judge did: answered, cached (no call of its own), "
        "or why the lite verdict stayed (unparseable, timeout, unavailable, "
        "circuit_open, rate_limited, over_budget, sampled_out, no_evidence, check_fired).",
        ("pipeline", "outcome"),
    ),
    "judge_calls_by_use": MetricRow(
        Counter,
        "judge_calls_by_use",
        "Calls made to the LLM judge, by use: span (an in-band span), answer (an in-band "
        "answer's relevance), sample (the calibration sample). All draw on [judge]'s budget.",
        ("pipeline", "use"),
    ),
    "judge_latency": MetricRow(
        Histogram,
        "judge_latency_seconds",
        "Duration of each judge call that got a reply (retries included).",
        buckets=JUDGE_SECONDS_BUCKETS,
    ),
    "judge_score": MetricRow(
        Histogram,
        "judge_score_ratio",
        "P(supported) the judge's score question gave each span it decided (read from "
        "token probabilities; a verdict read from text has none), by use: span (an "
        "in-band span), sample (the calibration sample), answer. Replayed and cached "
        "scores count: each decided its span.",
        ("pipeline", "use"),
        RATIO_BUCKETS,
    ),
    "judge_tokens": MetricRow(
        Counter, "judge_tokens", "Tokens the judge used, by direction.", ("pipeline", "direction")
    ),
    "judge_budget": MetricRow(
        Gauge,
        "judge_budget_tokens_remaining",
        "The judge's daily token budget left, as of its latest call.",
        mode="livesum",
    ),
    "calibration": MetricRow(
        Gauge,
        "calibration",
        "The support calibration in force, by quantity: threshold, band_low, band_high, "
        "samples (labels or judge verdicts fitted on), agreement (lite vs judge on the "
        "sample), drift (KS distance of live scores from the calibration's).",
        ("pipeline", "quantity"),
        mode="mostrecent",
    ),
    "unsupported_rate": MetricRow(
        Gauge,
        "unsupported_span_rate",
        "Share of objective spans not supported, by estimate: lite (the lite verdicts), "
        "corrected, low and high (prediction-powered inference with the judge-labelled "
        "calibration sample, 95% interval; equal to lite while there is no sample).",
        ("pipeline", "estimate"),
        mode="mostrecent",
    ),
}


class MetricSet:
    """ragguard's metrics in one registry (a registry takes each name once, so every
    exporter on it shares these), one attribute per row of ``METRICS``."""

    responses: Counter
    hallucinated: Counter
    abstained: Counter
    no_context: Counter
    off_topic: Counter
    spans: Counter
    unread: Counter
    unknown_citations: Counter
    items: Counter
    unscored: Counter
    relevance: Histogram
    support: Histogram
    answer_relevance: Histogram
    citation_precision: Histogram
    citation_recall: Histogram
    duration: Histogram
    queue_depth: Gauge
    judge_calls: Counter
    judge_calls_by_use: Counter
    judge_latency: Histogram
    judge_score: Histogram
    judge_tokens: Counter
    judge_budget: Gauge
    calibration: Gauge
    unsupported_rate: Gauge

    def __init__(self, registry: CollectorRegistry, live_stats: Callable[[], LiveStats]) -> None:
        self._live_stats = live_stats
        self._synced = LiveStats()
        self._lock = threading.Lock()
        self._pipelines: set[str] = set()
        # first, so that a scrape syncs the LiveStats counters before reading them
        registry.register(_SyncOnCollect(self))
        for attribute, row in METRICS.items():
            setattr(self, attribute, row.build(registry))
        self.live = {
            field: Counter(name, documentation, namespace="ragguard", registry=registry)
            for field, (name, documentation) in STATS_COUNTERS.items()
        }
        self._rates: dict[str, RateTally] = {}

    def zero(self, pipeline: str) -> None:
        """Create every series of ``pipeline`` at 0, so a dashboard shows 0 for what has
        not happened yet (no abstention, no unknown citation so far), not "No data"."""
        for metric in (
            self.responses,
            self.hallucinated,
            self.abstained,
            self.no_context,
            self.off_topic,
            self.unknown_citations,
            self.support,
            self.answer_relevance,
            self.citation_precision,
            self.citation_recall,
            self.duration,
            self.judge_latency,
        ):
            metric.labels(pipeline)
        for kind in VERDICTS:
            self.spans.labels(pipeline, kind)
        for modality in MODALITIES:
            self.items.labels(pipeline, modality)
            self.unscored.labels(pipeline, modality)
            self.relevance.labels(pipeline, modality)
        self.judge_calls.labels(pipeline, "answered")
        for use in JUDGE_USES:
            self.judge_calls_by_use.labels(pipeline, use)
            self.judge_score.labels(pipeline, use)
        for direction in ("input", "output"):
            self.judge_tokens.labels(pipeline, direction)

    def pipeline_label(self, name: str, cap: int) -> str:
        """``name``, or ``other`` once ``cap`` other names are in use (warned once)."""
        with self._lock:
            if name in self._pipelines or len(self._pipelines) < cap:
                self._pipelines.add(name)
                return name
            if OTHER_PIPELINE not in self._pipelines:
                self._pipelines.add(OTHER_PIPELINE)
                logger.warning(
                    "ragguard: more than %d pipeline names (exporters.max_pipelines); %r and "
                    "later ones are recorded as pipeline=%r",
                    cap,
                    name,
                    OTHER_PIPELINE,
                )
            return OTHER_PIPELINE

    def record(self, pipeline: str, evaluation: Evaluation) -> None:
        metrics = evaluation.metrics
        self.responses.labels(pipeline).inc()
        if metrics.hallucination:
            self.hallucinated.labels(pipeline).inc()
        if metrics.abstained:
            self.abstained.labels(pipeline).inc()
        if metrics.no_context:
            self.no_context.labels(pipeline).inc()
        for span in evaluation.spans:
            self.spans.labels(pipeline, verdict(span)).inc()
            if unscored_for_language(span):
                self.unread.labels(pipeline, span.language).inc()
            if span.unknown_citations:
                self.unknown_citations.labels(pipeline).inc(len(span.unknown_citations))
            if span.kind == "objective" and span.support is not None:
                self.support.labels(pipeline).observe(span.support)
            self._record_judge(pipeline, span)
        for item in evaluation.items:
            self.items.labels(pipeline, item.modality).inc()
            if item.relevance is None:
                self.unscored.labels(pipeline, item.modality).inc()
            else:
                self.relevance.labels(pipeline, item.modality).observe(item.relevance)
        if metrics.answer_relevance is not None:
            self.answer_relevance.labels(pipeline).observe(metrics.answer_relevance)
        if evaluation.answer_judge is not None and evaluation.answer_judge.score is not None:
            self.judge_score.labels(pipeline, "answer").observe(evaluation.answer_judge.score)
        for use, n in calls_by_use(evaluation).items():
            if use in JUDGE_USES:
                self.judge_calls_by_use.labels(pipeline, use).inc(n)
        if metrics.answer_relevant is False:
            self.off_topic.labels(pipeline).inc()
        if metrics.citation_precision is not None:
            self.citation_precision.labels(pipeline).observe(metrics.citation_precision)
        if metrics.citation_recall is not None:
            self.citation_recall.labels(pipeline).observe(metrics.citation_recall)
        if "total" in evaluation.timing_ms:
            self.duration.labels(pipeline).observe(evaluation.timing_ms["total"] / 1000)
        self._record_calibration(pipeline, evaluation)

    def _record_calibration(self, pipeline: str, evaluation: Evaluation) -> None:
        with self._lock:
            tally = self._rates.setdefault(pipeline, RateTally())
            tally.add(evaluation.spans, evaluation.thresholds.eta_support)
            rate = tally.rate()
        if rate.n:
            lite = tally.n_unsupported / tally.n
            for estimate, value in (
                ("lite", lite),
                ("corrected", rate.value),
                ("low", rate.low),
                ("high", rate.high),
            ):
                self.unsupported_rate.labels(pipeline, estimate).set(value)
        status = evaluation.calibration
        if status is None:
            return
        quantities = {"threshold": status.threshold, "samples": float(status.n_samples)}
        if status.band is not None:
            quantities["band_low"], quantities["band_high"] = status.band
        if status.agreement is not None:
            quantities["agreement"] = status.agreement
        if status.drift is not None:
            quantities["drift"] = status.drift
        for quantity, value in quantities.items():
            self.calibration.labels(pipeline, quantity).set(value)

    def _record_judge(self, pipeline: str, span: SpanEvaluation) -> None:
        judge = span.judge
        outcome = span.judge_skipped or (
            ("cached" if judge.cached else "answered") if judge is not None else None
        )
        if outcome is None:
            return
        self.judge_calls.labels(pipeline, outcome).inc()
        if judge is not None and judge.score is not None:
            self.judge_score.labels(pipeline, span_use(span)).observe(judge.score)
        if span.judge_skipped == "over_budget":
            self.judge_budget.labels(pipeline).set(0)
        if judge is None or judge.cached:
            return
        self.judge_latency.labels(pipeline).observe(judge.latency_ms / 1000)
        self.judge_tokens.labels(pipeline, "input").inc(judge.input_tokens)
        self.judge_tokens.labels(pipeline, "output").inc(judge.output_tokens)
        if judge.tokens_left_today is not None:
            self.judge_budget.labels(pipeline).set(judge.tokens_left_today)

    def sync(self) -> None:
        """Bring the LiveStats counters and the queue gauge up to date (counters only grow:
        a monitor that went away lowers the sum, which is not un-counted)."""
        with self._lock:
            now, before = self._live_stats(), self._synced
            self._synced = now
            for field, counter in self.live.items():
                grown = getattr(now, field) - getattr(before, field)
                if grown > 0:
                    counter.inc(grown)
            self.queue_depth.set(now.pending)


class _SyncOnCollect:
    """Registered before the metrics: a scrape of this process brings them up to date."""

    def __init__(self, metrics: MetricSet) -> None:
        self._metrics = weakref.ref(metrics)

    def describe(self) -> Iterable[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        metrics = self._metrics()
        if metrics is not None:
            metrics.sync()
        return []
