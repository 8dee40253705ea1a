"""The work for one trace, gathered stage by stage before its evaluation is assembled: a
record per item, a record per span, and in each span a record per item it was read with.

The stages fill these in order (spans, media, relevance, support, answer); ``assemble``
reads them, and nothing reads them after it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragguard.errors import RagguardError
from ragguard.media import Visual
from ragguard.schema import Evaluation, FieldIssue, Trace
from ragguard.scoring.interface import Evidence, Reason
from ragguard.scoring.lite import AnswerScore
from ragguard.spans import Span

Outcome = Evaluation | RagguardError


@dataclass
class ItemPlan:
    """One retrieved item's work."""

    evidence: Evidence | None = None
    """What is scored as text; None where the item is not (a media item an image scorer
    reads)."""
    visual: Visual | None = None
    """The pixels of an image or video item, when an image scorer is set."""
    unscorable: str | None = None
    """Why it cannot be scored (an unreadable image, a language no backbone reads)."""
    relevance: float | None = None
    relevance_frame_s: float | None = None
    """A video's: the timestamp of the frame that gave its relevance."""


@dataclass(frozen=True)
class PairScore:
    """One (span, item) pair's support."""

    support: float
    reasons: tuple[Reason, ...] = ()
    """The checks that fired (scorers that explain)."""
    frame_s: float | None = None
    """A video item's: the timestamp of its best supporting frame."""


@dataclass(frozen=True)
class UnreadPair:
    """A (span, item) pair no loaded backbone reads."""

    why: str
    item_language: str


@dataclass
class SpanPlan:
    """One span's work; ``language`` and the pairs only for an objective span."""

    span: Span
    reading: str = ""
    """The span's text read with its antecedent (``scoring.checks.antecedents``): what is
    scored."""
    language: str | None = None
    """The language an objective span was read as."""
    all_across: bool | None = None
    """Whether every item it was read with is in another language (None: read with none)."""
    pairs: dict[int, PairScore] = field(default_factory=dict)
    """Item index -> the pair's support, for the items it was read with."""
    unread: dict[int, UnreadPair] = field(default_factory=dict)
    """Item index -> why the pair was not read."""


@dataclass
class TracePlan:
    """Work for one trace, gathered before the batched model calls."""

    trace: Trace
    spans: list[SpanPlan] = field(default_factory=list)
    items: list[ItemPlan] = field(default_factory=list)
    """Aligned with ``trace.items``."""
    issues: list[FieldIssue] = field(default_factory=list)
    """Per-item problems met while planning, in the order met."""
    answer: AnswerScore | None = None
    """Answer relevance: the answer's and its read spans' (``answer_sentences``)."""

    @property
    def analysed(self) -> list[Span]:
        return [work.span for work in self.spans]

    @property
    def readings(self) -> list[str]:
        return [work.reading for work in self.spans]
