"""The work for one trace, gathered stage by stage before its evaluation is assembled."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragguard.errors import RagguardError
from ragguard.media.visual import Visual
from ragguard.schema import Evaluation, FieldIssue, Trace
from ragguard.scoring.interface.evidence import Evidence
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lite.answer import AnswerScore
from ragguard.spans import Span

Outcome = Evaluation | RagguardError


@dataclass
class TracePlan:
    """Work for one trace, gathered before the batched model calls."""

    trace: Trace
    spans: list[Span] = field(default_factory=list)
    evidence: list[Evidence | None] = field(default_factory=list)
    """Aligned with trace.items; None where the item is not scored as text."""
    visuals: list[Visual | None] = field(default_factory=list)
    """Aligned with trace.items; the pixels of image/video items when an image scorer is set."""
    unscorable: dict[int, str] = field(default_factory=dict)
    """Item index -> why it cannot be scored (an unreadable image or video)."""
    issues: list[FieldIssue] = field(default_factory=list)
    relevance: list[float | None] = field(default_factory=list)
    relevance_frame: dict[int, float | None] = field(default_factory=dict)
    """Item index -> timestamp of the frame that gave a video its RS."""
    support: dict[tuple[int, int], float] = field(default_factory=dict)
    """(span index, item index) -> CS."""
    reasons: dict[tuple[int, int], tuple[Reason, ...]] = field(default_factory=dict)
    """(span index, item index) -> the checks that fired (scorers that explain)."""
    support_frame: dict[tuple[int, int], float | None] = field(default_factory=dict)
    languages: dict[int, str] = field(default_factory=dict)
    """Span index -> the language an objective span was read as."""
    across: dict[int, bool] = field(default_factory=dict)
    """Span index -> whether every item it was read with is in another language."""
    unread: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    """(span index, item index) -> why the pair was not read (a language no backbone reads),
    and the item's language."""
    answer: AnswerScore | None = None
    readings: list[str] = field(default_factory=list)
    """Each span's text read with its antecedent (``scoring.checks.antecedents``): what is
    scored."""
    """Answer relevance: the answer's and its read spans' (``answer_sentences``)."""
