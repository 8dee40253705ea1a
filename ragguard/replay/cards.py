"""The replay report's trace cards: a changed trace's verdict table, and a worst trace's
response with its spans highlighted by verdict. All user text is escaped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from ragguard.replay.diff import TraceDiff, span_verdict
from ragguard.runtime import LoggedTrace
from ragguard.schema import Evaluation, SpanEvaluation


@dataclass(frozen=True)
class Shown:
    """A trace kept for display: the worst ones, the changed ones."""

    logged: LoggedTrace
    replay: Evaluation
    diff: TraceDiff | None


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:.1%}" if percent else f"{value:.3f}"


def flag(value: bool | None) -> str:
    return {True: "relevant", False: "not relevant", None: "unscored"}[value]


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


def changed_card(shown: Shown) -> str:
    diff = shown.diff
    assert diff is not None
    rows = "".join(
        f"<tr><td>{escape(c.text)}</td><td>{escape(c.live)} ({fmt(c.live_support)})</td>"
        f"<td>{escape(c.replay)} ({fmt(c.replay_support)})</td></tr>"
        for c in diff.spans
    )
    rows += "".join(
        f"<tr><td>item {escape(c.id)}</td><td>{flag(c.live)} ({fmt(c.live_relevance)})</td>"
        f"<td>{flag(c.replay)} ({fmt(c.replay_relevance)})</td></tr>"
        for c in diff.items
    )
    return (
        f'<details class="change"><summary>{escape(diff.trace_id)}: '
        f"{len(diff.spans)} span(s), {len(diff.items)} item(s) changed</summary>"
        '<table class="changes"><thead><tr><th>span / item</th><th>live</th><th>replay</th>'
        f"</tr></thead><tbody>{rows}</tbody></table></details>"
    )


def worst_card(shown: Shown) -> str:
    trace, replay = shown.logged.trace, shown.replay
    changed = {c.text: c.live for c in shown.diff.spans} if shown.diff else {}
    live = shown.logged.evaluation
    live_rate = fmt(live.metrics.support_rate) if live else "n/a"
    items = "".join(
        f"<li><code>{escape(i.id)}</code> relevance {fmt(i.relevance)}"
        f"{'' if i.relevant else ' (not relevant)'}</li>"
        for i in replay.items
    )
    moment = shown.logged.logged_at
    when = aware(moment).strftime("%Y-%m-%d %H:%M UTC") if moment else "n/a"
    return (
        f'<article class="trace"><h3>{escape(trace.trace_id)}</h3>'
        f'<p class="meta">support rate live {live_rate} &rarr; replay '
        f"{fmt(replay.metrics.support_rate)} &middot; logged {escape(when)} &middot; "
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
