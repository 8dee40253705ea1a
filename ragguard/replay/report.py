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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html import escape
from importlib import resources
from string import Template

from ragguard.judge import agreement
from ragguard.metrics import FROM_LOG, JUDGE_USES, RateTally, calls_by_use, describe_status
from ragguard.replay.diff import DiffTotals, TraceDiff, diff_trace, span_verdict
from ragguard.replay.svg import Marker, Series, bin_counts, histogram, line_chart
from ragguard.runtime import LoggedTrace
from ragguard.schema import CalibrationStatus, Evaluation, SpanEvaluation

LIVE_COLOR, REPLAY_COLOR = "#8a8f98", "#d9480f"
BINS = 20
BUCKETS = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=15),
    timedelta(hours=1),
    timedelta(hours=3),
    timedelta(hours=6),
    timedelta(days=1),
    timedelta(days=7),
)
MAX_BUCKETS = 24
MIN_TRACES = 10
"""A time point is a rate over its traces: the timeline's width is the finest that puts
about this many traces in each point, and a point with fewer than half of it is a gap."""


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


@dataclass(frozen=True)
class _Shown:
    """A trace kept for display: the worst ones, the changed ones."""

    logged: LoggedTrace
    replay: Evaluation
    diff: TraceDiff | None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def time_buckets(
    moments: Sequence[datetime], min_traces: int = 1
) -> tuple[datetime, timedelta, int]:
    """(start, width, count): the finest standard width giving at most MAX_BUCKETS, whose
    buckets with any moment hold ``min_traces`` on average (else the coarsest width)."""
    first, end = min(moments), max(moments)

    def start_of(width: timedelta) -> datetime:
        seconds = width.total_seconds()
        return datetime.fromtimestamp(first.timestamp() // seconds * seconds, UTC)

    def fits(width: timedelta) -> bool:
        if (end - first) / width >= MAX_BUCKETS:
            return False
        used = {int((moment - start_of(width)) / width) for moment in moments}
        return len(moments) >= min_traces * len(used)

    width = next((w for w in BUCKETS if fits(w)), BUCKETS[-1])
    start = start_of(width)
    return start, width, int((end - start) / width) + 1


def _duration(width: timedelta) -> str:
    minutes = int(width.total_seconds() // 60)
    for unit, size in (("day", 1440), ("hour", 60)):
        if minutes % size == 0:
            count = minutes // size
            return unit if count == 1 else f"{count} {unit}s"
    return f"{minutes} minutes" if minutes > 1 else "minute"


def _bucket_label(moment: datetime, width: timedelta, span: timedelta) -> str:
    if width >= timedelta(days=1):
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%H:%M" if span < timedelta(days=1) else "%m-%d %H:%M")


def locate(response: str, span: SpanEvaluation, cursor: int) -> tuple[int, int] | None:
    """Where a span sits in the response: its offsets (they cover citation markers the
    span's text leaves out) when they fit, else its text found from ``cursor`` (then from
    the start); None when it is not there."""
    if 0 <= span.start < span.end <= len(response):
        return span.start, span.end
    found = response.find(span.text, cursor)
    if found < 0:
        found = response.find(span.text)
    return None if found < 0 or not span.text else (found, found + len(span.text))


def highlight(
    response: str, spans: Sequence[SpanEvaluation], live: dict[str, str] | None = None
) -> str:
    """The response as escaped HTML, each span wrapped by its verdict (``unsupported``
    spans in ``<mark>``); ``live`` maps the text of spans whose verdict changed to the
    verdict logged live."""
    live = live or {}
    parts, cursor = [], 0
    located = [(where, s) for s in spans if (where := locate(response, s, 0)) is not None]
    for (start, end), span in sorted(located, key=lambda pair: pair[0]):
        if start < cursor:
            continue  # overlapping spans: keep the first
        verdict = span_verdict(span)
        tag = "mark" if verdict == "unsupported" else "span"
        note = f"{verdict}" + ("" if span.support is None else f", support {span.support:.2f}")
        note += "".join(f"; {reason}" for reason in span.reasons)
        classes = f"span-{verdict}"
        if span.text in live:
            classes += " changed"
            note = f"live: {live[span.text]} -> replay: {note}"
        parts.append(escape(response[cursor:start]))
        parts.append(
            f'<{tag} class="{classes}" title="{escape(note)}">{escape(response[start:end])}</{tag}>'
        )
        cursor = end
    parts.append(escape(response[cursor:]))
    return "".join(parts)


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


def _fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:.1%}" if percent else f"{value:.3f}"


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
        self._worst: list[tuple[float, float, int, _Shown]] = []
        self._changed: list[_Shown] = []
        self._timeline: list[tuple[datetime, bool, bool, bool, bool]] = []
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
                self._changed.append(_Shown(logged, replay, diff))
            if logged.logged_at is not None:
                lm, rm = live.metrics, replay.metrics
                self._timeline.append(
                    (
                        _aware(logged.logged_at),
                        bool(lm.hallucination),
                        bool(rm.hallucination),
                        lm.abstained,
                        rm.abstained,
                    )
                )
        rate = replay.metrics.support_rate
        if rate is not None:
            lowest = min((s.support for s in replay.spans if s.support is not None), default=1.0)
            entry = (-rate, -lowest, next(self._order), _Shown(logged, replay, diff))
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
            timeline=self._timeline_charts(),
            diff=self._diff_section(),
            worst=self._worst_section(),
        )

    def _summary(self) -> str:
        live, replay = self.live, self.replay
        rows = [("traces", str(live.traces), str(replay.traces))]
        rows += [
            (
                name.replace("_", " ").replace(" at k", "@k"),
                _fmt(live.mean(name)),
                _fmt(replay.mean(name)),
            )
            for name in MEANS
        ]
        if live.no_context or replay.no_context:
            rows.append(("traces with no context", str(live.no_context), str(replay.no_context)))
        rows += [
            (
                name,
                _fmt(_rate(getattr(live, attr), live.traces - live.no_verdict * checked), True),
                _fmt(
                    _rate(getattr(replay, attr), replay.traces - replay.no_verdict * checked), True
                ),
            )
            for name, attr, checked in (
                ("hallucination rate (traces with a verdict)", "hallucinated", True),
                ("abstention rate", "abstained", False),
            )
        ]
        if live.judged or replay.judged:
            rows += [
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
                    _fmt(_rate(live.agreed, live.judged), True),
                    _fmt(_rate(replay.agreed, replay.judged), True),
                ),
            ]
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
        body = "".join(
            f"<tr><th>{escape(name)}</th><td>{escape(a)}</td><td>{escape(b)}</td></tr>"
            for name, a, b in rows
        )
        flips = sum(self.diff.item_flips.values())
        cards = [
            (str(replay.traces), "traces replayed"),
            (f"{self.diff.traces_changed}", "traces with a changed verdict"),
            (f"{self.diff.spans_changed}", "span verdicts changed"),
            (f"{flips}", f"of {self.diff.items_compared} items changed relevant flag"),
        ]
        if self.truncated:
            cards.append((str(self.truncated), "traces logged with cut item texts"))
        tiles = "".join(
            f'<div class="tile"><b>{escape(n)}</b><span>{escape(label)}</span></div>'
            for n, label in cards
        )
        return (
            f'<div class="tiles">{tiles}</div><table class="summary"><thead><tr><th></th>'
            f"<th>live</th><th>replay</th></tr></thead><tbody>{body}</tbody></table>"
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

    def _timeline_charts(self) -> str:
        if not self._timeline:
            return "<p>No logged_at timestamps: no timeline.</p>"
        moments = [row[0] for row in self._timeline]
        start, width, count = time_buckets(moments, MIN_TRACES)
        totals = [[0] * 5 for _ in range(count)]
        for moment, *flags in self._timeline:
            bucket = totals[int((moment - start) / width)]
            bucket[0] += 1
            for index, flag in enumerate(flags, start=1):
                bucket[index] += flag
        span = max(moments) - start
        labels = [
            f"{_bucket_label(start + i * width, width, span)} (n {b[0]})"
            for i, b in enumerate(totals)
        ]
        enough = MIN_TRACES // 2

        def chart(name: str, live_col: int) -> str:
            series = [
                Series(
                    side,
                    [_rate(b[live_col + offset], b[0]) if b[0] >= enough else None for b in totals],
                    color,
                    dashed=side == "live",
                )
                for offset, (side, color) in enumerate(
                    (("live", LIVE_COLOR), ("replay", REPLAY_COLOR))
                )
            ]
            return line_chart(name, labels, series, y_label="share of traces")

        caption = (
            f"<p class='note'>One point per {_duration(width)}, by logged_at (UTC); "
            f"(n N): the traces in the point. A point of fewer than {enough} traces is left "
            "out as a gap.</p>"
        )
        return (
            chart("Hallucination rate over time", 1)
            + chart("Abstention rate over time", 3)
            + caption
        )

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
            f"{_flag(a)} -> {_flag(b)}: {n}"
            for (a, b), n in sorted(self.diff.item_flips.items(), key=str)
        )
        items = f"<p>Items whose relevant flag changed: {escape(flips or 'none')}.</p>"
        ranked = sorted(self._changed, key=lambda c: -len(c.diff.spans) if c.diff else 0)
        listed = "".join(_changed_card(shown) for shown in ranked)
        more = self.diff.traces_changed - len(self._changed)
        tail = f"<p class='note'>{more} more changed traces not listed.</p>" if more > 0 else ""
        return matrix + items + listed + tail

    def _worst_section(self) -> str:
        ranked = sorted(self._worst, key=lambda entry: (-entry[0], -entry[1], entry[2]))
        if not ranked:
            return "<p>No trace has an objective span.</p>"
        return "".join(_worst_card(entry[3]) for entry in ranked)


def _flag(value: bool | None) -> str:
    return {True: "relevant", False: "not relevant", None: "unscored"}[value]


def _changed_card(shown: _Shown) -> str:
    diff = shown.diff
    assert diff is not None
    rows = "".join(
        f"<tr><td>{escape(c.text)}</td><td>{escape(c.live)} ({_fmt(c.live_support)})</td>"
        f"<td>{escape(c.replay)} ({_fmt(c.replay_support)})</td></tr>"
        for c in diff.spans
    )
    rows += "".join(
        f"<tr><td>item {escape(c.id)}</td><td>{_flag(c.live)} ({_fmt(c.live_relevance)})</td>"
        f"<td>{_flag(c.replay)} ({_fmt(c.replay_relevance)})</td></tr>"
        for c in diff.items
    )
    return (
        f'<details class="change"><summary>{escape(diff.trace_id)}: '
        f"{len(diff.spans)} span(s), {len(diff.items)} item(s) changed</summary>"
        '<table class="changes"><thead><tr><th>span / item</th><th>live</th><th>replay</th>'
        f"</tr></thead><tbody>{rows}</tbody></table></details>"
    )


def _worst_card(shown: _Shown) -> str:
    trace, replay = shown.logged.trace, shown.replay
    changed = {c.text: c.live for c in shown.diff.spans} if shown.diff else {}
    live = shown.logged.evaluation
    live_rate = _fmt(live.metrics.support_rate) if live else "n/a"
    items = "".join(
        f"<li><code>{escape(i.id)}</code> relevance {_fmt(i.relevance)}"
        f"{'' if i.relevant else ' (not relevant)'}</li>"
        for i in replay.items
    )
    moment = shown.logged.logged_at
    when = _aware(moment).strftime("%Y-%m-%d %H:%M UTC") if moment else "n/a"
    return (
        f'<article class="trace"><h3>{escape(trace.trace_id)}</h3>'
        f'<p class="meta">support rate live {live_rate} &rarr; replay '
        f"{_fmt(replay.metrics.support_rate)} &middot; logged {escape(when)} &middot; "
        f"{escape(shown.logged.source.rsplit('/', 1)[-1])} line {shown.logged.line}</p>"
        f'<p class="query"><b>Q:</b> {escape(trace.query)}</p>'
        f'<p class="response">{highlight(trace.response, replay.spans, changed)}</p>'
        f"{_reasons(replay.spans)}"
        f'<ul class="items">{items}</ul></article>'
    )


def _reasons(spans: Sequence[SpanEvaluation]) -> str:
    """Why the unsupported spans are not supported: the typed checks that fired."""
    rows = "".join(
        f"<li><q>{escape(span.text)}</q>: {escape(str(reason))}</li>"
        for span in spans
        for reason in span.reasons
    )
    return f'<ul class="reasons">{rows}</ul>' if rows else ""
