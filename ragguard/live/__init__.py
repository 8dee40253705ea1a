"""What runs beside a live pipeline: the Monitor (sampling, background or guard evaluation,
the guard's action), the shared models, the bounded worker queue, the evaluation child
process, and the counters (``stats``). Framework front ends (``ragguard.adapters``) capture
requests and hand them to a Monitor; they never evaluate.

This package's ``__init__`` imports its public names on first use (``__all__``), so
importing one of its modules loads no other."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.live.monitor import Annotate, Monitor, OnEvaluation
    from ragguard.live.shared import shared_guard, with_score_cache
    from ragguard.live.thread import close_all, flush

__all__ = [
    "Annotate",
    "Monitor",
    "OnEvaluation",
    "close_all",
    "flush",
    "shared_guard",
    "with_score_cache",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
