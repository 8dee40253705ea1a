"""Does ``ragguard compare``'s 95% interval hold the true difference 95% of the time?

Simulated pairs of runs over the same traces, with a known population difference:

- ``threshold``: the same span scores judged at two support thresholds (0.576, the lite
  head's eta, then 0.65): the change ``compare`` is for, a config that flags more claims;
- ``jitter``: the same threshold, NEW's scores moved by N(0, 0.05) noise (another machine's
  int8 kernels, a retrained head): a small true difference, mostly none;
- ``null``: both sides' scores moved by independent N(0, 0.05) noise: the two runs are
  exchangeable, so the true difference is exactly 0, and "said worse" is the rate of false
  alarms of ``--fail-if-worse`` (at most 2.5% for a 95% interval).

"said worse" is the share of replicates whose interval lies wholly on the worse side
(what makes ``--fail-if-worse`` exit 3): the power in ``threshold``.

Each trace has 1 + Poisson(2) objective spans whose scores share a per-trace effect
(scores = sigmoid(1 + b + e), b and e standard normal), so the spans of one answer are
correlated, as they are in real answers. The population difference of each metric is
computed on 200,000 simulated traces; each replicate draws n traces, runs the paired
bootstrap exactly as ``compare`` does (``paired_intervals``, 2,000 draws) and records
whether the interval holds the population difference.

    python benchmarks/compare_coverage.py [--replicates 1000] [--sizes 42 200]

Runs in a few minutes on two cores; no model, no data set.
"""

from __future__ import annotations

import argparse

import numpy as np
from tqdm import tqdm

from ragguard.metrics.summary import markdown_table
from ragguard.replay.comparison import paired_intervals
from ragguard.schema import Evaluation, Metrics, SpanEvaluation

ETA = 0.576
METRICS = ("unsupported_span_rate", "hallucination_rate", "support_rate")


def simulate(rng: np.random.Generator, n: int, scenario: str) -> tuple[list[np.ndarray], ...]:
    """Span scores of n traces on each side."""
    base, new = [], []
    for _ in range(n):
        k = 1 + rng.poisson(2)
        scores = 1 / (1 + np.exp(-(1 + rng.normal() + rng.normal(size=k))))
        base.append(scores)
        new.append(scores if scenario == "threshold" else scores + rng.normal(0, 0.05, k))
        if scenario == "null":
            base[-1] = scores + rng.normal(0, 0.05, k)
    return base, new


def thresholds(scenario: str) -> tuple[float, float]:
    return (ETA, 0.65) if scenario == "threshold" else (ETA, ETA)


def population_values(scores: list[np.ndarray], eta: float) -> dict[str, float]:
    unsupported = [s < eta for s in scores]
    return {
        "unsupported_span_rate": sum(u.sum() for u in unsupported)
        / sum(u.size for u in unsupported),
        "hallucination_rate": float(np.mean([u.any() for u in unsupported])),
        "support_rate": float(np.mean([1 - u.mean() for u in unsupported])),
    }


def evaluations(scores: list[np.ndarray], eta: float) -> list[Evaluation]:
    out = []
    for i, trace in enumerate(scores):
        spans = [
            SpanEvaluation(
                text=f"s{j}",
                start=j,
                end=j + 1,
                kind="objective",
                support=float(s),
                supported=bool(s >= eta),
            )
            for j, s in enumerate(trace)
        ]
        supported = trace >= eta
        metrics = Metrics(
            hallucination=bool((~supported).any()), support_rate=float(supported.mean())
        )
        out.append(
            Evaluation(
                trace_id=f"t{i}",
                items=[],
                spans=spans,
                metrics=metrics,
                thresholds={"support": eta},
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[42, 200])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    rows = []
    for scenario in ("threshold", "jitter", "null"):
        eta_base, eta_new = thresholds(scenario)
        base, new = simulate(rng, 200_000, scenario)
        truth_base, truth_new = population_values(base, eta_base), population_values(new, eta_new)
        truth = {m: truth_new[m] - truth_base[m] for m in METRICS}
        if scenario == "null":
            truth = dict.fromkeys(METRICS, 0.0)  # exchangeable sides
        for n in args.sizes:
            held, worse = dict.fromkeys(METRICS, 0), dict.fromkeys(METRICS, 0)
            widths: dict[str, list[float]] = {m: [] for m in METRICS}
            for replicate in tqdm(range(args.replicates), desc=f"{scenario} n={n}", leave=False):
                left, right = simulate(rng, n, scenario)
                intervals = paired_intervals(
                    evaluations(left, eta_base), evaluations(right, eta_new), seed=replicate
                )
                for metric in METRICS:
                    low, high = intervals[metric]  # type: ignore[misc]
                    held[metric] += low <= truth[metric] <= high
                    worse[metric] += high < 0 if metric == "support_rate" else low > 0
                    widths[metric].append(high - low)
            for metric in METRICS:
                coverage = held[metric] / args.replicates
                rows.append(
                    {
                        "scenario": scenario,
                        "traces": n,
                        "metric": metric,
                        "true difference": truth[metric],
                        "coverage": coverage,
                        "Monte Carlo s.e.": (coverage * (1 - coverage) / args.replicates) ** 0.5,
                        "mean width": float(np.mean(widths[metric])),
                        "said worse": worse[metric] / args.replicates,
                    }
                )
    columns = [
        "scenario",
        "traces",
        "metric",
        "true difference",
        "coverage",
        "Monte Carlo s.e.",
        "mean width",
        "said worse",
    ]
    print(
        f"{args.replicates} replicates per row; 95% paired bootstrap "
        "(expanded percentile), 2,000 draws"
    )
    print(markdown_table(rows, columns))


if __name__ == "__main__":
    main()
