"""Freed heap pages handed back to the system every so often.

CPython returns freed objects to the C allocator, and glibc's malloc keeps the freed pages
for reuse. In a long-lived process whose caches and buffers turn over (the evaluation
child, ``ragguard serve``) that free memory stays resident and the RSS drifts upward.
``malloc_trim(0)`` releases it; a soak measured 26 MB released from a 269 MB child
([Hardening](../../docs/hardening.md)). Elsewhere (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from collections.abc import Callable
from functools import cache

TRIM_EVERY_S = 30.0
"""Seconds between trims: one takes a few milliseconds."""


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        function = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return None
    if function is not None:
        function.argtypes, function.restype = [ctypes.c_size_t], ctypes.c_int
    return function


def release_free_memory() -> bool:
    """Hand the allocator's free pages back to the system; False where it cannot."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


class PeriodicRelease:
    """``release_free_memory`` at most once per ``every_s``, for a loop to call each turn."""

    def __init__(
        self, every_s: float = TRIM_EVERY_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.every_s = every_s
        self.clock = clock
        self._last = clock()

    def __call__(self) -> bool:
        """Whether it released now (the interval had passed and the allocator can)."""
        now = self.clock()
        if now - self._last < self.every_s:
            return False
        self._last = now
        return release_free_memory()
