"""What calibration gives a user: the split protocol on labelled sets, the learning curve,
and the judge-calibrated cascade against a stand-in judge that is right 80% of the time.

    python benchmarks/calibration.py --data DIR [--seeds 10] [--labels 100]
    python benchmarks/calibration.py --data DIR --choose     # training sets: choose defaults

Every pair is a one-span trace (``response_spans = [claim]``) evaluated by the default
config, so span categorisation counts as it does for a user: a span that is not scored
(subjective, nothing to check it against) counts as kept (supported) in balanced accuracy.

``--choose`` runs on the training sets only (each set as a deployment) and prints the
tables the shipped defaults were chosen from: the threshold prior's spread, and the judge
calibration's sample rate and band share. Without it, the script reports the dev sets
(WiCE dev, Factcheck-GPT), which never choose anything:
- default: the head's eta; hindsight: the best single threshold, chosen on the set itself
  (out of reach for a user: the ceiling for any threshold);
- calibrated: ``ragguard calibrate`` fitted on N labelled spans of the set, scored on the
  rest (mean and spread over seeds); the learning curve over N;
- cascades with a stand-in judge (the gold label flipped with probability 0.2 by a seeded
  hash, independently per span): today's fixed band, and ``source = "judge"`` (a hash-drawn
  sample sent to the judge, threshold and band refitted on its verdicts), with the share of
  spans sent, the judge calls per 1,000 one-claim answers.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets
from tqdm.auto import tqdm

from ragguard import Config, Guard
from ragguard.calibration import fit as calibration_fit
from ragguard.calibration.fit import calibrate
from ragguard.calibration.state import JUDGE_MIN_GAIN, in_calibration_sample
from ragguard.config import CalibrationConfig
from ragguard.metrics.agreement import balanced_accuracy
from ragguard.metrics.summary import markdown_table as table
from ragguard.train.datasets import SUPPORT_SOURCES

FLIP = 0.2
"""The stand-in judge is wrong on this share of spans."""


@dataclass
class Scored:
    """A labelled set as the default config scores it."""

    name: str
    scores: np.ndarray
    """Lite support score; NaN where the span was not scored (kept)."""
    labels: np.ndarray
    default: float
    band: tuple[float, float] = Config().judge.band
    """The judge band configured for this deployment."""

    @property
    def scored(self) -> np.ndarray:
        return ~np.isnan(self.scores)


def score(name: str, pairs: Sequence[tuple[str, str, bool]], guard: Guard) -> Scored:
    traces = [
        {
            "trace_id": f"{name}-{i}",
            "query": claim,
            "items": [{"id": "e", "text": evidence}],
            "response": claim,
            "response_spans": [claim],
        }
        for i, (claim, evidence, _) in enumerate(pairs)
    ]
    scores = []
    outcomes = guard.evaluate_stream(traces, batch_size=64)
    for outcome in tqdm(outcomes, total=len(traces), desc=name, unit="pair", disable=None):
        span = outcome.spans[0] if hasattr(outcome, "spans") and outcome.spans else None
        ok = span is not None and span.kind == "objective" and span.support is not None
        scores.append(span.support if ok else np.nan)
    default = guard.models.support_scorer.threshold
    return Scored(name, np.array(scores, float), np.array([p[2] for p in pairs]), default)


def _ba(predicted: np.ndarray, labels: np.ndarray) -> float:
    return float(balanced_accuracy(predicted, labels))


def verdicts(data: Scored, eta: float) -> np.ndarray:
    """Supported where scored and at or above eta; kept (supported) where not scored."""
    return np.where(data.scored, np.nan_to_num(data.scores, nan=1.0) >= eta, True)


def hindsight(data: Scored) -> float:
    grid = np.unique(np.round(data.scores[data.scored], 3))
    return max(_ba(verdicts(data, t), data.labels) for t in grid)


def split_protocol(data: Scored, n: int, seed: int) -> float:
    """Calibrate on ``n`` labelled spans drawn at random, score the rest."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(data.labels.size)
    train, rest = order[:n], order[n:]
    on = train[data.scored[train]]
    kept = data.labels[train[~data.scored[train]]]
    fit = calibrate(data.scores[on], data.labels[on], data.default, kept=kept, seed=seed)
    return _ba(verdicts(data, fit.threshold)[rest], data.labels[rest])


def judge_says(data: Scored, seed: int) -> np.ndarray:
    """The stand-in judge's verdict per span: gold, flipped by a seeded hash."""
    flips = np.array(
        [
            int.from_bytes(hashlib.sha256(f"{seed}\0{data.name}\0{i}".encode()).digest()[:8], "big")
            / 2**64
            < FLIP
            for i in range(data.labels.size)
        ]
    )
    return data.labels ^ flips


def fixed_band_cascade(data: Scored, judge: np.ndarray) -> tuple[float, float]:
    """Today's cascade: the configured band goes to the judge, the lite verdict elsewhere."""
    lo, hi = data.band
    band = data.scored & (np.nan_to_num(data.scores) >= lo) & (np.nan_to_num(data.scores) <= hi)
    final = np.where(band, judge, verdicts(data, data.default))
    return _ba(final, data.labels), float(band.mean())


def judge_calibrated_cascade(
    data: Scored,
    judge: np.ndarray,
    sample_rate: float,
    band_share: float,
    seed: int,
    min_gain: float = JUDGE_MIN_GAIN,
) -> tuple[float, float]:
    """``source = "judge"``: the sample drawn by (trace id, span index) goes to the judge,
    eta and band are fitted on its verdicts, then the band goes to the judge too."""
    drawn = np.array(
        [
            in_calibration_sample(f"{data.name}-{seed}-{i}", 0, sample_rate)
            for i in range(data.labels.size)
        ]
    )
    sample = drawn & data.scored
    fit = calibrate(
        data.scores[sample],
        judge[sample],
        data.default,
        band_share=band_share,
        bootstrap_rounds=0,
        min_gain=min_gain,
        default_band=data.band,
        must_show_better=False,
    )
    eta = fit.threshold
    lo, hi = fit.band
    scores = np.nan_to_num(data.scores)
    band = data.scored & (scores >= lo) & (scores <= hi)
    sent = sample | band
    final = np.where(sent, judge, verdicts(data, eta))
    return _ba(final, data.labels), float(sent.mean())


CURVE = (25, 50, 100, 200, 400)
COLORS = ("#1f77b4", "#d62728")


def plot_curve(curve: list[dict], rows: list[dict], path: Path) -> None:
    """The learning curve as an SVG: calibrated BA by labels given, with each set's default
    (dashed) for comparison."""
    from ragguard.replay.svg import Series, line_chart

    labels = [f"{n} labels" for n in CURVE]
    series = []
    for point, row, color in zip(curve, rows, COLORS, strict=False):
        values = [point[f"N={n}"] for n in CURVE]
        series.append(Series(f"{point['set']}: calibrated", values, color))
        series.append(
            Series(f"{point['set']}: default", [row["default BA"]] * len(CURVE), color, True)
        )
    chart = line_chart(
        "Balanced accuracy after calibrating on N labels",
        labels,
        series,
        y_label="balanced accuracy",
    )
    path.write_text(chart, encoding="utf-8")


def report(sets: list[Scored], seeds: int, n_labels: int, plot: Path | None = None) -> None:
    rows, curve, cascades = [], [], []
    for data in sets:
        judge = [judge_says(data, s) for s in range(seeds)]
        calibrated = [split_protocol(data, n_labels, s) for s in range(seeds)]
        fixed = [fixed_band_cascade(data, j) for j in judge]
        defaults = CalibrationConfig()
        judged = [
            judge_calibrated_cascade(data, j, defaults.sample_rate, defaults.band_share, s)
            for s, j in enumerate(judge)
        ]
        rows.append(
            {
                "set": data.name,
                "spans": data.labels.size,
                "not scored (kept)": int((~data.scored).sum()),
                "default BA": _ba(verdicts(data, data.default), data.labels),
                "hindsight BA": hindsight(data),
                f"calibrated@{n_labels} BA": float(np.mean(calibrated)),
                "sd": float(np.std(calibrated)),
            }
        )
        cascades.append(
            {
                "set": data.name,
                "judge alone BA": float(np.mean([_ba(j, data.labels) for j in judge])),
                "fixed band BA": float(np.mean([f[0] for f in fixed])),
                "fixed band sent": float(np.mean([f[1] for f in fixed])),
                "judge-calibrated BA": float(np.mean([j[0] for j in judged])),
                "judge-calibrated sent": float(np.mean([j[1] for j in judged])),
                "calls per 1,000 answers": round(1000 * float(np.mean([j[1] for j in judged]))),
            }
        )
        point = {"set": data.name}
        for n in CURVE:
            point[f"N={n}"] = float(np.mean([split_protocol(data, n, s) for s in range(seeds)]))
        curve.append(point)
    print(f"\n## Split protocol ({seeds} seeds)\n")
    print(table(rows, list(rows[0])))
    print("\n## Learning curve: balanced accuracy on the rest after N labels\n")
    print(table(curve, list(curve[0])))
    defaults = CalibrationConfig()
    print(
        "\n## Cascades with a stand-in judge right 80% of the time "
        f"(sample {defaults.sample_rate:.0%}, band {defaults.band_share:.0%})\n"
    )
    print(table(cascades, list(cascades[0])))
    if plot is not None:
        plot_curve(curve, rows, plot)
        print(f"\nwrote the learning curve to {plot}")


def _best_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    grid = np.unique(np.round(scores, 3))
    return float(max(grid, key=lambda t: _ba(scores >= t, labels)))


def left_out_defaults(sets: list[Scored]) -> list[Scored]:
    """Each set with the default a threshold fitted on the *other* sets would give: a
    deployment whose data the threshold never saw (leave-one-source-out)."""
    out = []
    for d in sets:
        others = [o for o in sets if o is not d]
        scores = np.concatenate([o.scores[o.scored] for o in others])
        labels = np.concatenate([o.labels[o.scored] for o in others])
        out.append(Scored(d.name, d.scores, d.labels, _best_threshold(scores, labels)))
    return out


def shifted_defaults(sets: list[Scored], delta: float = 0.1) -> list[Scored]:
    """Each set twice, its eta and band moved down and up by ``delta``: a deployment where
    the default sits in the wrong place, as it did on real answers."""
    return [
        Scored(d.name, d.scores, d.labels, d.default + s, (d.band[0] + s, d.band[1] + s))
        for d in sets
        for s in (-delta, delta)
    ]


def choose(sets: list[Scored], seeds: int, n_labels: int) -> None:
    """Training sets only: the prior's spread, and the judge sample rate and band share."""
    rows = []
    shifted = shifted_defaults(sets)
    protocols = (
        ("head's eta", sets),
        ("left-out eta", left_out_defaults(sets)),
        ("eta off by 0.1", shifted),
    )
    for protocol, deployments in protocols:
        for spread in (0.25, 0.5, 1.0, 2.0):
            calibration_fit.PRIOR_SD_OFFSET = spread
            gains = [
                split_protocol(d, n_labels, s) - _ba(verdicts(d, d.default), d.labels)
                for d in deployments
                for s in range(seeds)
            ]
            rows.append(
                {
                    "default": protocol,
                    "prior sd (offset)": spread,
                    "mean BA gain": float(np.mean(gains)),
                    "worst": float(np.min(gains)),
                }
            )
    calibration_fit.PRIOR_SD_OFFSET = 1.0
    print(f"\n## Threshold prior on the training sets ({n_labels} labels, {seeds} seeds)\n")
    print(table(rows, list(rows[0])))
    rows = []
    for rate in (0.05, 0.1, 0.15):
        for share in (0.1, 0.2, 0.3):
            results = [
                judge_calibrated_cascade(d, judge_says(d, s), rate, share, s)
                for d in sets
                for s in range(seeds)
            ]
            fixed = [fixed_band_cascade(d, judge_says(d, s)) for d in sets for s in range(seeds)]
            rows.append(
                {
                    "sample rate": rate,
                    "band share": share,
                    "BA": float(np.mean([r[0] for r in results])),
                    "gain over fixed band": float(
                        np.mean([r[0] for r in results]) - np.mean([f[0] for f in fixed])
                    ),
                    "sent": float(np.mean([r[1] for r in results])),
                }
            )
    print("\n## Judge calibration on the training sets (stand-in judge right 80%)\n")
    print(table(rows, list(rows[0])))
    rows = []
    defaults = CalibrationConfig()
    for protocol, deployments in (("head's eta", sets), ("eta off by 0.1", shifted_defaults(sets))):
        for margin in (0.0, 0.01, 0.02, 0.05, 1.0):
            results = [
                judge_calibrated_cascade(
                    d, judge_says(d, s), defaults.sample_rate, defaults.band_share, s, margin
                )
                for d in deployments
                for s in range(seeds)
            ]
            fixed = [
                fixed_band_cascade(d, judge_says(d, s)) for d in deployments for s in range(seeds)
            ]
            rows.append(
                {
                    "default": protocol,
                    "margin over the default": margin,
                    "gain over fixed band": float(
                        np.mean([r[0] for r in results]) - np.mean([f[0] for f in fixed])
                    ),
                    "BA": float(np.mean([r[0] for r in results])),
                    "worst set": float(
                        min(
                            np.mean([r[0] for r in results[i : i + seeds]])
                            for i in range(0, len(results), seeds)
                        )
                    ),
                    "sent": float(np.mean([r[1] for r in results])),
                }
            )
    print("\n## Margin a judge-label fit must win by (sample and band at their defaults)\n")
    print(table(rows, list(rows[0])))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    devsets.add_data_argument(parser)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--labels", type=int, default=100, help="labels the user gives (N)")
    parser.add_argument("--per-source", type=int, default=600, help="--choose: pairs per set")
    parser.add_argument("--choose", action="store_true", help="training sets: choose defaults")
    parser.add_argument("--plot", type=Path, help="write the learning curve here (SVG)")
    parser.add_argument(
        "--cache", type=Path, help="keep the scored sets here (re-runs of the same code only)"
    )
    args = parser.parse_args(argv)
    guard = Guard()
    if args.choose:
        sets = []
        for name, reader in SUPPORT_SOURCES.items():
            pairs = list(reader(args.data))
            random.Random(0).shuffle(pairs)
            chosen = [(p.statement, p.context, bool(p.label)) for p in pairs[: args.per_source]]
            sets.append(cached(args.cache, name, lambda n=name, c=chosen: score(n, c, guard)))
        choose(sets, args.seeds, args.labels)
        return
    sets = [
        cached(
            args.cache,
            name,
            lambda n=name, r=reader: score(
                n, [(c.claim, c.evidence, c.label) for c in r(args.data)], guard
            ),
        )
        for name, reader in (("wice-dev", devsets.wice), ("factcheck-gpt", devsets.factcheck_gpt))
    ]
    report(sets, args.seeds, args.labels, args.plot)


def cached(folder: Path | None, name: str, compute: Callable[[], Scored]) -> Scored:
    """A scored set from ``folder`` if an earlier run of this code left it there."""
    if folder is None:
        return compute()
    path = folder / f"{name}.npz"
    if path.exists():
        data = np.load(path)
        return Scored(name, data["scores"], data["labels"], float(data["default"]))
    scored = compute()
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(path, scores=scored.scores, labels=scored.labels, default=scored.default)
    return scored


if __name__ == "__main__":
    main()
