"""What the labels say: how often ragguard's flags are right, on this deployment's traffic.

Only labels of the ``random`` design estimate anything (a uniform sample of objective
spans); ``flagged`` labels are counted and may enter a threshold fit, nothing else. A span
labelled by several reviewers counts once, with their majority label; a tie leaves it out,
and every span on which reviewers disagree is listed.

- precision of the flags: the share of flagged spans that people call unsupported;
- recall: the share of spans people call unsupported that ragguard flagged;
- balanced accuracy: the mean of that recall and the same for supported spans;
- the corrected unsupported-span rate: prediction-powered inference with people as the
  labellers (``metrics.rate.RateTally``: every span's flag in the source, corrected by the
  sample's mean gap between label and flag).

Proportions get Wilson intervals, balanced accuracy a normal interval on its two parts.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ragguard.metrics import Z_95, RateTally, wilson_interval
from ragguard.review.store import Label

BINS = 10


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None
    n: int

    def text(self) -> str:
        if self.value is None or self.low is None or self.high is None:
            return f"n/a (n {self.n})"
        return f"{self.value:.3f} (95% CI {self.low:.3f}-{self.high:.3f}; n {self.n})"

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def proportion(hits: int, n: int) -> Estimate:
    if not n:
        return Estimate(None, None, None, 0)
    low, high = wilson_interval(hits / n, n)
    return Estimate(hits / n, low, high, n)


def balanced(recall: Estimate, specificity: Estimate) -> Estimate:
    parts = (recall, specificity)
    if any(p.value is None for p in parts):
        return Estimate(None, None, None, recall.n + specificity.n)
    r, s = float(recall.value or 0.0), float(specificity.value or 0.0)
    half = Z_95 * math.sqrt(r * (1 - r) / recall.n + s * (1 - s) / specificity.n) / 2
    value = (r + s) / 2
    return Estimate(value, max(value - half, 0.0), min(value + half, 1.0), recall.n + specificity.n)


@dataclass(frozen=True)
class Judged:
    """One randomly drawn span with people's label: flagged by ragguard, its support
    score, and whether people call it supported."""

    hash: str
    flagged: bool
    support: float
    supported: bool


def _spans(labels: Iterable[Label]) -> tuple[list[Judged], list[str]]:
    """Random-design spans with their majority label; the hashes people disagree on."""
    votes: dict[str, Counter[bool]] = {}
    first: dict[str, Label] = {}
    for label in labels:
        if label.choice in ("supported", "unsupported"):
            votes.setdefault(label.hash, Counter())[label.choice == "supported"] += 1
            first.setdefault(label.hash, label)
    judged, disputed = [], []
    for key, count in votes.items():
        if len(count) > 1:
            disputed.append(key)
        if count[True] == count[False]:
            continue
        details = first[key].details
        if first[key].design == "random" and isinstance(details.get("support"), int | float):
            flagged = details.get("supported") is False
            judged.append(
                Judged(key, flagged, float(details["support"]), count[True] > count[False])
            )
    return judged, disputed


def summarize(labels: Sequence[Label], *, labels_path: str = "LABELS") -> dict[str, Any]:
    """The page's and ``--summary``'s figures, as JSON-ready data."""
    judged, disputed = _spans(labels)
    flagged = [j for j in judged if j.flagged]
    unsupported = [j for j in judged if not j.supported]
    supported = [j for j in judged if j.supported]
    recall = proportion(sum(j.flagged for j in unsupported), len(unsupported))
    specificity = proportion(sum(not j.flagged for j in supported), len(supported))
    designs = Counter(label.design for label in labels if label.choice != "undone")
    return {
        "labels": sum(designs.values()),
        "designs": dict(designs),
        "reviewers": sorted({label.reviewer for label in labels}),
        "not_a_claim": sum(label.choice == "not_a_claim" for label in labels),
        "random_spans": len(judged),
        "disagreements": disputed,
        "precision": proportion(sum(not j.supported for j in flagged), len(flagged)).as_dict(),
        "recall": recall.as_dict(),
        "balanced_accuracy": balanced(recall, specificity).as_dict(),
        "rate": _rate(labels, judged),
        "threshold": _threshold(labels),
        "reliability": reliability(judged),
        "refit": f"ragguard calibrate {labels_path} -o calibrated.toml",
    }


def _rate(labels: Sequence[Label], judged: Sequence[Judged]) -> dict[str, Any]:
    """The corrected rate over the source the random labels were drawn from (the latest
    draw's counts: every objective span and how many ragguard flagged)."""
    samples = [label.details.get("sample") for label in labels if label.design == "random"]
    counts = [s for s in samples if isinstance(s, dict) and isinstance(s.get("spans"), int)]
    if not counts or not judged:
        return {"value": None, "low": None, "high": None, "n": 0, "n_sample": 0, "lite": None}
    population = counts[-1]
    tally = RateTally(int(population["spans"]), int(population.get("flagged", 0)))
    tally.gaps.update(int(not j.supported) - int(j.flagged) for j in judged)
    rate = tally.rate()
    lite = tally.n_unsupported / tally.n if tally.n else None
    return {
        "value": rate.value,
        "low": rate.low,
        "high": rate.high,
        "n": rate.n,
        "n_sample": rate.n_sample,
        "lite": lite,
    }


def _threshold(labels: Sequence[Label]) -> float | None:
    values = [label.details.get("threshold") for label in labels]
    numbers = [float(v) for v in values if isinstance(v, int | float)]
    return Counter(numbers).most_common(1)[0][0] if numbers else None


def reliability(judged: Sequence[Judged]) -> list[dict[str, Any]]:
    """Per tenth of the support score: spans, and the share people call supported."""
    rows = []
    for index in range(BINS):
        low, high = index / BINS, (index + 1) / BINS
        inside = [
            j for j in judged if low <= j.support < high or (index == BINS - 1 and j.support == 1.0)
        ]
        share = sum(j.supported for j in inside) / len(inside) if inside else None
        rows.append({"low": low, "high": high, "n": len(inside), "share": share})
    return rows


def render_text(summary: dict[str, Any]) -> str:
    """``ragguard review --summary``'s lines."""
    designs = ", ".join(f"{count} {name}" for name, count in sorted(summary["designs"].items()))
    rate = summary["rate"]
    rate_line = (
        "n/a (no random labels)"
        if rate["value"] is None
        else f"{rate['value']:.3f} (95% CI {rate['low']:.3f}-{rate['high']:.3f}; lite "
        f"{rate['lite']:.3f} over {rate['n']} spans, corrected by {rate['n_sample']} "
        "human-labelled spans)"
    )
    lines = [
        f"labels: {summary['labels']} ({designs or 'none'}); reviewers: "
        f"{', '.join(summary['reviewers']) or 'none'}; "
        f"not a factual claim: {summary['not_a_claim']}",
        f"random spans with a label: {summary['random_spans']}; spans reviewers disagree "
        f"on: {len(summary['disagreements'])}",
        f"precision of the flags: {Estimate(**summary['precision']).text()}",
        f"recall of unsupported claims: {Estimate(**summary['recall']).text()}",
        f"balanced accuracy: {Estimate(**summary['balanced_accuracy']).text()}",
        f"corrected unsupported-span rate: {rate_line}",
        "reliability (support score: share labelled supported, n):",
    ]
    for row in summary["reliability"]:
        if row["n"]:
            lines.append(f"  {row['low']:.1f}-{row['high']:.1f}: {row['share']:.2f} (n {row['n']})")
    threshold = summary["threshold"]
    lines.append(f"threshold: {'n/a' if threshold is None else f'{threshold:.3f}'}")
    lines.append(f"refit: {summary['refit']}")
    return "\n".join(lines)
