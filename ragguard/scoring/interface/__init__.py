"""What every scorer reads and promises: a claim and its evidence (``evidence``), the scorer
protocols and a fired check's ``Reason`` (``protocols``). The other rooms build on these and
on nothing of each other's to agree on them."""

from __future__ import annotations

from ragguard.scoring.interface.evidence import (
    TEXT_SURROGATES,
    Claim,
    Evidence,
    item_evidence,
    item_text,
)
from ragguard.scoring.interface.protocols import (
    ExplainingSupportScorer,
    Reason,
    RelevanceScorer,
    SupportScorer,
    VisualScorer,
)

__all__ = [
    "TEXT_SURROGATES",
    "Claim",
    "Evidence",
    "ExplainingSupportScorer",
    "Reason",
    "RelevanceScorer",
    "SupportScorer",
    "VisualScorer",
    "item_evidence",
    "item_text",
]
