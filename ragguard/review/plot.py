"""The reliability plot: support score against the share of spans people label supported,
with the threshold marked. A small inline SVG, no plotting library; its only texts are
numbers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WIDTH, HEIGHT = 480, 300
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 32, 40
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM


def _x(score: float) -> float:
    return LEFT + PLOT_W * score


def _y(share: float) -> float:
    return TOP + PLOT_H * (1 - share)


def reliability_svg(rows: Sequence[dict[str, Any]], threshold: float | None) -> str:
    """The plot of ``summary.reliability`` rows: a point per score bin with labels (its
    area grows with the bin's count), the threshold as a vertical line."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f'<text x="{LEFT}" y="18" font-size="13">share labelled supported, by support score</text>',
    ]
    for step in range(5):
        share = step / 4
        y = _y(share)
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + PLOT_W}" y1="{y}" y2="{y}" stroke="#ddd"/>'
            f'<text x="{LEFT - 4}" y="{y + 4}" text-anchor="end">{share * 100:.0f}%</text>'
        )
    for step in range(6):
        score = step / 5
        parts.append(
            f'<text x="{_x(score):.1f}" y="{TOP + PLOT_H + 16}" text-anchor="middle">'
            f"{score:.1f}</text>"
        )
    parts.append(
        f'<text x="{LEFT + PLOT_W / 2}" y="{HEIGHT - 4}" text-anchor="middle">support score</text>'
    )
    parts.append(
        f'<line x1="{_x(0)}" y1="{_y(0)}" x2="{_x(1)}" y2="{_y(1)}" stroke="#bbb" '
        'stroke-dasharray="4 3"/>'
    )
    if threshold is not None:
        x = _x(min(max(threshold, 0.0), 1.0))
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + PLOT_H}" stroke="#c0392b" '
            f'stroke-width="2"/><text x="{x + 4:.1f}" y="{TOP + 12}" fill="#c0392b">'
            f"threshold {threshold:.3f}</text>"
        )
    most = max((int(row["n"]) for row in rows), default=0) or 1
    for row in rows:
        if not row["n"] or row["share"] is None:
            continue
        x, y = _x((row["low"] + row["high"]) / 2), _y(float(row["share"]))
        radius = 3 + 6 * (int(row["n"]) / most) ** 0.5
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#2c7fb8" '
            f'fill-opacity="0.8"/><text x="{x:.1f}" y="{y - radius - 3:.1f}" '
            f'text-anchor="middle">n {int(row["n"])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
