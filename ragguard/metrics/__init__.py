"""Metrics on the live path (per-trace aggregates), run summaries, and evaluator-vs-human
agreement for the benchmarks and head training. Reference-based (golden-set) metrics live in
``ragguard.goldsets``."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.metrics.agreement import balanced_accuracy, roc_auc
    from ragguard.metrics.gates import Gate, GateResult
    from ragguard.metrics.per_trace import trace_metrics
    from ragguard.metrics.rate import DriftMonitor
    from ragguard.metrics.summary import RATE_KEY, RATE_KEYS, RunSummary, markdown_table

__all__ = [
    "RATE_KEY",
    "RATE_KEYS",
    "DriftMonitor",
    "Gate",
    "GateResult",
    "RunSummary",
    "balanced_accuracy",
    "markdown_table",
    "roc_auc",
    "trace_metrics",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
