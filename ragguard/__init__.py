"""ragguard: in-process evaluation of RAG answers with no LLM judge.

Relevance of every retrieved item (RS), support of every objective span of the answer (CS),
and a check of every citation, following RAG-Check and MIRAGE.
"""

from ragguard._version import __version__ as __version__
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
from ragguard.live.models import shared_guard, with_score_cache
from ragguard.live.monitor import Monitor
from ragguard.live.thread import flush
from ragguard.reranker import Reranker
from ragguard.runtime.stats import LiveStats, stats
from ragguard.schema import Evaluation, Item, ItemEvaluation, Metrics, SpanEvaluation, Trace

__all__ = [
    "Config",
    "Evaluation",
    "EvaluationError",
    "Evaluator",
    "Guard",
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
