"""What one question to the judge came to: a verdict (and a score), or why there is none."""

from __future__ import annotations

from dataclasses import dataclass

from ragguard.judge.parse import Parsed
from ragguard.schema import JudgeSkip


@dataclass(frozen=True)
class Answer:
    """One question's outcome: a verdict, or why there is none (``skipped``)."""

    parsed: Parsed | None
    skipped: JudgeSkip | None
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    tokens_left_today: int | None = None
    score: float | None = None
    """P(supported) from the score question's token probabilities; None for a verdict
    read from text (the endpoint returned no probabilities, or ``score = "verdict"``)."""
    prompt_evaluated: int | None = None
    """Prompt tokens the server computed, the rest served from its prompt cache (llama.cpp
    reports it; None where the server does not say)."""

    @property
    def called(self) -> bool:
        """A reply came back (tokens were spent), whether or not it held a verdict."""
        return self.skipped is None or self.skipped == "unparseable"


@dataclass(frozen=True)
class Replied:
    """A question's answer as the cascade got it."""

    answer: Answer
    reused: bool
    """Served without a call of its own: cached, or the same question earlier in the batch."""
    from_log: bool = False
    """Taken by a replay from the trace's logged evaluation (``Cascade.remember``)."""
