"""Process plumbing every layer above may use: caches, exit and fork hooks, sampling,
timing, live counters, the JSONL reader."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.runtime.caches import Cache, memoized
    from ragguard.runtime.foreign import read_input
    from ragguard.runtime.hooks import register_once
    from ragguard.runtime.jsonl import (
        DEFAULT_MAX_LINE_BYTES,
        FirstLines,
        count_lines,
        read_jsonl,
        read_traces,
    )
    from ragguard.runtime.live_stats import LiveStats
    from ragguard.runtime.log_record import LoggedTrace, expand_logs, read_log
    from ragguard.runtime.sampling import hash_sample
    from ragguard.runtime.timing import Stopwatch

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "Cache",
    "FirstLines",
    "LiveStats",
    "LoggedTrace",
    "Stopwatch",
    "count_lines",
    "expand_logs",
    "hash_sample",
    "memoized",
    "read_input",
    "read_jsonl",
    "read_log",
    "read_traces",
    "register_once",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
