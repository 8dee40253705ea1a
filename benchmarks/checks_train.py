"""How often the typed checks fire on the *training* sets: the data their rules are tuned on.

    python benchmarks/checks_train.py --data DIR [--per-source N] [--seed S] [--show KIND]

The development sets (WiCE dev, Factcheck-GPT) only report; a rule chosen by looking at
them would flatter them. So this script measures the same things on the training sources
of ``ragguard.train.datasets``: per check kind, the share of supported pairs where it fires
(false alarms) and of unsupported pairs (not every unsupported pair has a typed slot, so
this is a floor); and for single edits of the supported claims (``ragguard.train.perturb``,
the generator of the dev benchmark), the share where any veto check fires, beside the
share on the unedited originals. ``--show KIND`` prints firing supported pairs of a check
kind, or missed edits of an edit kind: the examples to read when changing a rule.
Pure Python, a few seconds per thousand pairs.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ragguard.metrics.summary import markdown_table as table
from ragguard.schema.check_kinds import EDIT_KINDS, KINDS
from ragguard.scoring.checks import CONTRADICTIONS, check
from ragguard.scoring.lite import Pair
from ragguard.train.datasets import SUPPORT_SOURCES
from ragguard.train.perturb import edit

CHECK_KINDS = tuple(row.kind for row in KINDS if row.given_by == "check")
"""Every kind a check gives, vetoing or not (``superlative``, ``uncovered``)."""


def sample(root: Path, source: str, per_label: int, seed: int) -> list[Pair]:
    """``per_label`` pairs of each label, drawn with ``seed`` (the files are sorted by
    topic, so the first rows would be one topic)."""
    pairs = list(SUPPORT_SOURCES[source](root))
    rng = random.Random(f"{seed}:{source}")
    out: list[Pair] = []
    for label in (1, 0):
        own = [p for p in pairs if p.label == label]
        out += rng.sample(own, min(per_label, len(own)))
    return out


Case = tuple[str, str, bool]
"""A claim, its passage, and whether the passage supports it (gold label)."""


def vetoed(claim: str, passage: str) -> bool:
    return any(r.check in CONTRADICTIONS for r in check(claim, passage))


def check_rows(
    name: str, cases: Sequence[Case], show: str | None = None
) -> list[dict[str, object]]:
    """Per check kind: how often it fires on supported and on unsupported pairs (counts and
    shares). With ``show``, prints the supported pairs where that kind fires."""
    fired: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    for claim, passage, label in cases:
        reasons = check(claim, passage)
        fired[label].update({r.check for r in reasons})
        if label and show in {r.check for r in reasons}:
            found = [r for r in reasons if r.check == show]
            print(f"[{name}] {claim!r}\n    {found}\n    {passage[:400]!r}\n")
    n = {label: max(sum(c[2] == label for c in cases), 1) for label in (True, False)}
    return [
        {
            "set": name,
            "check": kind,
            "fired_on_supported": fired[True][kind],
            "fired_on_unsupported": fired[False][kind],
            "share_of_supported": fired[True][kind] / n[True],
            "share_of_unsupported": fired[False][kind] / n[False],
        }
        for kind in CHECK_KINDS
    ]


EARNS_FIRINGS = 20
"""Issue 56: a kind that fires this often on a set must have a likelihood ratio of at least
``EARNS_RATIO`` there to veto or feed the head's contradiction feature."""
EARNS_RATIO = 3.0


def with_ratio(row: dict[str, object]) -> dict[str, object]:
    """The row with its likelihood ratio, P(fires | unsupported) / P(fires | supported), and
    whether the kind earns its influence there (it fires under ``EARNS_FIRINGS`` times, or
    its ratio is at least ``EARNS_RATIO``); the pooled rows have no counts, so no verdict."""
    on_false, on_true = float(row["share_of_unsupported"]), float(row["share_of_supported"])  # type: ignore[arg-type]
    ratio = on_false / on_true if on_true else (math.inf if on_false else math.nan)
    out = {**row, "likelihood_ratio": ratio, "earns": ""}
    if "fired_on_supported" in row:
        fired = int(row["fired_on_supported"]) + int(row["fired_on_unsupported"])  # type: ignore[call-overload]
        out["fired"] = fired
        out["earns"] = "yes" if fired < EARNS_FIRINGS or ratio >= EARNS_RATIO else "NO"
    return out


def veto_rows(
    name: str, cases: Sequence[Case], seed: int, show: str | None = None
) -> list[dict[str, object]]:
    """Per edit kind: edits made of the supported claims and the share on which any veto
    check fires (the checks alone, no head), beside the share on the unedited originals.
    With ``show``, prints the missed edits of that kind whose original fired nothing."""
    supported = [(claim, passage) for claim, passage, label in cases if label]
    originals = [vetoed(claim, passage) for claim, passage in supported]
    rows: list[dict[str, object]] = [
        {
            "set": name,
            "edit": "original",
            "n": len(supported),
            "veto_fired": sum(originals) / max(len(supported), 1),
        }
    ]
    for kind in EDIT_KINDS:
        caught = []
        for (claim, passage), before in zip(supported, originals, strict=True):
            made = edit(claim, passage, kind, seed)
            if made is None:
                continue
            hit = vetoed(made.text, passage)
            caught.append(hit)
            if kind == show and not hit and not before:
                print(f"[{name}] {made.before!r} -> {made.after!r}: {made.text!r}")
                print(f"    {passage[:400]!r}\n")
        rows.append(
            {
                "set": name,
                "edit": kind,
                "n": len(caught),
                "veto_fired": sum(caught) / max(len(caught), 1),
            }
        )
    return rows


def pooled(rows: Sequence[dict[str, object]], key: str) -> list[dict[str, object]]:
    """Per ``key``, the mean over sources of each share, weighted by ``n`` where rows have it."""
    sums: dict[str, dict[str, float]] = {}
    for row in rows:
        weight = float(row.get("n", 1))  # type: ignore[arg-type]
        acc = sums.setdefault(str(row[key]), {"weight": 0.0})
        acc["weight"] += weight
        for column, value in row.items():
            if isinstance(value, float):
                acc[column] = acc.get(column, 0.0) + weight * value
    out: list[dict[str, object]] = []
    for name, acc in sums.items():
        row = {"set": "all", key: name} | {
            c: v / max(acc["weight"], 1.0) for c, v in acc.items() if c != "weight"
        }
        if "n" in rows[0]:
            row["n"] = int(acc["weight"])
        out.append(row)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="folder of the training sets")
    parser.add_argument("--per-source", type=int, default=500, help="pairs of each label")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sources", nargs="*", default=list(SUPPORT_SOURCES))
    parser.add_argument("--show", help="print firing supported pairs / missed edits of a kind")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        sys.exit(f"no data directory {args.data}: pass --data DIR")
    checks: list[dict[str, object]] = []
    edits: list[dict[str, object]] = []
    for source in args.sources:
        cases = [
            (p.statement, p.context, bool(p.label))
            for p in sample(args.data, source, args.per_source, args.seed)
        ]
        checks += check_rows(source, cases, args.show)
        edits += veto_rows(source, cases, args.seed, args.show)
    print(f"Typed checks firing on the training sets ({args.per_source} pairs per label)\n")
    columns = ["set", "check", "fired", "share_of_supported", "share_of_unsupported"]
    columns += ["likelihood_ratio", "earns"]
    print(table([with_ratio(r) for r in [*checks, *pooled(checks, "check")]], columns))
    print("\nAny veto check firing on single edits of the supported claims\n")
    print(table([*edits, *pooled(edits, "edit")], ["set", "edit", "n", "veto_fired"]))


if __name__ == "__main__":
    main()
