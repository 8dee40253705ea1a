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

Until ``warmup`` spans have been seen the lite verdict stands. The window is per process
(each ``--workers`` process and Ray actor keeps its own) and is the only mutable state; it
holds ``window`` pairs of numbers.
"""

from __future__ import annotations

import threading
from collections import deque

import numpy as np


class ShareMatch:
    """The rolling window of in-band spans' (lite verdict, combined score)."""

    def __init__(self, window: int, warmup: int) -> None:
        self.warmup = warmup
        self._seen: deque[tuple[bool, float]] = deque(maxlen=max(window, 1))
        self._lock = threading.Lock()

    def decide(self, lite_verdict: bool, margin: float) -> bool:
        """The span's verdict (module docstring); the span then joins the window."""
        with self._lock:
            seen = list(self._seen)
            self._seen.append((lite_verdict, margin))
        if len(seen) < self.warmup:
            return lite_verdict
        margins = np.array([m for _, m in seen])
        share = float(np.mean([said for said, _ in seen]))
        if share <= 0.0:
            return False
        cut = float(np.quantile(margins, 1.0 - share, method="inverted_cdf"))
        return lite_verdict if margin == cut else margin > cut

    def __len__(self) -> int:
        return len(self._seen)
