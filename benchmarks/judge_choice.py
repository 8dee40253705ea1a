"""How the judge's in-band rule was chosen, on the judged training pairs only.

    python benchmarks/judge_choice.py --data DIR [--orders 20]

Reads the judge scores ``judge_local.py judge --set train`` and ``--set train-long`` cached.
Leave one kind of training pair out (one-sentence evidence, short evidence hidden among
other pairs', SummEdits documents): fit the combination card on the others, then decide
the held-out kind by the card's fixed cut-off and by the in-band window
(``ragguard/judge/share.py``), the window over ``--orders`` seeded arrival orders. Then the
window's warm-ups over all the pairs, ranked by the judge's own score. Then how a long
item is cut (``--set train-cut``, evidence longer than ``max_evidence_chars``, judged with
each ``--cut``), and the score question (``--prompt rules`` against ``--prompt plain``): the
judge's own score on the pairs asked every way. No dev set is read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import devsets
from evidence_window import CUTS
from judge_local import PROMPTS, TRAINING, Pair, judged, pairs, scored

from ragguard.config import JudgeConfig
from ragguard.judge.share import ShareMatch
from ragguard.metrics.agreement import balanced_accuracy
from ragguard.metrics.summary import markdown_table as table

YES = JudgeConfig().score_threshold
"""The judge's own verdict on a score, as the product's client reads it."""


def _kind(pair: Pair) -> str:
    """The kind of training pair a choice is checked across."""
    if pair.source == "summedits":
        return "SummEdits documents"
    if pair.source.startswith("padded"):
        return "short evidence hidden among others'"
    return "one-sentence evidence"


def choose(args: argparse.Namespace) -> None:
    """How the in-band rule and its warm-up were chosen, on the judged training pairs only:
    leave one kind of pair out (fit the card on the others, decide the held-out kind), the
    card's fixed cut-off against the window, each over ``--orders`` seeded arrival orders;
    then the window's warm-ups over all the pairs."""
    from ragguard.calibration.combine import fit_combination, margin, own_threshold
    from ragguard.config.judge import JudgeCombination

    rows: list[tuple[float, float, bool, str]] = []
    for name in TRAINING:
        train = scored(args.data, name, args.train_pairs, args.seed)
        for i in sorted(train.records):
            pair = train.rows[i]
            rows.append((train.lite[i], train.records[i]["score"], pair.label, _kind(pair)))
    eta = train.eta
    lite, judge = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    labels, kinds = np.array([r[2] for r in rows]), np.array([r[3] for r in rows])

    def windowed(card: JudgeCombination, rows: np.ndarray, warmup: int) -> float:
        found = []
        for order in range(args.orders):
            said = np.zeros(len(labels), bool)
            window = ShareMatch(JudgeConfig().share_window, warmup)
            for i in np.random.default_rng(order).permutation(rows):
                z = margin(card, lite[i], judge[i], eta)  # the product's policy: agreement holds
                said[i] = window.decide(bool(lite[i] >= eta), bool(judge[i] >= YES), z)
            found.append(balanced_accuracy(said[rows], labels[rows]))
        return float(np.mean(found))

    lines = []
    for kind in dict.fromkeys(kinds.tolist()):
        held, rest = np.flatnonzero(kinds == kind), np.flatnonzero(kinds != kind)
        card = fit_combination(lite[rest], judge[rest], labels[rest], eta, model="m", source="")
        fixed = [margin(card.card, lite[i], judge[i], eta) >= 0 for i in held]
        lines.append(
            {
                "held out": f"{kind} ({held.size} pairs)",
                "judge says yes": f"{np.mean(judge[held] >= 0.5):.2f}",
                "supported": f"{np.mean(labels[held]):.2f}",
                "lite verdict": f"{balanced_accuracy(lite[held] >= eta, labels[held]):.3f}",
                "card's fixed cut-off": f"{balanced_accuracy(np.array(fixed), labels[held]):.3f}",
                "window": f"{windowed(card.card, held, JudgeConfig().share_warmup):.3f}",
            }
        )
    print(table(lines, list(lines[0])))
    own = own_threshold("m")
    every = np.arange(len(labels))
    print(
        "\nwarm-up: " + ", ".join(f"{w}: {windowed(own, every, w):.3f}" for w in (10, 20, 30, 50))
    )


def compared(rows: Sequence[Pair], ways: dict[str, dict[int, dict[str, Any]]]) -> str:
    """The judge's own score asked each of ``ways`` (name -> records by row index), on the
    pairs asked every way, by kind of pair: a table."""
    from ragguard.metrics.agreement import roc_auc

    every = [i for i in range(len(rows)) if all(i in records for records in ways.values())]
    lines = []
    for kind in ("all", *dict.fromkeys(_kind(rows[i]) for i in every)):
        picked = [i for i in every if kind == "all" or _kind(rows[i]) == kind]
        labels = np.array([rows[i].label for i in picked])
        line = {"pairs": f"{kind} ({len(picked)}, {labels.mean():.0%} supported)"}
        for way, records in ways.items():
            score = np.array([records[i]["score"] for i in picked])
            auc = roc_auc(score, labels) if 0 < labels.mean() < 1 else float("nan")
            line[f"{way}: AUC"] = f"{auc:.3f}"
            line[f"{way}: balanced accuracy at 0.5"] = (
                f"{balanced_accuracy(score >= 0.5, labels):.3f}"
            )
        lines.append(line)
    return table(lines, list(lines[0]))


def cuts(args: argparse.Namespace) -> None:
    """How a long item is cut: the ``train-cut`` pairs judged each way (``CUTS``)."""
    rows = pairs(args.data, "train-cut", args.cut_pairs, args.seed)
    ways = {cut: judged(rows, cut) for cut in CUTS}
    print("\nlong items, the judge's own score:\n" + compared(rows, ways))


def prompts(args: argparse.Namespace) -> None:
    """The product's score question against the plain one (``judge_prompt_plain.py``), on
    every training pair asked both ways."""
    rows = [
        *pairs(args.data, "train", args.train_pairs, args.seed),
        *pairs(args.data, "train-long", args.train_pairs, args.seed),
        *pairs(args.data, "train-cut", args.cut_pairs, args.seed),
    ]
    ways = {prompt: judged(rows, prompt=prompt) for prompt in PROMPTS}
    print("\nthe score question, the judge's own score:\n" + compared(rows, ways))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    devsets.add_data_argument(parser)
    parser.add_argument("--train-pairs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--orders", type=int, default=20, help="seeded arrival orders")
    parser.add_argument("--cut-pairs", type=int, default=60, help="train-cut pairs drawn")
    args = parser.parse_args(argv)
    choose(args)
    cuts(args)
    prompts(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
