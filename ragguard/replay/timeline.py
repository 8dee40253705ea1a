"""The replay report's timeline: live and replayed rates over time, one point per bucket of
``logged_at`` whose width is the finest that gives each point enough traces."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from ragguard.replay.svg import Series, line_chart

LIVE_COLOR, REPLAY_COLOR = "#8a8f98", "#d9480f"
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

TimelineRow = tuple[datetime, bool, bool, bool, bool]
"""One logged trace: (logged at, live hallucinated, replay hallucinated, live abstained,
replay abstained)."""


def rate(count: int, total: int) -> float | None:
    return count / total if total else None


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


def timeline_charts(timeline: Sequence[TimelineRow]) -> str:
    """The hallucination and abstention rates over time, live against replay."""
    if not timeline:
        return "<p>No logged_at timestamps: no timeline.</p>"
    moments = [row[0] for row in timeline]
    start, width, count = time_buckets(moments, MIN_TRACES)
    totals = [[0] * 5 for _ in range(count)]
    for moment, *flags in timeline:
        bucket = totals[int((moment - start) / width)]
        bucket[0] += 1
        for index, flag in enumerate(flags, start=1):
            bucket[index] += flag
    span = max(moments) - start
    labels = [
        f"{_bucket_label(start + i * width, width, span)} (n {b[0]})" for i, b in enumerate(totals)
    ]
    enough = MIN_TRACES // 2

    def chart(name: str, live_col: int) -> str:
        series = [
            Series(
                side,
                [rate(b[live_col + offset], b[0]) if b[0] >= enough else None for b in totals],
                color,
                dashed=side == "live",
            )
            for offset, (side, color) in enumerate((("live", LIVE_COLOR), ("replay", REPLAY_COLOR)))
        ]
        return line_chart(name, labels, series, y_label="share of traces")

    caption = (
        f"<p class='note'>One point per {_duration(width)}, by logged_at (UTC); "
        f"(n N): the traces in the point. A point of fewer than {enough} traces is left "
        "out as a gap.</p>"
    )
    return (
        chart("Hallucination rate over time", 1) + chart("Abstention rate over time", 3) + caption
    )
