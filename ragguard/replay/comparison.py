"""Two runs of the same traces side by side (``ragguard compare BASE NEW``): per metric both
values, the paired difference and its 95% interval; span verdicts paired; the traces whose
verdict changed, worst first. No model is loaded: it reads two results files.

The interval is a paired percentile bootstrap over traces (Efron and Tibshirani, "An
Introduction to the Bootstrap", 1993, ch. 13): traces are drawn with replacement, the same
draw on both sides, and each metric is recomputed on each side as the run summary computes
it (a mean over the traces that have it; the unsupported span rate as a ratio of span
counts, with its judge-sample correction). Traces, not spans, are resampled because the
spans of one answer are not independent. The percentile interval is too narrow on few
traces, so its tails are those of Hesterberg's expanded percentile interval ("What teachers
should know about the bootstrap", The American Statistician, 2015): the t quantile with
n - 1 degrees of freedom, widened by sqrt(n / (n - 1)). ``benchmarks/compare_coverage.py``
checks the coverage by simulation.

Memory: each side holds its evaluations compressed (``StoredEvaluations``, about 1 KB a
trace instead of the ~50 KB of its objects) and the comparison reads each pair once, so
100,000 traces per side stay well under 1 GB.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ragguard.metrics import (
    MEANS,
    RATE_KEY,
    WORSE_WHEN,
    RateTally,
    RunSummary,
    failure_summary,
    trace_values,
)
from ragguard.replay.diff import ABSENT, DiffTotals, diff_trace
from ragguard.schema import Evaluation

RESAMPLES = 2000
LEVEL = 0.95
COMPARED = (*MEANS, RATE_KEY)
"""The metrics compared: every per-trace mean of the summary and the unsupported span rate."""


@dataclass(frozen=True)
class MetricChange:
    metric: str
    base: float | None
    new: float | None
    low: float | None
    high: float | None
    """The 95% interval of new - base (None: not computed on a side)."""

    @property
    def difference(self) -> float | None:
        return None if self.base is None or self.new is None else self.new - self.base

    @property
    def verdict(self) -> str:
        """worse / better beyond the interval, or no clear change (the interval holds 0)."""
        if self.low is None or self.high is None:
            return "n/a"
        way = WORSE_WHEN.get(self.metric)
        if self.low == self.high == self.difference == 0:
            return "no change"
        if self.low <= 0 <= self.high:
            return "no clear change"
        higher = self.low > 0
        if way is None:
            return "higher" if higher else "lower"
        return "worse" if higher == (way == "higher") else "better"


@dataclass(frozen=True)
class TraceChange:
    trace_id: str
    base: str
    new: str
    spans_changed: int
    worsening: int
    """Unsupported claims gained (and 1 for an answer that went off the question), less those
    lost: the order of the list, worst first."""


@dataclass
class Comparison:
    base_name: str
    new_name: str
    paired: int
    only_base: list[str]
    only_new: list[str]
    metrics: list[MetricChange]
    spans: DiffTotals
    traces: list[TraceChange]
    resamples: int
    repeated: Counter[str] = field(default_factory=Counter)
    """Per side: earlier records of a trace id the file holds again later (the last counts)."""

    def metric(self, name: str) -> MetricChange:
        return next(m for m in self.metrics if m.metric == name)

    @property
    def unmatched(self) -> tuple[int, int]:
        """Spans of BASE with no span of NEW at the same place, and the other way round."""
        moves = self.spans.transitions
        return (
            sum(n for (a, b), n in moves.items() if b == ABSENT),
            sum(n for (a, b), n in moves.items() if a == ABSENT),
        )


def trace_verdict(evaluation: Evaluation) -> str:
    """A trace's outcome in a few words, the one the JUnit report gives it."""
    return failure_summary(evaluation) or "passes"


def _worsening(base: Evaluation, new: Evaluation) -> int:
    def bad(e: Evaluation) -> int:
        unsupported = sum(s.kind == "objective" and s.supported is False for s in e.spans)
        return unsupported + (e.metrics.answer_relevant is False)

    return bad(new) - bad(base)


class StoredEvaluations(Mapping[str, Evaluation]):
    """Evaluations by trace id, each held as its compressed JSON and rebuilt when read; a
    trace id stored again replaces the earlier record and moves to the end."""

    def __init__(self) -> None:
        self._stored: dict[str, bytes] = {}

    def put(self, evaluation: Evaluation) -> None:
        self._stored.pop(evaluation.trace_id, None)
        self._stored[evaluation.trace_id] = zlib.compress(evaluation.model_dump_json().encode(), 1)

    def __getitem__(self, trace_id: str) -> Evaluation:
        return Evaluation.model_validate_json(zlib.decompress(self._stored[trace_id]))

    def __contains__(self, trace_id: object) -> bool:
        return trace_id in self._stored

    def __iter__(self) -> Iterator[str]:
        return iter(self._stored)

    def __len__(self) -> int:
        return len(self._stored)


class _Components:
    """Per-trace sums of one side, from which any resample's metric is recomputed."""

    def __init__(self, n: int) -> None:
        self.values = {key: np.zeros(n) for key in MEANS}
        self.defined = {key: np.zeros(n) for key in MEANS}
        self.rate = np.zeros((4, n))  # spans, unsupported, judge gap sum, judge-sampled spans

    @classmethod
    def of(cls, evaluations: list[Evaluation]) -> _Components:
        components = cls(len(evaluations))
        for i, evaluation in enumerate(evaluations):
            components.set(i, evaluation)
        return components

    def set(self, i: int, evaluation: Evaluation) -> None:
        """Trace ``i``'s values."""
        for key, value in trace_values(evaluation.metrics).items():
            if value is not None:
                self.values[key][i], self.defined[key][i] = value, 1.0
        tally = RateTally()
        tally.add(evaluation.spans, evaluation.thresholds.eta_support)
        gap = sum(g * c for g, c in tally.gaps.items())
        self.rate[:, i] = (tally.n, tally.n_unsupported, gap, sum(tally.gaps.values()))

    def resampled(self, metric: str, draws: np.ndarray) -> np.ndarray:
        """The metric on each row of ``draws`` (trace indices); NaN where undefined."""
        with np.errstate(invalid="ignore", divide="ignore"):
            if metric != RATE_KEY:
                total = self.values[metric][draws].sum(axis=1)
                return total / self.defined[metric][draws].sum(axis=1)
            spans, unsupported, gap, sampled = self.rate[:, draws].sum(axis=2)
            rate = unsupported / spans
            corrected = np.where(sampled >= 2, rate + gap / np.maximum(sampled, 1), rate)
            value = np.clip(corrected, 0.0, 1.0)  # as RateTally: corrected by 2 or more
            return np.where(spans > 0, value, np.nan)


def _t_quantile(p: float, dof: int) -> float:
    """Student's t quantile by its Cornish-Fisher expansion in 1/dof (Abramowitz and Stegun
    26.7.5; within 0.001 of the exact value at the 97.5% point for dof >= 5)."""
    z = NormalDist().inv_cdf(p)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / dof ** (k + 1) for k, term in enumerate(terms))


def expanded_tail(n: int, level: float = LEVEL) -> float:
    """The share of bootstrap draws left out on each side for a ``level`` interval on ``n``
    traces: (1 - level) / 2 for many traces, less for few."""
    if n < 3:
        return (1 - level) / 2
    widened = math.sqrt(n / (n - 1)) * _t_quantile(1 - (1 - level) / 2, n - 1)
    return NormalDist().cdf(-widened)


def paired_intervals(
    base: list[Evaluation], new: list[Evaluation], resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, tuple[float, float] | None]:
    """The 95% percentile interval of new - base for each metric, over ``resamples`` paired
    draws of the traces (None: the metric is undefined on a side)."""
    return _intervals((_Components.of(base), _Components.of(new)), len(base), resamples, seed)


def _intervals(
    sides: tuple[_Components, _Components], n: int, resamples: int, seed: int
) -> dict[str, tuple[float, float] | None]:
    if not n:
        return dict.fromkeys(COMPARED)
    rng = np.random.default_rng(seed)
    chunk = max(1, min(resamples, 1_000_000 // n))  # bounded memory: ~32 MB a chunk
    differences: dict[str, list[np.ndarray]] = {key: [] for key in COMPARED}
    done = 0
    while done < resamples:
        draws = rng.integers(0, n, size=(min(chunk, resamples - done), n))
        for key in COMPARED:
            differences[key].append(sides[1].resampled(key, draws) - sides[0].resampled(key, draws))
        done += len(draws)
    tail = expanded_tail(n) * 100
    intervals: dict[str, tuple[float, float] | None] = {}
    for key, parts in differences.items():
        values = np.concatenate(parts)
        values = values[~np.isnan(values)]
        if values.size < resamples / 2:  # undefined in most draws: no interval
            intervals[key] = None
            continue
        low, high = np.percentile(values, [tail, 100 - tail])
        intervals[key] = (float(low), float(high))
    return intervals


def compare(
    base: Mapping[str, Evaluation],
    new: Mapping[str, Evaluation],
    *,
    names: tuple[str, str] = ("BASE", "NEW"),
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Comparison:
    """BASE and NEW (evaluations by trace id) on the traces both hold, each pair read once."""
    paired = [trace_id for trace_id in base if trace_id in new]
    sides = _Components(len(paired)), _Components(len(paired))
    summaries = RunSummary(), RunSummary()
    spans = DiffTotals()
    traces = []
    for i, trace_id in enumerate(paired):
        before, after = base[trace_id], new[trace_id]
        for side, summary, evaluation in zip(sides, summaries, (before, after), strict=True):
            side.set(i, evaluation)
            summary.add(evaluation)
        diff = diff_trace(before, after)
        spans.add(diff, len(after.items))
        verdicts = trace_verdict(before), trace_verdict(after)
        if diff.spans or verdicts[0] != verdicts[1]:
            traces.append(
                TraceChange(before.trace_id, *verdicts, len(diff.spans), _worsening(before, after))
            )
    traces.sort(key=lambda change: (-change.worsening, -change.spans_changed, change.trace_id))
    values = summaries[0].values(), summaries[1].values()
    intervals = _intervals(sides, len(paired), resamples, seed)
    metrics = []
    for key in COMPARED:
        interval = intervals[key]
        if values[0][key] is None or values[1][key] is None:
            interval = None
        low, high = interval if interval is not None else (None, None)
        metrics.append(MetricChange(key, values[0][key], values[1][key], low, high))
    return Comparison(
        names[0],
        names[1],
        len(paired),
        [t for t in base if t not in new],
        [t for t in new if t not in base],
        metrics,
        spans,
        traces,
        resamples,
    )
