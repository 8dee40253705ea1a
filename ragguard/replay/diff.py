"""What changed between the verdicts logged live and those of a replay with another config.

Spans are paired by their character offsets (the same response split the same way), else
by their text; a span on one side only is "absent" on the other (a changed span config).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ragguard.schema import Evaluation, SpanEvaluation, verdict

ABSENT = "absent"


def span_verdict(span: SpanEvaluation | None) -> str:
    """The exporters' one word for a span's outcome, or "absent" for no span."""
    return ABSENT if span is None else verdict(span)


def pair_spans(
    live: Sequence[SpanEvaluation], replay: Sequence[SpanEvaluation]
) -> list[tuple[SpanEvaluation | None, SpanEvaluation | None]]:
    """Live and replayed spans side by side, in replay order, unmatched live spans last."""
    by_offsets = {(s.start, s.end): s for s in live}
    unmatched = list(live)
    pairs: list[tuple[SpanEvaluation | None, SpanEvaluation | None]] = []
    for span in replay:
        match = by_offsets.get((span.start, span.end))
        if match is None or match not in unmatched:
            match = next((s for s in unmatched if s.text == span.text), None)
        if match is not None:
            unmatched.remove(match)
        pairs.append((match, span))
    pairs.extend((span, None) for span in unmatched)
    return pairs


@dataclass(frozen=True)
class SpanChange:
    text: str
    live: str
    replay: str
    live_support: float | None
    replay_support: float | None


@dataclass(frozen=True)
class ItemChange:
    id: str
    live: bool | None
    replay: bool | None
    live_relevance: float | None
    replay_relevance: float | None


@dataclass
class TraceDiff:
    trace_id: str
    spans: list[SpanChange]
    items: list[ItemChange]
    transitions: Counter[tuple[str, str]]
    """(live verdict, replay verdict) -> spans, unchanged ones included."""
    live_thresholds: dict[str, float]
    replay_thresholds: dict[str, float]

    @property
    def changed(self) -> bool:
        return bool(self.spans or self.items)


def diff_trace(live: Evaluation, replay: Evaluation) -> TraceDiff:
    transitions: Counter[tuple[str, str]] = Counter()
    spans = []
    for before, after in pair_spans(live.spans, replay.spans):
        verdicts = (span_verdict(before), span_verdict(after))
        transitions[verdicts] += 1
        if verdicts[0] != verdicts[1]:
            spans.append(
                SpanChange(
                    text=(after or before).text,  # type: ignore[union-attr]
                    live=verdicts[0],
                    replay=verdicts[1],
                    live_support=before.support if before else None,
                    replay_support=after.support if after else None,
                )
            )
    live_items = {item.id: item for item in live.items}
    items = [
        ItemChange(item.id, old.relevant, item.relevant, old.relevance, item.relevance)
        for item in replay.items
        if (old := live_items.get(item.id)) is not None and old.relevant != item.relevant
    ]
    return TraceDiff(
        live.trace_id,
        spans,
        items,
        transitions,
        live.thresholds.present(),
        replay.thresholds.present(),
    )


@dataclass
class DiffTotals:
    """Run-level diff: span verdict transitions, relevant-flag flips, thresholds seen."""

    traces: int = 0
    traces_changed: int = 0
    transitions: Counter[tuple[str, str]] = field(default_factory=Counter)
    item_flips: Counter[tuple[bool | None, bool | None]] = field(default_factory=Counter)
    items_compared: int = 0
    live_thresholds: Counter[tuple[tuple[str, float], ...]] = field(default_factory=Counter)
    replay_thresholds: Counter[tuple[tuple[str, float], ...]] = field(default_factory=Counter)

    def add(self, diff: TraceDiff, n_items: int) -> None:
        self.traces += 1
        self.traces_changed += diff.changed
        self.transitions.update(diff.transitions)
        self.item_flips.update((c.live, c.replay) for c in diff.items)
        self.items_compared += n_items
        self.live_thresholds[tuple(sorted(diff.live_thresholds.items()))] += 1
        self.replay_thresholds[tuple(sorted(diff.replay_thresholds.items()))] += 1

    @property
    def spans_changed(self) -> int:
        return sum(n for (a, b), n in self.transitions.items() if a != b)
