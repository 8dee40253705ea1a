"""Big blocks straight from the operating system and back (glibc only).

glibc serves a block past its mmap threshold with ``mmap`` and gives it back on ``free``,
but raises that threshold to the largest such block freed (up to 32 MB). From then on a
request's 12 MB body and decoded strings come from the heap of the thread that read it,
and a heap keeps freed memory while anything allocated after it lives: the resident size
grows by hundreds of megabytes that ``max_held_bytes`` and ``max_inflight_bytes`` do not
see ([Hardening](../../docs/hardening.md), round 5). A fixed threshold keeps every big
block mapped, so freeing it returns it. ``MALLOC_MMAP_THRESHOLD_`` set by the user wins.
"""

from __future__ import annotations

import ctypes
import os
import platform

M_MMAP_THRESHOLD = -3
"""``mallopt``'s parameter number for the mmap threshold (glibc's ``malloc.h``)."""
MMAP_THRESHOLD = 1 << 20
"""Blocks of 1 MiB and more are mapped: bodies and big values, never the small objects
that make up most of what ``serve`` holds."""


def return_big_blocks() -> bool:
    """Fix glibc's mmap threshold; whether it was fixed (False: not glibc, or the user
    set ``MALLOC_MMAP_THRESHOLD_``)."""
    if platform.libc_ver()[0] != "glibc" or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        return bool(ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):
        return False
