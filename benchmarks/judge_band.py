"""Calibrate the judge's band on training data; show what share of the dev sets it holds.

    python benchmarks/judge_band.py --data DIR [--share 0.2] [--per-source 400]

Lite support scores of up to ``--per-source`` pairs from each support training set (the sets
the lite head was trained and calibrated on), then the band around the lite eta that holds
``--share`` of them (``ragguard.calibration.band``). The dev-set line is a report, not an input:
the band is never tuned on WiCE dev or Factcheck-GPT.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets

from ragguard.calibration.band import band_for_share, share_in_band
from ragguard.evaluation.evaluator import Evaluator
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.train.datasets import SUPPORT_SOURCES


def lite_scores(evaluator: Evaluator, claims: list[str], evidence: list[str]) -> np.ndarray:
    scorer = evaluator.models.support_scorer
    chunks = [
        scorer.support(
            [Claim(c) for c in claims[i : i + 128]],
            [Evidence(str(n), e) for n, e in enumerate(evidence[i : i + 128])],
        )
        for i in range(0, len(claims), 128)
    ]
    return np.concatenate(chunks)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    devsets.add_data_argument(parser)
    parser.add_argument("--share", type=float, default=0.2)
    parser.add_argument("--per-source", type=int, default=400)
    args = parser.parse_args(argv)
    data: Path = args.data
    evaluator = Evaluator()
    eta = evaluator.models.support_scorer.threshold
    pairs = [
        pair
        for source in SUPPORT_SOURCES.values()
        for pair in itertools.islice(source(data), args.per_source)
    ]
    train = lite_scores(evaluator, [p.statement for p in pairs], [p.context for p in pairs])
    band = band_for_share(train, eta, args.share)
    print(f"lite eta {eta:.3f}; {len(pairs)} training pairs")
    print(f"band holding {args.share:.0%} of them: [{band[0]}, {band[1]}]")
    for share in (0.1, 0.2, 0.3, 0.5):
        print(f"  share {share:.0%}: band {list(band_for_share(train, eta, share))}")
    dev = {"wice-dev": devsets.wice(data), "factcheck-gpt": devsets.factcheck_gpt(data)}
    for name, cases in dev.items():
        scores = lite_scores(evaluator, [c.claim for c in cases], [c.evidence for c in cases])
        print(f"{name}: {share_in_band(scores, band):.1%} of {len(cases)} spans in the band")


if __name__ == "__main__":
    main()
