"""One registry of the process's memoizing caches, each bounded by entries and by bytes.

Text is parsed once per distinct string (passages recur across requests), so the scoring
helpers memoize with ``@memoized(entries=...)``. The decorator registers every cache it
makes: ``clear_caches()`` reaches them all with no list kept by hand, and ``cache_stats()``
reports them. A long-lived process reads texts it never sees again, so a bound by entries
alone lets a cache of long passages grow without limit; each cache is also bounded by an
estimate of the bytes its keys and values hold: ``sys.getsizeof`` summed over containers
on a sample of results, where an object shared by several entries counts in each (an upper
bound).

The byte bound is one setting for every cache: ``DEFAULT_MAX_BYTES`` unless the environment
sets ``RAGGUARD_CACHE_MAX_BYTES`` (read when this module is first imported), and
``set_max_bytes()`` changes it at run time.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_MAX_BYTES = 256 * 2**20
"""Bytes each cache may hold (256 MiB). Parsed text is fat, about 8 KB a sentence by this
estimate: ``benchmarks/checks_train.py`` (6,000 training pairs and their edits) fills the
largest cache, parsed sentences, with about 170 MB, which fits; that cache's former bound
of 65,536 entries alone allowed about 500 MB."""
MAX_BYTES_VARIABLE = "RAGGUARD_CACHE_MAX_BYTES"


def _configured_max_bytes() -> int:
    written = os.environ.get(MAX_BYTES_VARIABLE, "").strip()
    if not written:
        return DEFAULT_MAX_BYTES
    if not written.isdigit():
        raise ValueError(f"{MAX_BYTES_VARIABLE} must be a number of bytes, not {written!r}")
    return int(written)


_max_bytes = _configured_max_bytes()
_REGISTRY: list[Memo] = []
_MISSING = object()


def deep_size(value: object, seen: set[int] | None = None) -> int:
    """Bytes ``value`` holds: its own size plus that of what it contains (tuples, lists,
    sets, dicts, dataclasses), each object counted once."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, str | bytes | int | float | bool) or value is None:
        return size
    if isinstance(value, dict):
        return size + sum(deep_size(k, seen) + deep_size(v, seen) for k, v in value.items())
    if isinstance(value, tuple | list | set | frozenset):
        return size + sum(deep_size(item, seen) for item in value)
    if dataclasses.is_dataclass(value):
        fields = dataclasses.fields(value)
        return size + sum(deep_size(getattr(value, f.name), seen) for f in fields)
    return size


@dataclass(frozen=True, slots=True)
class CacheStats:
    name: str
    entries: int
    bytes: int
    misses: int


SAMPLE_EVERY = 32
"""Of a cache's results, every this-many-th is measured with ``deep_size`` (and the first
few): measuring each costs as much as parsing it."""


def _key_length(args: tuple[object, ...]) -> int:
    return sum(len(a) if isinstance(a, str | bytes) else 8 for a in args) + 1


class Memo:
    """The state of one memoized function's cache: a thread-safe LRU map, bounded by
    ``entries`` and by the byte setting; the least recently used results go first. An
    entry's bytes are its arguments' length times the bytes per character measured on a
    sample of results (``SAMPLE_EVERY``). A result larger than the whole bound is not kept."""

    def __init__(self, name: str, entries: int) -> None:
        self.name = name
        self.entries = entries
        self.data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._misses = 0
        self._measured_bytes = 0
        self._measured_length = 0
        self._lock = threading.Lock()

    def keep(self, key: Hashable, length: int, value: object) -> None:
        with self._lock:
            self._misses += 1
            if self._misses <= SAMPLE_EVERY or self._misses % SAMPLE_EVERY == 0:
                self._measured_bytes += deep_size(key) + deep_size(value)
                self._measured_length += length
            size = length * self._measured_bytes // self._measured_length
            if size > _max_bytes:
                return
            previous = self.data.pop(key, None)
            if previous is not None:
                self._bytes -= previous[1]
            self.data[key] = (value, size)
            self._bytes += size
            self.shrink()

    def shrink(self) -> None:
        while self.data and (len(self.data) > self.entries or self._bytes > _max_bytes):
            _, (_, size) = self.data.popitem(last=False)
            self._bytes -= size

    def clear(self) -> None:
        with self._lock:
            self.data.clear()
            self._bytes = self._misses = 0

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self.name, len(self.data), self._bytes, self._misses)


def memoized(entries: int) -> Callable[[F], F]:
    """Memoize a function of hashable positional arguments in a registered cache of at
    most ``entries`` results (and the byte setting). A plain function wraps it, not an
    object, and takes no keywords: a hit then costs a few dict operations."""

    def wrap(function: F) -> F:
        memo = Memo(f"{function.__module__}.{function.__qualname__}", entries)
        get, to_end, keep = memo.data.get, memo.data.move_to_end, memo.keep

        @functools.wraps(function)
        def cached(*args: Hashable) -> Any:
            found = get(args, _MISSING)
            if found is not _MISSING:
                try:  # noqa: SIM105 - contextlib.suppress would cost a hit as much again
                    to_end(args)  # another thread may have evicted it: the result stands
                except KeyError:
                    pass
                return found[0]  # type: ignore[index]
            value = function(*args)
            keep(args, _key_length(args), value)
            return value

        _REGISTRY.append(memo)
        return cast(F, cached)

    return wrap


def clear_caches(prefix: str = "") -> None:
    """Empty every registered cache whose function's module starts with ``prefix``."""
    for memo in _REGISTRY:
        if memo.name.startswith(prefix):
            memo.clear()


def cache_stats() -> list[CacheStats]:
    """Entries, bytes and misses of every registered cache."""
    return [memo.stats() for memo in _REGISTRY]


def max_bytes() -> int:
    """The byte bound of each cache."""
    return _max_bytes


def set_max_bytes(limit: int) -> None:
    """Bound each cache by ``limit`` bytes from now on; caches over it shrink at once."""
    global _max_bytes
    if limit < 0:
        raise ValueError(f"a cache bound cannot be negative: {limit}")
    _max_bytes = limit
    for memo in _REGISTRY:
        with memo._lock:
            memo.shrink()
