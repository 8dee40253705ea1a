"""Plain data passed from span analysis to the evaluator (hot path: no pydantic here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SpanKind = Literal["objective", "subjective", "abstention", "empty"]
Modality = Literal["text", "image", "video"]


@dataclass(frozen=True, slots=True)
class ItemRef:
    """What span analysis needs to know of a retrieved item to resolve markers."""

    id: str
    modality: Modality = "text"


@dataclass(frozen=True, slots=True)
class Span:
    """One span of a response.

    ``text`` has citation markers stripped; ``start``/``end`` are character offsets of the span
    in the original response (markers included; -1 when a given span was not found in it).
    ``citations`` are item ids named by ``[1]``/``[d7]`` markers; ``references`` are item ids the
    span's content points at (``<image1>``, "document 2"), which restrict support scoring.
    ``context`` is the preceding span's text, for decontextualized verification. ``hedges`` are
    the hedge, modal, quantifier and frequency cues in the text ("likely"), whatever the kind.
    ``language`` is the span's detected language (``ragguard.language.detect``); where the
    span alone does not tell, the whole response's, and "en" where that does not either.
    """

    text: str
    start: int
    end: int
    kind: SpanKind
    citations: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    unknown_citations: tuple[str, ...] = ()
    context: str | None = None
    hedges: tuple[str, ...] = ()
    language: str = "und"
    aside: tuple[tuple[int, int], ...] = ()
    """Offsets in ``text`` of opinion clauses set aside from an objective span: they are not
    scored (``claim_text``)."""

    @property
    def claim_text(self) -> str:
        """The text that is scored: ``text`` less the clauses set aside."""
        if not self.aside:
            return self.text
        kept, at = [], 0
        for start, end in self.aside:
            kept.append(self.text[at:start])
            at = end
        return "".join([*kept, self.text[at:]])
