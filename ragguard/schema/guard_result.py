"""What guard mode attaches to an answer (``response_metadata["ragguard"]`` and the other
annotation places): whether the answer was evaluated, and the evaluation when there is one.
A guard that fails open (a timeout, a failed evaluation, the evaluation process down) still
says so, so reading the annotation never meets a missing key."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ragguard.schema.evaluation import Evaluation

GuardStatus = Literal["evaluated", "timed_out", "failed"]


class GuardResult(BaseModel):
    """``status``: ``evaluated`` (``evaluation`` holds it; ``reasons`` say why the answer
    fails the configured minimums, empty when it passes), ``timed_out`` (the answer went
    through after ``guard_timeout_s``; it is still evaluated in the background) or ``failed``
    (``error`` says why; the answer went through)."""

    model_config = ConfigDict(frozen=True)

    status: GuardStatus
    evaluation: Evaluation | None = None
    reasons: tuple[str, ...] = ()
    error: str | None = None

    @property
    def passed(self) -> bool | None:
        """True when evaluated and within the minimums; None when not evaluated."""
        return None if self.evaluation is None else not self.reasons
