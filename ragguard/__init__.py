"""ragguard: in-process evaluation of RAG answers with no LLM judge.

Relevance of every retrieved item (RS), support of every objective span of the answer (CS),
and a check of every citation, following RAG-Check and MIRAGE.
"""

from ragguard.config import Config, RelevanceConfig, SpanConfig, SupportConfig
from ragguard.engine import Evaluator
from ragguard.errors import ModelLoadError, RagguardError, TraceValidationError
from ragguard.guard import Guard
from ragguard.schema import Evaluation, Item, ItemEvaluation, Metrics, SpanEvaluation, Trace

__version__ = "0.1.0"

__all__ = [
    "Config",
    "Evaluation",
    "Evaluator",
    "Guard",
    "Item",
    "ItemEvaluation",
    "Metrics",
    "ModelLoadError",
    "RagguardError",
    "RelevanceConfig",
    "SpanConfig",
    "SpanEvaluation",
    "SupportConfig",
    "Trace",
    "TraceValidationError",
]
