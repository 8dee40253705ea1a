"""The thresholds one evaluation was judged with: typed, and written as it always was.

A threshold absent from the evaluation (an evaluation read from a log written before it
existed, or built by hand) is omitted from the JSON and reads as ``DEFAULT_ETA`` through the
``eta_*`` properties, which is what every reader assumed of the old string-keyed dict.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

DEFAULT_ETA = 0.5
"""The threshold a reader assumes where an evaluation names none."""


class Thresholds(BaseModel):
    """Relevance, support and answer-relevance eta, in that order (the JSON key order);
    frozen, as one batch's evaluations share it."""

    model_config = ConfigDict(frozen=True)

    relevance: float | None = None
    support: float | None = None
    answer_relevance: float | None = None

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, float]:
        """Absent thresholds are left out, as the dict they replace left them out."""
        return {k: v for k, v in handler(self).items() if v is not None}

    @property
    def eta_relevance(self) -> float:
        return DEFAULT_ETA if self.relevance is None else self.relevance

    @property
    def eta_support(self) -> float:
        return DEFAULT_ETA if self.support is None else self.support

    @property
    def eta_answer(self) -> float:
        return DEFAULT_ETA if self.answer_relevance is None else self.answer_relevance

    def present(self) -> dict[str, float]:
        """The thresholds set, by name (what a report groups traces by)."""
        return {k: v for k, v in self.model_dump().items() if v is not None}
