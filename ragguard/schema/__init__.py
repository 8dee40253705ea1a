"""The boundary data model: what goes in (``Trace``, in ``trace``) and what comes out
(``Evaluation``, in ``evaluation``).

The field names of ``Trace`` and of ``Evaluation`` are a fixed contract (one JSON object per
line in files); new fields may be added, existing ones never renamed. Hot paths inside the
evaluator work on plain dataclasses, not on these models.
"""

from ragguard.schema.check_kinds import CheckKind
from ragguard.schema.evaluation import (
    SCHEMA_VERSION,
    CalibrationStatus,
    Evaluation,
    FieldIssue,
    ItemEvaluation,
    JudgeSkip,
    JudgeVerdict,
    Metrics,
    SpanEvaluation,
    SpanReason,
    Verdict,
    unscored_for_language,
    verdict,
)
from ragguard.schema.guard_result import GuardResult, GuardStatus
from ragguard.schema.thresholds import Thresholds
from ragguard.schema.trace import NO_CONTEXT, Item, Modality, Reference, SpanKind, Trace

__all__ = [
    "NO_CONTEXT",
    "SCHEMA_VERSION",
    "CalibrationStatus",
    "CheckKind",
    "Evaluation",
    "FieldIssue",
    "GuardResult",
    "GuardStatus",
    "Item",
    "ItemEvaluation",
    "JudgeSkip",
    "JudgeVerdict",
    "Metrics",
    "Modality",
    "Reference",
    "SpanEvaluation",
    "SpanKind",
    "SpanReason",
    "Thresholds",
    "Trace",
    "Verdict",
    "unscored_for_language",
    "verdict",
]
