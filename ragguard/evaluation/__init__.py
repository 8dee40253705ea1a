"""The one evaluation path for live, served and replayed traces: the `Evaluator` and the
`Guard` around it."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.evaluation.evaluator import Evaluator
    from ragguard.evaluation.guard import Guard, TraceLike
    from ragguard.evaluation.limits import check_limits
    from ragguard.evaluation.models import Models
    from ragguard.evaluation.plan import Outcome

__all__ = [
    "Evaluator",
    "Guard",
    "Models",
    "Outcome",
    "TraceLike",
    "check_limits",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
