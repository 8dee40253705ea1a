"""The cores this process may run on: one count for the encoder's lanes, the ``--workers``
thread share and the live child's share, so all of them see what a container allows."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers narrow)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
