"""Freed heap pages handed back: at most once per interval, harmless where the allocator
cannot."""

from __future__ import annotations

import platform

from ragguard.runtime import memory
from ragguard.runtime.memory import PeriodicRelease, release_free_memory


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def test_release_runs_once_per_interval(monkeypatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(memory, "release_free_memory", lambda: calls.append(1) or True)
    clock = Clock()
    release = PeriodicRelease(every_s=30.0, clock=clock)
    assert release() is False  # not yet: the interval starts when it is made
    clock.now += 29.0
    assert release() is False
    clock.now += 1.0
    assert release() is True and len(calls) == 1
    assert release() is False and len(calls) == 1


def test_glibc_gives_free_pages_back() -> None:
    """On glibc the trim is real: the holes that freed blocks leave between live ones stay
    resident until it runs."""
    if platform.libc_ver()[0] != "glibc":
        assert release_free_memory() is False
        return
    blocks = [bytearray(b"x" * (64 * 1024)) for _ in range(1024)]  # under mmap's threshold
    del blocks[::2]  # 32 MB of holes: the heap's top stays in use, free() cannot shrink it
    holes = _rss_kb()
    assert release_free_memory() is True
    assert _rss_kb() < holes - 16 * 1024
    assert len(blocks) == 512


def _rss_kb() -> int:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS"))
    return int(line.split()[1])
