"""The stage stopwatch of a batch (``ragguard.runtime.timing``)."""

from __future__ import annotations

import time

from ragguard.runtime.timing import Stopwatch


def test_stages_add_up_and_the_total_covers_them() -> None:
    watch = Stopwatch()
    for _ in range(2):
        with watch.stage("support"):
            time.sleep(0.01)
    try:
        with watch.stage("media"):
            raise ValueError("unreadable")
    except ValueError:
        pass
    assert set(watch.ms) == {"support", "media"}
    assert watch.ms["support"] >= 20.0
    assert watch.total_ms() >= watch.ms["support"] + watch.ms["media"]
