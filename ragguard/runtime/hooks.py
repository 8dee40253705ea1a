"""Exit and fork hooks, registered once per owner when its first instance is built.

Importing ragguard registers nothing: an application that imports it and never builds an
EvaluationThread, a Monitor or a trace log keeps its exit and its forks as they were. The
hooks act on the owner's live instances (kept in a weak set), so once registered they do
nothing while none is live: ``os.register_at_fork`` cannot be undone.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable

_REGISTERED: set[str] = set()
_LOCK = threading.Lock()


def register_once(
    owner: str,
    *,
    at_exit: Callable[[], None] | None = None,
    after_fork: Callable[[], None] | None = None,
) -> bool:
    """Register ``owner``'s hooks unless they already are; True when this call did. Exit
    hooks run last registered first, so an owner whose exit hook must run before another's
    registers that one first."""
    with _LOCK:
        if owner in _REGISTERED:
            return False
        _REGISTERED.add(owner)
        if at_exit is not None:
            atexit.register(at_exit)
        if after_fork is not None:
            os.register_at_fork(after_in_child=after_fork)
        return True


def registered() -> frozenset[str]:
    """The owners whose hooks are registered in this process."""
    with _LOCK:
        return frozenset(_REGISTERED)
