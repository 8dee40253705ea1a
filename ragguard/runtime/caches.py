"""The process's caches: one type, one registry, one byte bound over them all.

Text is parsed once per distinct string and embedded once per content hash, since passages
recur across requests. Every cache is a ``Cache``: the scoring helpers get one through
``@memoized(entries=...)``; the embedders, the relevance-score cache, the image cache and
the judge's answers make one each. All register themselves, so ``clear_caches()`` reaches
them all and ``cache_stats()`` reports them.

A long-lived process reads texts it never sees again, so each cache is bounded by entries
and all of them together by one total of estimated bytes: ``sys.getsizeof`` summed over
containers (``deep_size``), where an object shared by several entries counts in each (an
upper bound). When the total is over, the entry least recently used in any cache goes
first: every entry carries the tick of its last use from one process-wide clock, so a hot
passage's vectors outlive a memoized parse seen once, whichever cache is larger. Entries go
until the total is a small share under the bound (``EVICT_SHARE``), so one pass over the
caches evicts many, not one for each result kept. The total
is ``DEFAULT_MAX_BYTES`` unless the environment sets
``RAGGUARD_CACHE_MAX_BYTES``, read when a cache first needs it (a bad value is a
``ConfigError`` naming the variable, raised by the first ``Guard`` or ``Evaluator``), and
``set_max_bytes()`` changes it at run time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import heapq
import inspect
import itertools
import os
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from ragguard.errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEFAULT_MAX_BYTES = 64 * 2**20
"""Bytes all caches together may hold (64 MiB): with the lite models loaded, a live
evaluation child stays under 300 MB RSS ([Speed](../docs/speed.md) has the soak)."""
MAX_BYTES_VARIABLE = "RAGGUARD_CACHE_MAX_BYTES"

_max_bytes: int | None = None
_total = 0
_LOCK = threading.RLock()
"""One lock for every cache and the total: a miss then takes one lock, not two. Re-entrant:
a cache the garbage collector frees gives its bytes back in ``__del__``, which may run on a
thread that holds the lock (inside ``deep_size``'s allocations in ``keep``); a plain lock
would wait on itself there for ever."""
_REGISTRY: weakref.WeakSet[Cache[Any, Any]] = weakref.WeakSet()
_MISSING = object()
_clock = itertools.count().__next__
"""The process-wide use clock: ``next`` on ``itertools.count`` is atomic under the GIL."""


def deep_size(value: object, seen: set[int] | None = None) -> int:
    """Bytes ``value`` holds: its own size plus that of what it contains (tuples, lists,
    sets, dicts, dataclasses), each object counted once. A NumPy array that owns its data
    counts it in ``sys.getsizeof``."""
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
"""Of a memoized function's results, every this-many-th is measured with ``deep_size`` (and
the first few): measuring each costs as much as parsing it. The count runs over the cache's
life, not since its last ``clear()``: bytes per unit of length belong to the function, so
a cleared cache has nothing to learn again."""


def _key_length(args: tuple[object, ...]) -> int:
    length = 1  # a loop, not sum() over a generator: it runs on every miss
    for arg in args:
        length += len(arg) if isinstance(arg, (str, bytes)) else 8
    return length


def _add_to_total(delta: int) -> None:
    global _total
    with _LOCK:
        _total += delta


class Cache(Generic[K, V]):
    """A thread-safe LRU map bounded by ``entries`` (0: keeps none) and by its share of the
    total byte bound; registered so that ``clear_caches()`` and ``cache_stats()`` reach it.
    A value larger than the whole bound is not kept."""

    def __init__(self, name: str, entries: int) -> None:
        self.name = name
        self.entries = entries
        self.data: OrderedDict[Hashable, list[Any]] = OrderedDict()  # [value, bytes, last use]
        self._bytes = 0
        self._misses = 0
        self._kept_ever = 0  # results kept over the cache's life: what sampling counts
        self._measured_bytes = 0
        self._measured_length = 0
        _REGISTRY.add(self)

    def get_many(self, keys: Sequence[K]) -> dict[K, V]:
        """The values present among ``keys`` (each marked as just used)."""
        with _LOCK:
            found = {}
            for key in keys:
                entry = self.data.get(key)
                if entry is not None:
                    found[key] = entry[0]
                    entry[2] = _clock()
                    self.data.move_to_end(key)
        return found

    def put_many(self, values: Mapping[K, V]) -> None:
        """Keep ``values``, each measured with ``deep_size``."""
        for key, value in values.items():
            self._put(key, value, deep_size(key) + deep_size(value))
        _enforce_total()

    def keep(self, key: Hashable, length: int, value: object) -> None:
        """Keep a memoized result, its bytes estimated from ``length`` (its arguments')
        and the bytes per unit of length measured on a sample of results."""
        global _total
        limit = _limit()
        with _LOCK:  # this runs on every miss: one lock, no call it can do without
            self._misses += 1
            kept = self._kept_ever = self._kept_ever + 1
            if kept <= SAMPLE_EVERY or not kept % SAMPLE_EVERY:
                self._measured_bytes += deep_size(key) + deep_size(value)
                self._measured_length += length
            size = length * self._measured_bytes // self._measured_length
            if size > limit or not self.entries:
                return
            change = self._store(key, value, size)
            _total += change
        if _total > limit:
            _enforce_total()

    def _put(self, key: Hashable, value: object, size: int) -> None:
        global _total
        if size > _limit() or not self.entries:
            return
        with _LOCK:  # the one lock covers the total too: no second acquisition
            _total += self._store(key, value, size)

    def _store(self, key: Hashable, value: object, size: int) -> int:
        """Keep the entry, the lock held; the change in this cache's bytes."""
        data = self.data
        previous = data.pop(key, None)
        change = size - (previous[1] if previous is not None else 0)
        data[key] = [value, size, _clock()]
        while len(data) > self.entries:
            change -= data.popitem(last=False)[1][1]
        self._bytes += change
        return change

    def oldest_use(self) -> int | None:
        """The clock tick of this cache's least recently used entry (None: empty)."""
        with _LOCK:
            return next(iter(self.data.values()))[2] if self.data else None

    def drop_oldest(self) -> bool:
        """Give up the least recently used entry; False when there was none."""
        global _total
        with _LOCK:
            if not self.data:
                return False
            size = self.data.popitem(last=False)[1][1]
            self._bytes -= size
            _total -= size
        return True

    def clear(self) -> None:
        global _total
        with _LOCK:
            self.data.clear()
            _total -= self._bytes
            self._bytes, self._misses = 0, 0

    def stats(self) -> CacheStats:
        with _LOCK:
            return CacheStats(self.name, len(self.data), self._bytes, self._misses)

    def __len__(self) -> int:
        return len(self.data)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit the module may be gone
            _add_to_total(-self._bytes)


EVICT_SHARE = 256
"""Once over the bound, entries go until the total is under it by this share of it (a
quarter of a megabyte of the default 64 MiB): one pass over the caches evicts many entries,
not one per result kept."""


def _enforce_total() -> None:
    """While the caches hold more than the bound, the entry least recently used in any of
    them goes, until the total is ``1 / EVICT_SHARE`` of the bound under it. The caches'
    oldest entries are read once into a heap; each eviction reads only its cache again."""
    limit = _limit()
    if _total <= limit:
        return
    target = limit - limit // EVICT_SHARE
    heap = [
        (tick, index, cache)
        for index, cache in enumerate(list(_REGISTRY))
        if (tick := cache.oldest_use()) is not None
    ]
    heapq.heapify(heap)
    while _total > target and heap:
        tick, index, cache = heapq.heappop(heap)
        now = cache.oldest_use()
        if now == tick:  # else another thread used or dropped it: its new oldest goes back
            cache.drop_oldest()
            now = cache.oldest_use()
        if now is not None:
            heapq.heappush(heap, (now, index, cache))


def memoized(entries: int) -> Callable[[F], F]:
    """Memoize a function of hashable positional arguments in a registered cache of at
    most ``entries`` results. A plain function wraps it, not an object, and takes no
    keywords: a hit then costs a few dict operations."""

    def wrap(function: F) -> F:
        cache: Cache[Hashable, Any] = Cache(
            f"{function.__module__}.{function.__qualname__}", entries
        )
        get, to_end, keep, clock = cache.data.get, cache.data.move_to_end, cache.keep, _clock
        parameters = list(inspect.signature(function).parameters.values())
        alone = len(parameters) == 1 and parameters[0].default is inspect.Parameter.empty

        @functools.wraps(function)
        def cached(*args: Hashable) -> Any:
            key = args[0] if alone else args  # one argument is its own key: no tuple to hash
            found = get(key, _MISSING)
            if found is not _MISSING:
                found[2] = clock()  # type: ignore[index]
                try:  # noqa: SIM105 - contextlib.suppress would cost a hit as much again
                    to_end(key)  # another thread may have evicted it: the result stands
                except KeyError:
                    pass
                return found[0]  # type: ignore[index]
            value = function(*args)
            keep(key, _key_length(args), value)
            return value

        return cast(F, cached)

    return wrap


def clear_caches(prefix: str = "") -> None:
    """Empty every registered cache whose name starts with ``prefix``."""
    for cache in list(_REGISTRY):
        if cache.name.startswith(prefix):
            cache.clear()


def cache_stats() -> list[CacheStats]:
    """Entries, bytes and misses of every registered cache, by name."""
    return sorted((cache.stats() for cache in list(_REGISTRY)), key=lambda s: s.name)


def total_bytes() -> int:
    """Bytes all caches hold now, by the same estimate as the bound."""
    return _total


def _configured_max_bytes() -> int:
    written = os.environ.get(MAX_BYTES_VARIABLE, "").strip()
    if not written:
        return DEFAULT_MAX_BYTES
    if not (written.isascii() and written.isdigit()) or len(written) > 18:
        shown = written if len(written) <= 40 else f"{written[:20]}... ({len(written)} characters)"
        raise ConfigError(
            f"environment variable {MAX_BYTES_VARIABLE} must be a whole number of bytes "
            f"(all caches together) of at most 18 digits, not {shown!r}"
        )
    return int(written)


def max_bytes() -> int:
    """The byte bound over all caches together, read from the environment on first use; a
    bad value is a ``ConfigError`` naming the variable."""
    global _max_bytes
    if _max_bytes is None:
        _max_bytes = _configured_max_bytes()
    return _max_bytes


def _limit() -> int:
    """The bound for the caches' own bookkeeping, which never raises: work memoized while
    ragguard is imported runs under the default until ``max_bytes()`` has been read."""
    try:
        return max_bytes()
    except ConfigError:
        return DEFAULT_MAX_BYTES


def set_max_bytes(limit: int) -> None:
    """Bound all caches together by ``limit`` bytes from now on; they shrink at once."""
    global _max_bytes
    if limit < 0:
        raise ValueError(f"a cache bound cannot be negative: {limit}")
    _max_bytes = limit
    _enforce_total()
