"""The guards around the judge's transport, each local, cheap and testable alone.

- ``Breaker``: after ``failures`` failed calls in a row, no call for ``cooldown_s``, then
  one probe; a probe that never went out is released.
- ``CallRate``: at most ``limit`` calls in a sliding minute.
- ``DailyBudget``: tokens per UTC day, an estimate reserved before a call and replaced by
  the tokens used after it.
- ``Backoff``: how often a failed attempt is tried again, and how long to wait first
  (exponential, with jitter).

``Guards`` checks the first three before a call goes out and settles them after it, under
one lock: calls may run concurrently.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime

from ragguard.config import JudgeConfig
from ragguard.schema import JudgeSkip


def utc_day() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


class Breaker:
    """Closed, open for a cooldown after repeated failures, then half-open for one probe."""

    def __init__(self, failures: int, cooldown_s: float, clock: Callable[[], float]) -> None:
        self.limit, self.cooldown_s, self.clock = failures, cooldown_s, clock
        self.failures = 0
        self.opened_at: float | None = None
        self.probing = False

    def allow(self) -> bool:
        if self.opened_at is None:
            return True
        if self.probing or self.clock() - self.opened_at < self.cooldown_s:
            return False
        self.probing = True
        return True

    def release(self) -> None:
        """A probe that was let through but never went out: the next call may probe."""
        self.probing = False

    def record(self, ok: bool) -> None:
        self.probing = False
        if ok:
            self.failures, self.opened_at = 0, None
            return
        self.failures += 1
        if self.failures >= self.limit:
            self.opened_at = self.clock()


class CallRate:
    """Calls in the last sliding minute, against a limit (None: no limit)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self._recent: deque[float] = deque()

    def full(self, now: float) -> bool:
        """Whether another call at ``now`` (seconds) would pass the limit."""
        while self._recent and now - self._recent[0] >= 60.0:
            self._recent.popleft()
        return self.limit is not None and len(self._recent) >= self.limit

    def take(self, now: float) -> None:
        self._recent.append(now)


class DailyBudget:
    """Tokens spent today against a daily limit (None: no limit); a new day starts at 0."""

    def __init__(self, limit: int | None, day: Callable[[], str] = utc_day) -> None:
        self.limit, self.day = limit, day
        self._day = ""
        self._used = 0

    def left(self) -> int | None:
        if self.limit is None:
            return None
        today = self.day()
        if today != self._day:
            self._day, self._used = today, 0
        return max(self.limit - self._used, 0)

    def fits(self, estimate: int) -> bool:
        left = self.left()
        return left is None or estimate <= left

    def spend(self, tokens: int) -> None:
        """Add ``tokens`` to today's use (negative: give back part of a reservation)."""
        self._used += tokens


class Backoff:
    """``retries`` more attempts after a failed one, the first after about ``backoff_s``,
    doubling each time, with jitter (0.5 to 1.5 times)."""

    def __init__(
        self,
        retries: int,
        backoff_s: float,
        sleep: Callable[[float], None],
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.retries, self.backoff_s, self.sleep, self.jitter = retries, backoff_s, sleep, jitter

    @property
    def attempts(self) -> int:
        return self.retries + 1

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt ``attempt`` (0-based)."""
        return self.backoff_s * 2**attempt * (0.5 + self.jitter())

    def pause(self, attempt: int) -> None:
        """Wait before the next attempt, if there is one."""
        if attempt < self.retries:
            self.sleep(self.delay(attempt))


class Guards:
    """The breaker, the rate and the budget, checked together before a call and settled
    after it; thread-safe."""

    def __init__(self, config: JudgeConfig, clock: Callable[[], float]) -> None:
        self.breaker = Breaker(config.breaker_failures, config.breaker_cooldown_s, clock)
        self.rate = CallRate(config.max_calls_per_minute)
        self.clock = clock
        self.budget = DailyBudget(config.max_tokens_per_day)
        self._lock = threading.Lock()

    def tokens_left_today(self) -> int | None:
        with self._lock:
            return self.budget.left()

    def admit(self, estimate: int) -> JudgeSkip | None:
        """Why a call of about ``estimate`` tokens may not go out now; None: it may, and
        the estimate is reserved."""
        with self._lock:
            if not self.breaker.allow():
                return "circuit_open"
            now = self.clock()
            refused: JudgeSkip | None = None
            if self.rate.full(now):
                refused = "rate_limited"
            elif not self.budget.fits(estimate):
                refused = "over_budget"
            if refused is not None:
                self.breaker.release()
                return refused
            self.rate.take(now)
            self.budget.spend(estimate)
            return None

    def settle(self, estimate: int, used: int, ok: bool | None) -> int | None:
        """Replace the reserved estimate with the tokens used; record success or failure
        with the breaker (None: neither, an unparseable reply from a working server). The
        tokens left today."""
        with self._lock:
            self.budget.spend(used - estimate)
            if ok is not None:
                self.breaker.record(ok)
            elif self.breaker.probing:
                self.breaker.record(True)
            return self.budget.left()
