"""Does the support scorer flag single-edit contradictions of claims that were supported?

    python benchmarks/contradictions.py --data DIR [--config CONFIG.toml] [--limit N] [--seed S]
                                        [--hedged]

From the *supported* claims of the development sets (WiCE dev, Factcheck-GPT; never
training data) it builds one edit per kind with ``ragguard.train.perturb`` (the generator
``ragguard train support`` uses for its hard negatives): a changed number, a changed date,
an inserted or removed negation, an entity swapped for another name of the same passage.
It reports, per kind, the share of edits the scorer flags unsupported (score below its eta)
and, as ``flagged`` of the row ``original``, the false-alarm rate on the unedited claims.
``caught`` is the share of edits flagged among those whose original was judged supported:
what the checks add beyond claims the scorer already rejects.

A second table counts how often each typed check fires on the dev sets' natural pairs, by
gold label (a check firing on a supported claim is a false alarm); a third, how often any
veto check fires on the edits by itself (``benchmarks/checks_train.py`` measures the same
on the training sets, where the rules are chosen).

``--hedged`` adds a table of the same edits carrying a hedge ("likely", "some sources say",
"may have": ``hedging.py``), as a monitor counts them: an edit flagged is one scored below eta
*and* categorized objective, since a subjective span is never scored. Per kind and hedge, on
the edits that take the hedge, ``flagged`` without and ``flagged_hedged`` with it (target:
hedged no less often than plain minus 0.02), the hedged spans marked subjective, and the
shares per kind pooled over sets and hedges.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import checks_train
import devsets
from hedging import HEDGES, hedge

from ragguard import Config
from ragguard.evaluation.evaluator import Evaluator
from ragguard.metrics.summary import markdown_table as table
from ragguard.schema.check_kinds import EditKind
from ragguard.scoring.checks import check
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.interface.protocols import SupportScorer
from ragguard.spans import Categorizer
from ragguard.train.perturb import edit

KINDS: tuple[EditKind, ...] = ("number", "date", "negation", "entity")
BATCH = 128


def _scores(scorer: SupportScorer, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
    out = [np.zeros(0, dtype=np.float32)]
    for start in range(0, len(pairs), BATCH):
        batch = pairs[start : start + BATCH]
        claims = [Claim(claim) for claim, _ in batch]
        evidence = [Evidence(str(i), passage) for i, (_, passage) in enumerate(batch)]
        out.append(scorer.support(claims, evidence))
    return np.concatenate(out)


def edit_rows(
    scorer: SupportScorer, sets: dict[str, list[devsets.SupportCase]], seed: int = 0
) -> list[dict]:
    """Per set and kind: edits built, share flagged, share caught (original passed)."""
    rows = []
    for set_name, cases in sets.items():
        supported = [c for c in cases if c.label]
        originals = _scores(scorer, [(c.claim, c.evidence) for c in supported])
        passed = originals >= scorer.threshold
        rows.append(
            {
                "set": set_name,
                "edit": "original",
                "n": len(supported),
                "flagged": float(np.mean(~passed)) if len(supported) else 0.0,
            }
        )
        for kind in KINDS:
            made = [
                (i, e)
                for i, c in enumerate(supported)
                if (e := edit(c.claim, c.evidence, kind, seed)) is not None
            ]
            scores = _scores(scorer, [(e.text, supported[i].evidence) for i, e in made])
            flagged = scores < scorer.threshold
            kept = np.array([passed[i] for i, _ in made], dtype=bool)
            rows.append(
                {
                    "set": set_name,
                    "edit": kind,
                    "n": len(made),
                    "flagged": float(flagged.mean()) if made else 0.0,
                    "caught": float(flagged[kept].mean()) if kept.any() else 0.0,
                }
            )
    return rows


def hedged_rows(
    scorer: SupportScorer,
    categorizer: Categorizer,
    sets: dict[str, list[devsets.SupportCase]],
    seed: int = 0,
) -> list[dict[str, object]]:
    """Per set, kind and hedge: the share of edits flagged as a monitor counts it (scored
    below eta and objective), without and with the hedge, on the edits that take it."""

    def flagged(texts: list[str], evidence: list[str]) -> tuple[np.ndarray, np.ndarray]:
        objective = np.array([categorizer.categorize(t)[0] == "objective" for t in texts])
        low = _scores(scorer, list(zip(texts, evidence, strict=True))) < scorer.threshold
        return low & objective, ~objective

    rows: list[dict[str, object]] = []
    for set_name, cases in sets.items():
        supported = [c for c in cases if c.label]
        for kind in KINDS:
            edits = [
                (e.text, c.evidence)
                for c in supported
                if (e := edit(c.claim, c.evidence, kind, seed)) is not None
            ]
            for cue in HEDGES:
                made = [(text, h, ev) for text, ev in edits if (h := hedge(text, cue)) is not None]
                if not made:
                    continue
                evidence = [ev for _, _, ev in made]
                plain, _ = flagged([text for text, _, _ in made], evidence)
                hedged, exempt = flagged([h for _, h, _ in made], evidence)
                rows.append(
                    {
                        "set": set_name,
                        "edit": kind,
                        "hedge": cue,
                        "n": len(made),
                        "flagged": float(plain.mean()),
                        "flagged_hedged": float(hedged.mean()),
                        "difference": float(hedged.mean() - plain.mean()),
                        "hedged_subjective": float(exempt.mean()),
                    }
                )
    return rows


def _cases(cases: list[devsets.SupportCase]) -> list[checks_train.Case]:
    return [(c.claim, c.evidence, c.label) for c in cases]


def check_rows(sets: dict[str, list[devsets.SupportCase]]) -> list[dict[str, object]]:
    """How often each typed check fires on the natural pairs, by gold label."""
    return [
        row for name, cases in sets.items() for row in checks_train.check_rows(name, _cases(cases))
    ]


def veto_rows(sets: dict[str, list[devsets.SupportCase]], seed: int = 0) -> list[dict[str, object]]:
    """Per set and edit kind: the share of edits (and of the unedited supported claims) on
    which a veto check fires, the checks alone, without the head."""
    return [
        row
        for name, cases in sets.items()
        for row in checks_train.veto_rows(name, _cases(cases), seed)
    ]


def examples(sets: dict[str, list[devsets.SupportCase]]) -> list[str]:
    """Per set and check, the first pair where it fired on an unsupported claim (right) and
    the first where it fired on a supported one (wrong): what the check saw, in its words."""
    lines = []
    for set_name, cases in sets.items():
        seen: dict[tuple[str, bool], str] = {}
        for case in cases:
            for reason in check(case.claim, case.evidence):
                key = (reason.check, case.label)
                if key not in seen:
                    verdict = "wrong (supported)" if case.label else "right (unsupported)"
                    seen[key] = (
                        f"{set_name} {reason.check}, {verdict}: claim {case.claim[:160]!r}; "
                        f"fired on {reason.claim!r} against {reason.evidence!r}"
                    )
        lines += [seen[key] for key in sorted(seen)]
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", help="ragguard config (TOML/JSON); default: the lite tier")
    devsets.add_data_argument(parser)
    parser.add_argument("--limit", type=int, default=None, help="cases per set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--hedged", action="store_true", help="the same edits with a hedge, as a monitor counts"
    )
    parser.add_argument(
        "--examples", action="store_true", help="one right and one wrong firing per check"
    )
    args = parser.parse_args(argv)
    data: Path = args.data
    config = Config.from_file(args.config) if args.config else Config()
    scorer = Evaluator(config).models.support_scorer
    sets = {
        "wice-dev": devsets.wice(data)[: args.limit],
        "factcheck-gpt": devsets.factcheck_gpt(data)[: args.limit],
    }
    print(f"Single-edit contradictions of supported dev claims (eta {scorer.threshold:.3f})\n")
    print(table(edit_rows(scorer, sets, args.seed), ["set", "edit", "n", "flagged", "caught"]))
    print("\nTyped checks firing on the natural dev pairs\n")
    columns = ["set", "check", "fired_on_unsupported", "fired_on_supported", "share_of_supported"]
    print(table(check_rows(sets), columns))
    print("\nAny veto check firing on the edits, the checks alone (no head)\n")
    print(table(veto_rows(sets, args.seed), ["set", "edit", "n", "veto_fired"]))
    if args.hedged:
        print("\nHedged edits, flagged as a monitor counts (scored below eta and objective)\n")
        columns = ["set", "edit", "hedge", "n", "flagged", "flagged_hedged", "difference"]
        rows = hedged_rows(scorer, Categorizer.from_config(config.spans), sets, args.seed)
        print(table(rows, [*columns, "hedged_subjective"]))
        print("\nPer kind, over both sets and the three hedges (weighted by n)\n")
        print(table(checks_train.pooled(rows, "edit"), ["edit", "n", *columns[4:]]))
    if args.examples:
        print("\nFirst firing of each check on an unsupported and on a supported claim\n")
        print("\n".join(f"- {line}" for line in examples(sets)))


if __name__ == "__main__":
    main()
