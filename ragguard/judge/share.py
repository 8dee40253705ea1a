"""The judge picks which in-band spans are supported; the lite tier says how many.

A small judge's "yes" rate moves with the traffic far more than the truth does: it says
"yes" to most claims against a long document (docs/judge.md has the figures). A fixed
cut-off on its score, fitted on one kind of text, then turns the cascade worse than the lite
tier on another. Its ranking holds up better than its cut-off. So in the band the decision
is a quantile, not a constant: a span is supported when its combined score (the card's
log-odds, ``calibration.combine.margin``) is above the quantile of the last ``window``
in-band spans' combined scores that leaves as large a share supported as the lite verdicts
gave those spans. Alone, the window lets the judge move which spans are supported, never how
many, so a judge that says "yes" to everything moves nothing it cannot rank.

The window decides only where the lite tier and the judge disagree (``judge/policy.py``):
where they agree, nothing overturns them. It decides nothing (the lite verdict stands)
until ``warmup`` spans have been seen, while every span in it got one lite verdict (a share
of 0 or 1 leaves no count to match), and at the quantile itself.

``share_verdict`` decides from what the window holds, and ``in_band_verdict`` applies it to
disagreement alone (pure; the policy and the benchmarks both decide through it);
``ShareMatch`` is one window,
the only mutable state, holding ``window`` pairs of numbers. ``ShareWindows`` keeps one per
pipeline (a trace's ``otel`` origin service in ``serve``, else one for the process: each
``--workers`` process and Ray actor keeps its own), so one pipeline's traffic never moves
another's verdicts; verdicts in the band still depend on the order of a pipeline's spans.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Seen:
    """One in-band span in the window."""

    lite_verdict: bool
    margin: float
    """Its combined score (the card's log-odds)."""


def share_verdict(seen: Sequence[Seen], warmup: int, margin: float) -> bool | None:
    """A span's verdict against the window's ``seen`` spans (module docstring); None: the
    window does not decide, the lite verdict stands."""
    if len(seen) < warmup:
        return None
    share = float(np.mean([s.lite_verdict for s in seen]))
    if share <= 0.0 or share >= 1.0:
        return None
    cut = float(np.quantile(np.array([s.margin for s in seen]), 1.0 - share, method="inverted_cdf"))
    return None if margin == cut else margin > cut


def in_band_verdict(
    seen: Sequence[Seen], warmup: int, lite_verdict: bool, judge_verdict: bool, margin: float
) -> bool | None:
    """A windowed in-band span's verdict: where the lite tier and the judge agree, theirs;
    where they disagree, the window's (``share_verdict``); None: the lite verdict stands."""
    if judge_verdict == lite_verdict:
        return lite_verdict
    return share_verdict(seen, warmup, margin)


class ShareMatch:
    """The rolling window of in-band spans' (lite verdict, combined score)."""

    def __init__(self, window: int, warmup: int) -> None:
        self.warmup = warmup
        self.size = max(window, 1)
        self._seen: deque[Seen] = deque(maxlen=self.size)
        self.lock = threading.RLock()
        """Held while a batch's verdicts are read from the window and joined to it."""

    def seen(self) -> tuple[Seen, ...]:
        with self.lock:
            return tuple(self._seen)

    def extend(self, spans: Iterable[Seen]) -> None:
        with self.lock:
            self._seen.extend(spans)

    def decide(self, lite_verdict: bool, judge_verdict: bool, margin: float) -> bool:
        """The span's verdict as the policy gives it (``in_band_verdict``), for a stream of
        spans outside the cascade (the benchmarks); the span then joins the window."""
        with self.lock:
            seen = self.seen()
            self._seen.append(Seen(lite_verdict, margin))
        decided = in_band_verdict(seen, self.warmup, lite_verdict, judge_verdict, margin)
        return lite_verdict if decided is None else decided

    def __len__(self) -> int:
        return len(self._seen)


MAX_PIPELINES = 256
"""Windows kept at once; the least recently used pipeline's goes first (it warms up again)."""


class ShareWindows:
    """One ``ShareMatch`` per pipeline, made on first use, at most ``MAX_PIPELINES``."""

    def __init__(self, window: int, warmup: int) -> None:
        self.window, self.warmup = window, warmup
        self._windows: OrderedDict[str, ShareMatch] = OrderedDict()
        self.lock = threading.RLock()
        """Held while a batch's verdicts are read from the windows and joined to them."""

    def __getitem__(self, pipeline: str) -> ShareMatch:
        with self.lock:
            found = self._windows.get(pipeline)
            if found is None:
                found = self._windows[pipeline] = ShareMatch(self.window, self.warmup)
                while len(self._windows) > MAX_PIPELINES:
                    self._windows.popitem(last=False)
            self._windows.move_to_end(pipeline)
            return found

    def seen(self, pipelines: Iterable[str]) -> dict[str, tuple[Seen, ...]]:
        with self.lock:
            return {p: self[p].seen() for p in dict.fromkeys(pipelines)}
