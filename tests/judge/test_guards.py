"""The guards around the judge's transport (``ragguard/judge/guards.py``), each alone, on a
clock the test moves."""

from ragguard.config import JudgeConfig
from ragguard.judge.guards import Backoff, Breaker, CallRate, DailyBudget, Guards


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_breaker_opens_after_the_failures_in_a_row_then_lets_one_probe_through():
    clock = Clock()
    breaker = Breaker(failures=3, cooldown_s=30.0, clock=clock)
    for _ in range(2):
        breaker.record(False)
    assert breaker.allow()  # two failures: still closed
    breaker.record(False)
    assert not breaker.allow()  # open
    clock.now += 29.0
    assert not breaker.allow()
    clock.now += 1.0
    assert breaker.allow() and not breaker.allow()  # one probe at a time
    breaker.record(True)
    assert breaker.allow() and breaker.allow()  # closed again


def test_a_success_resets_the_count_and_a_failed_probe_opens_it_again():
    clock = Clock()
    breaker = Breaker(failures=2, cooldown_s=5.0, clock=clock)
    breaker.record(False)
    breaker.record(True)
    breaker.record(False)
    assert breaker.allow()  # not two in a row
    breaker.record(False)
    clock.now += 5.0
    assert breaker.allow()
    breaker.record(False)  # the probe failed
    assert not breaker.allow()


def test_a_probe_that_never_went_out_is_released():
    clock = Clock()
    breaker = Breaker(failures=1, cooldown_s=1.0, clock=clock)
    breaker.record(False)
    clock.now += 1.0
    assert breaker.allow()
    breaker.release()
    assert breaker.allow()


def test_the_call_rate_counts_a_sliding_minute():
    rate = CallRate(limit=2)
    rate.take(0.0)
    rate.take(30.0)
    assert rate.full(59.9)
    assert not rate.full(60.0)  # the first call has left the minute
    rate.take(60.0)
    assert rate.full(61.0)
    assert not CallRate(limit=None).full(0.0)


def test_the_daily_budget_reserves_settles_and_starts_again_each_day():
    day = ["2026-11-28"]
    budget = DailyBudget(limit=1_000, day=lambda: day[0])
    assert budget.fits(1_000) and not budget.fits(1_001)
    budget.spend(800)  # reserved
    budget.spend(300 - 800)  # the call used 300
    assert budget.left() == 700
    day[0] = "2026-11-29"
    assert budget.left() == 1_000
    assert DailyBudget(limit=None).left() is None


def test_backoff_doubles_with_jitter_and_never_sleeps_after_the_last_attempt():
    slept: list[float] = []
    backoff = Backoff(retries=2, backoff_s=0.5, sleep=slept.append, jitter=lambda: 0.5)
    assert backoff.attempts == 3
    for attempt in range(backoff.attempts):
        backoff.pause(attempt)
    assert slept == [0.5, 1.0]
    low = Backoff(retries=1, backoff_s=1.0, sleep=slept.append, jitter=lambda: 0.0)
    high = Backoff(retries=1, backoff_s=1.0, sleep=slept.append, jitter=lambda: 0.999)
    assert low.delay(1) == 1.0 and 2.9 < high.delay(1) < 3.0


def test_guards_refuse_in_order_and_a_refused_call_reserves_nothing():
    clock = Clock()
    config = JudgeConfig(
        max_calls_per_minute=2, max_tokens_per_day=1_000, breaker_failures=1, breaker_cooldown_s=10
    )
    guards = Guards(config, clock)
    assert guards.admit(1_001) == "over_budget"
    assert guards.tokens_left_today() == 1_000
    assert guards.admit(400) is None
    assert guards.settle(400, 100, ok=True) == 900
    assert guards.admit(100) is None
    assert guards.admit(100) == "rate_limited"
    assert guards.settle(100, 0, ok=False) == 900  # failed: nothing spent, breaker opens
    assert guards.admit(100) == "circuit_open"  # the breaker is asked first
    clock.now += 60.0  # past the cooldown and the minute
    assert guards.admit(10_000) == "over_budget"  # the probe was refused, so it is released
    assert guards.admit(100) is None  # ... and the next call may probe
    assert guards.settle(100, 50, ok=None) == 850  # an unparseable reply: the server works
    assert guards.admit(100) is None
