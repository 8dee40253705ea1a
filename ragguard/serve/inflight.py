"""One budget for the bytes ``serve`` holds while it reads, inflates and decodes requests,
across every connection and both receivers (``serve.max_inflight_bytes``).

A request reserves what it will hold before it holds it: its body as it is read, its
inflated body as it is inflated, and what its decoded spans may take (``request_size``)
before they are decoded. It waits for room (at most ``WAIT_S``, then the request gets 429
and ``Retry-After``), and gives everything back once its spans are buffered. A request
larger than the whole budget is let through alone, when nothing else is in flight.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

WAIT_S = 5.0
"""How long a request waits for room in the budget before it is refused (429)."""


class Busy(Exception):
    """No room in the budget within ``WAIT_S``: the request is refused and retried later."""


class ByteBudget:
    """Thread-safe: ``total`` bytes shared by the requests in flight."""

    def __init__(self, total: int, wait_s: float = WAIT_S) -> None:
        self.total = total
        self.wait_s = wait_s
        self.used = 0
        self._changed = threading.Condition()

    def _take(self, count: int, deadline: float, own: int) -> None:
        """Take ``count`` for a request holding ``own`` already: past the total only when
        no other request holds anything."""
        with self._changed:
            while self.used > own and self.used + count > self.total:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Busy
                self._changed.wait(left)
            self.used += count

    def _give(self, count: int) -> None:
        with self._changed:
            self.used -= count
            self._changed.notify_all()

    @contextmanager
    def reservation(self) -> Iterator[Reservation]:
        """A request's reservation: everything it took is given back at the end."""
        reservation = Reservation(self, time.monotonic() + self.wait_s)
        try:
            yield reservation
        finally:
            self._give(reservation.held)


class Reservation:
    """What one request holds of the budget."""

    def __init__(self, budget: ByteBudget, deadline: float) -> None:
        self.budget = budget
        self.deadline = deadline
        self.held = 0

    def take(self, count: int) -> None:
        """Hold ``count`` more bytes, waiting for room until the deadline (``Busy``)."""
        if count > 0:
            self.budget._take(count, self.deadline, self.held)
            self.held += count
