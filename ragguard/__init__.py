"""ragguard: in-process evaluation of RAG answers with no LLM judge.

Relevance of every retrieved item (RS), support of every objective span of the answer (CS),
and a check of every citation, following RAG-Check and MIRAGE.

The names below are imported on first use, not with the package: ``import ragguard.cli``
or the pytest plugin (``ragguard.testing.plugin``, loaded in every pytest run where
ragguard is installed) must not load the evaluator or read the cache settings.
"""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard._version import __version__ as __version__

if _typing.TYPE_CHECKING:
    from ragguard.adapters import wrap
    from ragguard.config import (
        Config,
        LimitsConfig,
        LiveConfig,
        MediaConfig,
        RelevanceConfig,
        SpanConfig,
        SupportConfig,
    )
    from ragguard.errors import (
        EvaluationError,
        MediaError,
        ModelLoadError,
        RagguardError,
        TraceValidationError,
        UnsupportedAnswerError,
    )
    from ragguard.evaluation.evaluator import Evaluator
    from ragguard.evaluation.guard import Guard
    from ragguard.live.monitor import Monitor
    from ragguard.live.shared import (
        shared_guard,
        with_score_cache,
    )
    from ragguard.live.thread import flush
    from ragguard.reranker import Reranker
    from ragguard.runtime.live_stats import LiveStats, stats
    from ragguard.schema import (
        Evaluation,
        GuardResult,
        Item,
        ItemEvaluation,
        Metrics,
        SpanEvaluation,
        Trace,
    )

__all__ = [
    "Config",
    "Evaluation",
    "EvaluationError",
    "Evaluator",
    "Guard",
    "GuardResult",
    "Item",
    "ItemEvaluation",
    "LimitsConfig",
    "LiveConfig",
    "LiveStats",
    "MediaConfig",
    "MediaError",
    "Metrics",
    "ModelLoadError",
    "Monitor",
    "RagguardError",
    "RelevanceConfig",
    "Reranker",
    "SpanConfig",
    "SpanEvaluation",
    "SupportConfig",
    "Trace",
    "TraceValidationError",
    "UnsupportedAnswerError",
    "flush",
    "shared_guard",
    "stats",
    "with_score_cache",
    "wrap",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
