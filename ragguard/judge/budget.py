"""One judge budget for a whole run: ``[judge] max_calls_per_minute`` and
``max_tokens_per_day`` bound every call a run makes, wherever it is made.

Within a process, spans, answers and the calibration sample share one ``JudgeClient``.
Three things run outside it: the self-calibration first pass (``cli/_selfcal.py``, its own
client), each ``--workers`` process and each ``--runner ray`` actor (one client each). So
the first pass's tokens are taken off the day's budget the run proper starts with
(``after_first_pass``), and each of N worker processes or actors gets 1/N of both budgets
(``per_worker``): together they stay within the configured ones. A worker's share is a
floor, not a pool: an idle worker's share is not lent.
"""

from __future__ import annotations

from collections.abc import Mapping

from ragguard.config import Config, JudgeConfig


def after_first_pass(config: Config, used: Mapping[str, int]) -> Config:
    """``config`` with the tokens the first pass used (``tokens in`` + ``tokens out``) off
    the day's budget (at least 1 left, so the limit stays a limit)."""
    limit = config.judge.max_tokens_per_day
    spent = int(used.get("tokens in", 0)) + int(used.get("tokens out", 0))
    if limit is None or not spent:
        return config
    judge = config.judge.model_copy(update={"max_tokens_per_day": max(limit - spent, 1)})
    return config.model_copy(update={"judge": judge})


def per_worker(judge: JudgeConfig, workers: int) -> JudgeConfig:
    """One worker's share of the per-minute and per-day budgets (at least 1 each)."""
    if workers <= 1:
        return judge
    minute, day = judge.max_calls_per_minute, judge.max_tokens_per_day
    return judge.model_copy(
        update={
            "max_calls_per_minute": None if minute is None else max(minute // workers, 1),
            "max_tokens_per_day": None if day is None else max(day // workers, 1),
        }
    )
