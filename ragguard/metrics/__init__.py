"""Metrics on the live path (per-trace aggregates), run summaries, and evaluator-vs-human
agreement for the benchmarks and head training. Reference-based (golden-set) metrics live in
``ragguard.goldsets``."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.metrics.agreement import balanced_accuracy, roc_auc, true_rates
    from ragguard.metrics.answer_relevance import (
        SCORED_KINDS,
        AnswerVerdict,
        answer_sentences,
        answer_verdict,
    )
    from ragguard.metrics.failures import failure_summary, off_question, unsupported_claims
    from ragguard.metrics.gates import (
        ALLOW_SKIPPED,
        ALLOW_UNSCORED,
        WORSE_WHEN,
        Gate,
        GateResult,
        InputCheck,
        known_metric,
    )
    from ragguard.metrics.judge_calls import FROM_LOG, JUDGE_USES, calls_by_use, span_use
    from ragguard.metrics.per_trace import trace_metrics
    from ragguard.metrics.rate import Z_95, DriftMonitor, RateTally, wilson_interval
    from ragguard.metrics.summary import (
        MEANS,
        RATE_KEY,
        RATE_KEYS,
        RunSummary,
        describe_status,
        markdown_table,
        trace_values,
    )

__all__ = [
    "ALLOW_SKIPPED",
    "ALLOW_UNSCORED",
    "FROM_LOG",
    "JUDGE_USES",
    "MEANS",
    "RATE_KEY",
    "RATE_KEYS",
    "SCORED_KINDS",
    "WORSE_WHEN",
    "Z_95",
    "AnswerVerdict",
    "DriftMonitor",
    "Gate",
    "GateResult",
    "InputCheck",
    "RateTally",
    "RunSummary",
    "answer_sentences",
    "answer_verdict",
    "balanced_accuracy",
    "calls_by_use",
    "describe_status",
    "failure_summary",
    "known_metric",
    "markdown_table",
    "off_question",
    "roc_auc",
    "span_use",
    "trace_metrics",
    "trace_values",
    "true_rates",
    "unsupported_claims",
    "wilson_interval",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
