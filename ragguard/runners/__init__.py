"""Batch runners for the command line: several local processes, or a Ray cluster."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.runners.processes import Runner, WorkerPool, judge_memory
    from ragguard.runners.ray import RayRun

__all__ = [
    "RayRun",
    "Runner",
    "WorkerPool",
    "judge_memory",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
