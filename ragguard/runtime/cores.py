"""The cores this process may run on: one count for the encoder's lanes, the ``--workers``
thread share and the live child's share, so all of them see what a container allows."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers narrow)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def map_in_pool(pool: Executor, fn: Callable[[A], R], items: Iterable[A]) -> Iterator[R]:
    """``pool.map(fn, items)``, or ``fn`` over ``items`` on this thread once the pool takes
    no more work: at interpreter exit Python shuts every thread pool before the atexit
    hooks run, and the live worker's exit flush evaluates what is pending then."""
    items = list(items)
    try:
        return pool.map(fn, items)
    except RuntimeError:  # the pool, or the interpreter, is shutting down
        return map(fn, items)
