"""How long to wait before loading models again after a failure (a judge GGUF still being
copied, a port taken): ``serve``'s warm-up and the local judge's server wait alike."""

from __future__ import annotations

RELOAD_FIRST_S = 1.0
RELOAD_MAX_S = 300.0
"""The wait doubles from 1 s after each failure, to 5 minutes at most."""


def reload_delay(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failed load in a row (1 for the first)."""
    return min(RELOAD_MAX_S, RELOAD_FIRST_S * 2 ** max(failures - 1, 0))
