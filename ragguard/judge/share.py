"""The judge picks which in-band spans are supported; the lite tier says how many.

A small judge's "yes" rate moves with the traffic far more than the truth does: it says
"yes" to most claims against a long document (docs/judge.md has the figures). A fixed
cut-off on its score, fitted on one kind of text, then turns the cascade worse than the lite
tier on another. Its ranking holds up better than its cut-off. So in the band the decision
is a quantile, not a constant: a span is supported when its combined score (the card's
log-odds, ``calibration.combine.margin``) is above the quantile of the last ``window``
in-band spans' combined scores that leaves as large a share supported as the lite verdicts
gave those spans (at the quantile itself, the lite verdict stands). The judge can move which
spans are supported, never how many, so a judge that says "yes" to everything moves nothing
it cannot rank.

Until ``warmup`` spans have been seen the lite verdict stands. ``share_verdict`` decides
from what the window holds (pure); ``ShareMatch`` is the window itself, the only mutable
state, per process (each ``--workers`` process and Ray actor keeps its own); it holds
``window`` pairs of numbers.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Seen:
    """One in-band span in the window."""

    lite_verdict: bool
    margin: float
    """Its combined score (the card's log-odds)."""


def share_verdict(seen: Sequence[Seen], warmup: int, lite_verdict: bool, margin: float) -> bool:
    """A span's verdict against the window's ``seen`` spans (module docstring)."""
    if len(seen) < warmup:
        return lite_verdict
    margins = np.array([s.margin for s in seen])
    share = float(np.mean([s.lite_verdict for s in seen]))
    if share <= 0.0:
        return False
    cut = float(np.quantile(margins, 1.0 - share, method="inverted_cdf"))
    return lite_verdict if margin == cut else margin > cut


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

    def decide(self, lite_verdict: bool, margin: float) -> bool:
        """The span's verdict (module docstring); the span then joins the window."""
        with self.lock:
            seen = self.seen()
            self._seen.append(Seen(lite_verdict, margin))
        return share_verdict(seen, self.warmup, lite_verdict, margin)

    def __len__(self) -> int:
        return len(self._seen)
