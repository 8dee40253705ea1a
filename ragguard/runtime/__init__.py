"""Process plumbing every layer above may use: caches, exit and fork hooks, sampling,
timing, live counters, the JSONL reader."""

from __future__ import annotations

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ragguard.runtime.addresses import is_loopback
    from ragguard.runtime.caches import Cache, clear_caches, max_bytes, memoized
    from ragguard.runtime.cores import available_cores, map_in_pool
    from ragguard.runtime.foreign import FORMATS, Format, read_input
    from ragguard.runtime.hooks import register_once
    from ragguard.runtime.jsonl import (
        DEFAULT_MAX_LINE_BYTES,
        FirstLines,
        as_trace,
        count_lines,
        overlong,
        parse_line,
        parse_raw,
        raw_lines,
        read_jsonl,
        read_traces,
    )
    from ragguard.runtime.live_stats import (
        LiveStats,
        record_process_event,
        register_stats_source,
        stats,
    )
    from ragguard.runtime.log_record import (
        LOG_FIELDS,
        LOG_RECORD_START,
        MAX_RECORD_BYTES,
        LoggedTrace,
        as_logged,
        expand_logs,
        parse_log_line,
        read_log,
        read_log_lines,
        to_record,
    )
    from ragguard.runtime.memory import PeriodicRelease
    from ragguard.runtime.retry import reload_delay
    from ragguard.runtime.sampling import hash_sample
    from ragguard.runtime.timing import Stopwatch

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "FORMATS",
    "LOG_FIELDS",
    "LOG_RECORD_START",
    "MAX_RECORD_BYTES",
    "Cache",
    "FirstLines",
    "Format",
    "LiveStats",
    "LoggedTrace",
    "PeriodicRelease",
    "Stopwatch",
    "as_logged",
    "as_trace",
    "available_cores",
    "clear_caches",
    "count_lines",
    "expand_logs",
    "hash_sample",
    "is_loopback",
    "map_in_pool",
    "max_bytes",
    "memoized",
    "overlong",
    "parse_line",
    "parse_log_line",
    "parse_raw",
    "raw_lines",
    "read_input",
    "read_jsonl",
    "read_log",
    "read_log_lines",
    "read_traces",
    "record_process_event",
    "register_once",
    "register_stats_source",
    "reload_delay",
    "stats",
    "to_record",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
