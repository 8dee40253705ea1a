"""Reference-based metrics for golden sets: MIRAGE (claim-level information and citation
scores), ALCE (citation recall/precision), CRUX (context coverage, alpha-nDCG, density) and
FATHOMS-RAG (phrase recall, abstention vs hallucination), computed by ``score`` over the
Evaluator's verdicts and printed by ``tables``. Live traffic has no gold data, so nothing on
the live path imports this package."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.goldsets.score import score_references
    from ragguard.goldsets.tables import render

__all__ = [
    "render",
    "score_references",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
