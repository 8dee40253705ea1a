"""The self-contained HTML replay report: summary, score distributions, rates over time,
the live-vs-replay diff, and the worst traces with their unsupported spans highlighted.

``ReportBuilder.add`` folds one (logged trace, replayed evaluation) pair into bounded
aggregates (histogram counts, a top-k heap, a capped list of changed traces) plus one small
tuple per trace for the timeline; ``render`` fills ``report.html``. All user text is escaped.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from string import Template

from ragguard.judge import agreement
from ragguard.metrics import FROM_LOG, JUDGE_USES, RateTally, calls_by_use, describe_status
from ragguard.replay.cards import Shown, aware, changed_card, flag, fmt, worst_card
from ragguard.replay.diff import DiffTotals, diff_trace
from ragguard.replay.svg import Marker, Series, bin_counts, histogram
from ragguard.replay.timeline import LIVE_COLOR, REPLAY_COLOR, TimelineRow, rate, timeline_charts
from ragguard.runtime import LoggedTrace
from ragguard.schema import CalibrationStatus, Evaluation

BINS = 20

MEANS = (
    "mean_relevance",
    "relevant_at_k",
    "support_rate",
    "answer_relevance",
    "citation_precision",
    "citation_recall",
)
"""Per-trace metrics the summary averages on each side."""


@dataclass
class _Side:
    """Run-level numbers of one side (live or replay)."""

    traces: int = 0
    no_context: int = 0
    """Traces with no ``items`` key: no support verdict, left out of the hallucination rate."""
    hallucinated: int = 0
    no_verdict: int = 0
    """Traces with no hallucination verdict: no context, or no claim could be scored."""
    abstained: int = 0
    means: dict[str, list[float]] = field(default_factory=dict)
    relevance_bins: list[int] = field(default_factory=lambda: [0] * BINS)
    support_bins: list[int] = field(default_factory=lambda: [0] * BINS)
    answer_relevance_bins: list[int] = field(default_factory=lambda: [0] * BINS)
    judged: int = 0
    """Spans the LLM judge decided ..."""
    calls: Counter[str] = field(default_factory=Counter)
    """Judge calls made, by use (``metrics.judge_calls``)."""
    agreed: int = 0
    """... where the lite verdict was the same."""
    thresholds: Counter[tuple[tuple[str, float], ...]] = field(default_factory=Counter)
    """Traces by the thresholds they were judged with."""
    rate: RateTally = field(default_factory=RateTally)
    """Unsupported objective spans, corrected by a judge-labelled calibration sample."""
    calibration: CalibrationStatus | None = None
    """The calibration in force for the latest trace."""

    def add(self, evaluation: Evaluation) -> None:
        m = evaluation.metrics
        self.traces += 1
        self.rate.add(evaluation.spans, evaluation.thresholds.eta_support)
        if evaluation.calibration is not None:
            self.calibration = evaluation.calibration
        judged, agreed = agreement(evaluation)
        self.calls.update(calls_by_use(evaluation))
        self.judged += judged
        self.agreed += agreed
        self.hallucinated += bool(m.hallucination)
        self.no_context += m.no_context
        self.no_verdict += m.hallucination is None
        self.abstained += m.abstained
        self.thresholds[tuple(sorted(evaluation.thresholds.present().items()))] += 1
        for name in MEANS:
            value = getattr(m, name)
            if value is not None:
                self.means.setdefault(name, []).append(value)
        relevance = [i.relevance for i in evaluation.items if i.relevance is not None]
        support = [s.support for s in evaluation.spans if s.support is not None]
        answer = [] if m.answer_relevance is None else [m.answer_relevance]
        for bins, values in (
            (self.relevance_bins, relevance),
            (self.support_bins, support),
            (self.answer_relevance_bins, answer),
        ):
            for index, count in enumerate(bin_counts(values, BINS)):
                bins[index] += count

    def mean(self, name: str) -> float | None:
        values = self.means.get(name)
        return sum(values) / len(values) if values else None


def _thresholds(seen: dict[tuple[tuple[str, float], ...], int]) -> str:
    return "; ".join(
        (", ".join(f"{k} {v:.3f}" for k, v in key) or "none") + f" ({n} traces)"
        for key, n in sorted(seen.items(), key=lambda kv: -kv[1])
    )


def _usual_threshold(seen: dict[tuple[tuple[str, float], ...], int], role: str) -> float | None:
    """The threshold of ``role`` most traces of one side were judged with."""
    for key, _ in sorted(seen.items(), key=lambda kv: -kv[1]):
        value = dict(key).get(role)
        if value is not None:
            return value
    return None


class ReportBuilder:
    """Collects replayed traces and renders the HTML report."""

    def __init__(self, *, worst: int = 10, changed: int = 50) -> None:
        self.live, self.replay = _Side(), _Side()
        self.diff = DiffTotals()
        self.worst_k, self.changed_cap = worst, changed
        self._worst: list[tuple[float, float, int, Shown]] = []
        self._changed: list[Shown] = []
        self._timeline: list[TimelineRow] = []
        self._order = itertools.count()
        self.truncated = 0

    def add(self, logged: LoggedTrace, replay: Evaluation) -> None:
        live = logged.evaluation
        self.replay.add(replay)
        self.truncated += logged.truncated
        diff = None
        if live is not None:
            self.live.add(live)
            diff = diff_trace(live, replay)
            self.diff.add(diff, len(replay.items))
            if diff.changed and len(self._changed) < self.changed_cap:
                self._changed.append(Shown(logged, replay, diff))
            if logged.logged_at is not None:
                lm, rm = live.metrics, replay.metrics
                self._timeline.append(
                    (
                        aware(logged.logged_at),
                        bool(lm.hallucination),
                        bool(rm.hallucination),
                        lm.abstained,
                        rm.abstained,
                    )
                )
        rate = replay.metrics.support_rate
        if rate is not None:
            lowest = min((s.support for s in replay.spans if s.support is not None), default=1.0)
            entry = (-rate, -lowest, next(self._order), Shown(logged, replay, diff))
            heapq.heappush(self._worst, entry)
            if len(self._worst) > self.worst_k:
                heapq.heappop(self._worst)  # the best of the kept ones

    def render(self, *, title: str, meta: dict[str, str]) -> str:
        template = Template(resources.files(__package__).joinpath("report.html").read_text())
        return template.substitute(
            title=escape(title),
            meta="".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in meta.items()),
            summary=self._summary(),
            distributions=self._distributions(),
            timeline=timeline_charts(self._timeline),
            diff=self._diff_section(),
            worst=self._worst_section(),
        )

    def _summary(self) -> str:
        body = "".join(
            f"<tr><th>{escape(name)}</th><td>{escape(a)}</td><td>{escape(b)}</td></tr>"
            for name, a, b in self._summary_rows()
        )
        return (
            f'<div class="tiles">{self._tiles()}</div><table class="summary"><thead><tr><th></th>'
            f"<th>live</th><th>replay</th></tr></thead><tbody>{body}</tbody></table>"
        )

    def _summary_rows(self) -> list[tuple[str, str, str]]:
        """(name, live, replay): the summary table's rows."""
        live, replay = self.live, self.replay
        rows = [("traces", str(live.traces), str(replay.traces))]
        rows += [
            (
                name.replace("_", " ").replace(" at k", "@k"),
                fmt(live.mean(name)),
                fmt(replay.mean(name)),
            )
            for name in MEANS
        ]
        if live.no_context or replay.no_context:
            rows.append(("traces with no context", str(live.no_context), str(replay.no_context)))
        rows += [
            (
                name,
                fmt(rate(getattr(live, attr), live.traces - live.no_verdict * checked), True),
                fmt(rate(getattr(replay, attr), replay.traces - replay.no_verdict * checked), True),
            )
            for name, attr, checked in (
                ("hallucination rate (traces with a verdict)", "hallucinated", True),
                ("abstention rate", "abstained", False),
            )
        ]
        rows += self._judge_rows()
        rows.append(("unsupported objective spans", str(live.rate.rate()), str(replay.rate.rate())))
        if live.calibration or replay.calibration:
            rows.append(
                (
                    "calibration",
                    describe_status(live.calibration) if live.calibration else "off",
                    describe_status(replay.calibration) if replay.calibration else "off",
                )
            )
        rows.append(("thresholds", _thresholds(live.thresholds), _thresholds(replay.thresholds)))
        return rows

    def _judge_rows(self) -> list[tuple[str, str, str]]:
        """The LLM judge's rows, when either side used it."""
        live, replay = self.live, self.replay
        if not (live.judged or replay.judged):
            return []
        return [
            ("spans decided by the judge", str(live.judged), str(replay.judged)),
            *(
                (f"judge calls: {use}", str(live.calls[use]), str(replay.calls[use]))
                for use in JUDGE_USES
            ),
            (
                "judge verdicts reused from the log",
                str(live.calls[FROM_LOG]),
                str(replay.calls[FROM_LOG]),
            ),
            (
                "lite-judge agreement",
                fmt(rate(live.agreed, live.judged), True),
                fmt(rate(replay.agreed, replay.judged), True),
            ),
        ]

    def _tiles(self) -> str:
        """The headline counts above the summary table."""
        flips = sum(self.diff.item_flips.values())
        cards = [
            (str(self.replay.traces), "traces replayed"),
            (f"{self.diff.traces_changed}", "traces with a changed verdict"),
            (f"{self.diff.spans_changed}", "span verdicts changed"),
            (f"{flips}", f"of {self.diff.items_compared} items changed relevant flag"),
        ]
        if self.truncated:
            cards.append((str(self.truncated), "traces logged with cut item texts"))
        return "".join(
            f'<div class="tile"><b>{escape(n)}</b><span>{escape(label)}</span></div>'
            for n, label in cards
        )

    def _distributions(self) -> str:
        def chart(name: str, role: str) -> str:
            attribute = f"{role}_bins"
            markers = [
                Marker(value, f"{side} eta {value:.2f}", color)
                for side, seen, color in (
                    ("live", self.live.thresholds, LIVE_COLOR),
                    ("replay", self.replay.thresholds, REPLAY_COLOR),
                )
                if (value := _usual_threshold(seen, role)) is not None
            ]
            return histogram(
                name,
                [
                    Series("replay", getattr(self.replay, attribute), REPLAY_COLOR),
                    Series("live", getattr(self.live, attribute), LIVE_COLOR, dashed=True),
                ],
                x_label=f"{role} score",
                markers=markers,
            )

        charts = chart("Relevance of retrieved items (RS)", "relevance") + chart(
            "Support of objective spans (CS)", "support"
        )
        if any(self.live.answer_relevance_bins) or any(self.replay.answer_relevance_bins):
            charts += chart("Answer relevance (does it address the query?)", "answer_relevance")
        return charts

    def _diff_section(self) -> str:
        if not self.diff.traces:
            return "<p>The log holds no live evaluations to compare with.</p>"
        verdicts = sorted({v for pair in self.diff.transitions for v in pair})
        head = "".join(f"<th>{escape(v)}</th>" for v in verdicts)
        rows = "".join(
            f"<tr><th>{escape(a)}</th>"
            + "".join(
                f'<td class="{"off" if a != b and self.diff.transitions[(a, b)] else ""}">'
                f"{self.diff.transitions[(a, b)] or ''}</td>"
                for b in verdicts
            )
            + "</tr>"
            for a in verdicts
        )
        matrix = (
            '<table class="matrix"><thead><tr><th>live \\ replay</th>'
            f"{head}</tr></thead><tbody>{rows}</tbody></table>"
        )
        flips = ", ".join(
            f"{flag(a)} -> {flag(b)}: {n}"
            for (a, b), n in sorted(self.diff.item_flips.items(), key=str)
        )
        items = f"<p>Items whose relevant flag changed: {escape(flips or 'none')}.</p>"
        ranked = sorted(self._changed, key=lambda c: -len(c.diff.spans) if c.diff else 0)
        listed = "".join(changed_card(shown) for shown in ranked)
        more = self.diff.traces_changed - len(self._changed)
        tail = f"<p class='note'>{more} more changed traces not listed.</p>" if more > 0 else ""
        return matrix + items + listed + tail

    def _worst_section(self) -> str:
        ranked = sorted(self._worst, key=lambda entry: (-entry[0], -entry[1], entry[2]))
        if not ranked:
            return "<p>No trace has an objective span.</p>"
        return "".join(worst_card(entry[3]) for entry in ranked)
