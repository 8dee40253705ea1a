"""Stage timings: how long each stage of a batch took, in milliseconds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class Stopwatch:
    """Times named stages from its creation: ``with watch.stage("support"): ...``."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.ms: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Adds the time spent inside the block to stage ``name``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.ms[name] = self.ms.get(name, 0.0) + (time.perf_counter() - start) * 1000

    def total_ms(self) -> float:
        """Milliseconds since the stopwatch was made."""
        return (time.perf_counter() - self.started) * 1000
