"""Small inline SVG charts for the replay report: no plotting library, no network.

Every chart is a 560x260 ``<svg>`` with a title, a y grid, x ticks and a legend; all text
is escaped. Values are shares in [0, 1] (drawn as percentages).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 40, 40
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float | None]
    color: str
    dashed: bool = False


def bin_counts(values: Iterable[float], bins: int, lo: float = 0.0, hi: float = 1.0) -> list[int]:
    """Counts over ``bins`` equal bins of [lo, hi]; ``hi`` falls in the last bin, values
    outside are clipped to the edge bins."""
    counts = [0] * bins
    for value in values:
        index = int((value - lo) / (hi - lo) * bins)
        counts[min(max(index, 0), bins - 1)] += 1
    return counts


def nice_ceiling(value: float) -> float:
    """A y-axis top at or above ``value`` (a share) whose quarters are round percentages."""
    for top in (0.04, 0.08, 0.12, 0.2, 0.4, 0.6, 0.8):
        if value <= top:
            return top
    return 1.0


def _y(share: float, top: float) -> float:
    return TOP + PLOT_H * (1 - share / top)


def _x(fraction: float) -> float:
    return LEFT + PLOT_W * fraction


def _frame(title: str, y_label: str, top: float, x_ticks: Sequence[tuple[float, str]]) -> list[str]:
    """Title, horizontal grid with percentage labels, x tick labels (fraction, text)."""
    parts = [
        f'<text class="chart-title" x="{LEFT}" y="18">{escape(title)}</text>',
        f'<text class="axis-label" x="12" y="{TOP + PLOT_H / 2}" '
        f'transform="rotate(-90 12 {TOP + PLOT_H / 2})" text-anchor="middle">'
        f"{escape(y_label)}</text>",
    ]
    for step in range(5):
        share = top * step / 4
        y = _y(share, top)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + PLOT_W}" y1="{y}" y2="{y}"/>')
        parts.append(
            f'<text class="tick" x="{LEFT - 4}" y="{y + 4}" text-anchor="end">'
            f"{share * 100:.0f}%</text>"
        )
    for fraction, label in x_ticks:
        x = _x(fraction)
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{TOP + PLOT_H + 16}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
    parts.append(
        f'<line class="axis" x1="{LEFT}" x2="{LEFT + PLOT_W}" '
        f'y1="{TOP + PLOT_H}" y2="{TOP + PLOT_H}"/>'
    )
    return parts


def _legend(series: Sequence[Series]) -> list[str]:
    parts, x = [], LEFT + PLOT_W
    for item in reversed(series):
        x -= 14 + 7 * len(item.name)
        dash = ' stroke-dasharray="5 3"' if item.dashed else ""
        parts.append(
            f'<line x1="{x}" x2="{x + 10}" y1="14" y2="14" stroke="{item.color}" '
            f'stroke-width="3"{dash}/><text class="legend" x="{x + 13}" y="18">'
            f"{escape(item.name)}</text>"
        )
    return parts


def _svg(title: str, parts: list[str]) -> str:
    return (
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        + "".join(parts)
        + "</svg>"
    )


@dataclass(frozen=True)
class Marker:
    """A vertical line at ``value`` in [0, 1] (a threshold), labelled at the top."""

    value: float
    label: str
    color: str


def histogram(
    title: str, series: Sequence[Series], *, x_label: str, markers: Sequence[Marker] = ()
) -> str:
    """Overlaid histograms over [0, 1]; ``values`` are bin counts, drawn as the share of
    each series' total so sides of different sizes compare. A dashed series is drawn as an
    outline only, so it stays visible over a filled one. Marker labels alternate sides of
    their line, so two close thresholds stay readable."""
    shares = [[(c or 0) / (sum(c or 0 for c in s.values) or 1) for c in s.values] for s in series]
    top = nice_ceiling(max((v for row in shares for v in row), default=0.0))
    ticks = [(f, f"{f:.1f}".rstrip("0").rstrip(".") if f else "0") for f in (0, 0.25, 0.5, 0.75, 1)]
    parts = _frame(title, "share", top, ticks)
    parts.append(
        f'<text class="axis-label" x="{LEFT + PLOT_W / 2}" y="{HEIGHT - 4}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    for item, row in zip(series, shares, strict=True):
        width = 1 / max(len(row), 1)
        points = [f"{_x(0):.1f},{_y(0, top):.1f}"]
        for index, share in enumerate(row):
            y = _y(share, top)
            points += [f"{_x(index * width):.1f},{y:.1f}", f"{_x((index + 1) * width):.1f},{y:.1f}"]
        points.append(f"{_x(1):.1f},{_y(0, top):.1f}")
        dash = ' stroke-dasharray="5 3"' if item.dashed else ""
        parts.append(
            f'<polygon class="bars" points="{" ".join(points)}" fill="{item.color}" '
            f'fill-opacity="{0 if item.dashed else 0.25}" stroke="{item.color}" '
            f'stroke-width="2"{dash}><title>{escape(item.name)}</title></polygon>'
        )
    for index, marker in enumerate(markers):
        x = _x(min(max(marker.value, 0.0), 1.0))
        anchor, shift = ("end", -4) if index % 2 == 0 else ("start", 4)
        parts.append(
            f'<line class="marker" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP - 4}" y2="{TOP + PLOT_H}" '
            f'stroke="{marker.color}" stroke-width="1.5"/><text class="tick" x="{x + shift:.1f}" '
            f'y="{TOP + 8}" text-anchor="{anchor}">{escape(marker.label)}</text>'
        )
    return _svg(title, parts + _legend(series))


def line_chart(title: str, labels: Sequence[str], series: Sequence[Series], *, y_label: str) -> str:
    """Rates per time bucket (``labels`` name the buckets); None is a bucket without data,
    drawn as a gap."""
    count = max(len(labels), 1)
    top = nice_ceiling(
        max((v for s in series for v in s.values if v is not None), default=0.0) or 0.05
    )
    every = math.ceil(count / 6)

    def x(index: int) -> float:
        return (index + 0.5) / count

    ticks = [(x(i), label) for i, label in enumerate(labels) if i % every == 0]
    parts = _frame(title, y_label, top, ticks)
    for item in series:
        dash = ' stroke-dasharray="5 3"' if item.dashed else ""
        run: list[str] = []
        for index, value in enumerate([*item.values, None]):
            if value is None:
                if run:
                    parts.append(
                        f'<polyline class="line" points="{" ".join(run)}" fill="none" '
                        f'stroke="{item.color}" stroke-width="2.5"{dash}/>'
                    )
                run = []
                continue
            px, py = _x(x(index)), _y(value, top)
            run.append(f"{px:.1f},{py:.1f}")
            parts.append(
                f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{item.color}">'
                f"<title>{escape(item.name)} {escape(labels[index])}: {value:.0%}</title></circle>"
            )
    return _svg(title, parts + _legend(series))
