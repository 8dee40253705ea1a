"""The LLM-judge tier (MEMERAG-style prompts, a budgeted client, the lite-to-judge cascade)."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.judge.bench import Case, bench_set
    from ragguard.judge.budget import after_first_pass, per_worker
    from ragguard.judge.cascade import Cascade, agreement
    from ragguard.judge.ruling import Draft, Ruling

__all__ = [
    "Cascade",
    "Case",
    "Draft",
    "Ruling",
    "after_first_pass",
    "agreement",
    "bench_set",
    "per_worker",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
