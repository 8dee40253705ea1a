"""Run the behaviour suite through ``ragguard.Guard`` and say, per family and language, how
often the verdict is right (issue 56; CheckList, Ribeiro et al., ACL 2020).

    python benchmarks/behaviour/run.py [--split dev|heldout|all] [--lang en,de,..]
        [--family F] [--sample N --seed S] [--json OUT] [--show N] [--config FILE]

Every case is one trace (its passage the only item, its answer the response); an invariance
or directional case is two, the answer and its ``base``. The trace's *verdict* is
``flagged`` when an objective span is unsupported, ``supported`` when every objective span is
supported, ``set_aside`` when no span is objective (subjective, abstention), ``unscored``
otherwise. A case is right when:

| expect | right when |
|---|---|
| ``supported`` | the verdict is ``supported`` |
| ``flag:KIND`` | the verdict is ``flagged`` and an unsupported span has a reason of ``KIND`` |
| ``flag`` | the verdict is ``flagged`` (any reason) |
| ``set_aside`` | the verdict is ``set_aside`` |
| ``relevant`` / ``off_topic`` | ``metrics.answer_relevant`` is True / False |
| ``same`` (invariance) | the answer's verdict equals the base's |
| ``lower`` (directional) | the answer is ``flagged``, its lowest support below the base's |

It prints a Markdown table per split (rows: families; columns: languages; cells: % right
and the number of cases), then each check kind's likelihood ratio on the suite,
P(fires | unsupported) / P(fires | supported), where a case's gold label comes from its
expectation (``supported`` and a directional base: supported; ``flag`` and a directional
answer: unsupported; ``same``: the template's ``label``) and "fires" means
``ragguard.scoring.checks.check(answer, passage)`` gives a reason of that kind, whether or
not the span ends up unsupported.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import FAMILIES, LANGUAGES, SKIPPED, SPLITS, Case, load

from ragguard import Guard
from ragguard.metrics.summary import markdown_table
from ragguard.schema import Evaluation
from ragguard.schema.check_kinds import KINDS
from ragguard.scoring.checks import check

CHUNK = 64
"""Traces per ``evaluate_many`` call: batched model calls, and a progress bar that moves."""
CHECK_KINDS = tuple(row.kind for row in KINDS if row.given_by == "check")


@dataclass(frozen=True)
class Observed:
    """What the Guard said about one trace, reduced to what the outcomes read."""

    verdict: str
    support: float | None
    """The lowest support of its objective spans (None: no span was scored)."""
    kinds: tuple[str, ...]
    """The reason kinds of its unsupported spans."""
    relevant: bool | None


def observe(evaluation: Evaluation) -> Observed:
    objective = [s for s in evaluation.spans if s.kind == "objective"]
    unsupported = [s for s in objective if s.supported is False]
    if not objective:
        verdict = "set_aside"
    elif unsupported:
        verdict = "flagged"
    elif all(s.supported for s in objective):
        verdict = "supported"
    else:
        verdict = "unscored"
    supports = [s.support for s in objective if s.support is not None]
    kinds = tuple(sorted({r.check for s in unsupported for r in s.reasons}))
    return Observed(verdict, min(supports, default=None), kinds, evaluation.metrics.answer_relevant)


def right(case: Case, answer: Observed, base: Observed | None) -> bool:
    """Whether the Guard met the case's expectation (the table of the module docstring)."""
    expect, _, kind = case.expect.partition(":")
    if expect == "flag":
        return answer.verdict == "flagged" and (not kind or kind in answer.kinds)
    if expect in ("supported", "set_aside"):
        return answer.verdict == expect
    if expect in ("relevant", "off_topic"):
        return answer.relevant is (expect == "relevant")
    assert base is not None, case.id
    if expect == "same":
        return answer.verdict == base.verdict
    lower = (
        answer.support is not None and base.support is not None and answer.support < base.support
    )
    return answer.verdict == "flagged" and lower


def trace_key(case: Case, response: str) -> str:
    text = "\x1f".join((case.passage, case.question, response))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def evaluate(cases: Sequence[Case], guard: Guard, progress: bool = True) -> dict[str, Observed]:
    """Every distinct trace of the cases (answers and bases) through ``guard.evaluate_many``,
    in chunks; keyed by ``trace_key``."""
    traces: dict[str, dict[str, Any]] = {}
    for case in cases:
        for response in filter(None, (case.answer, case.base)):
            key = trace_key(case, response)
            traces[key] = {
                "trace_id": key,
                "query": case.question,
                "items": [{"id": "p", "text": case.passage}],
                "response": response,
            }
    keys = list(traces)
    observed: dict[str, Observed] = {}
    bar = tqdm(total=len(keys), desc="behaviour", unit="trace", disable=not progress)
    for start in range(0, len(keys), CHUNK):
        chunk = keys[start : start + CHUNK]
        for key, evaluation in zip(
            chunk, guard.evaluate_many(traces[k] for k in chunk), strict=True
        ):
            observed[key] = observe(evaluation)
        bar.update(len(chunk))
    bar.close()
    return observed


@dataclass(frozen=True)
class Result:
    case: Case
    right: bool
    answer: Observed
    base: Observed | None


def results(cases: Sequence[Case], guard: Guard, progress: bool = True) -> list[Result]:
    seen = evaluate(cases, guard, progress)
    out = []
    for case in cases:
        answer = seen[trace_key(case, case.answer)]
        base = seen[trace_key(case, case.base)] if case.base else None
        out.append(Result(case, right(case, answer, base), answer, base))
    return out


def share_right(rows: Iterable[Result]) -> float:
    rows = list(rows)
    return sum(r.right for r in rows) / len(rows) if rows else math.nan


def cell(rows: Sequence[Result]) -> str:
    return f"{100 * share_right(rows):.1f} ({len(rows)})" if rows else ""


def family_table(rows: Sequence[Result], languages: Sequence[str]) -> str:
    """Rows: families (and all); columns: languages (and all); cells: % right (cases). A
    cell a script does not allow reads "n/a"."""
    table = []
    for family in [*FAMILIES, "all"]:
        own = [r for r in rows if family in ("all", r.case.family)]
        if not own:
            continue
        line: dict[str, object] = {"family": family, "all": cell(own)}
        for lang in languages:
            here = [r for r in own if r.case.lang == lang]
            line[lang] = "n/a" if (family, lang) in SKIPPED else cell(here)
        table.append(line)
    return markdown_table(table, ["family", *languages, "all"])


def labelled(cases: Sequence[Case]) -> list[tuple[str, str, bool]]:
    """(claim, passage, gold support) for every answer and base with a gold label."""
    out = []
    for case in cases:
        if case.label is not None:
            out.append((case.answer, case.passage, case.label))
        if case.base and case.base_label is not None:
            out.append((case.base, case.passage, case.base_label))
    return out


def likelihood_rows(cases: Sequence[Case]) -> list[dict[str, object]]:
    """Per check kind: how often it fires on unsupported and on supported claims of the
    suite, and the ratio of the two shares (inf where it never fires on supported ones)."""
    pairs = labelled(cases)
    fired: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    for claim, passage, label in pairs:
        fired[label].update({r.check for r in check(claim, passage)})
    n = {label: max(sum(p[2] is label for p in pairs), 1) for label in (True, False)}
    rows: list[dict[str, object]] = []
    for kind in CHECK_KINDS:
        on_false, on_true = fired[False][kind] / n[False], fired[True][kind] / n[True]
        ratio = on_false / on_true if on_true else (math.inf if on_false else math.nan)
        rows.append(
            {
                "check": kind,
                "fires_unsupported": f"{fired[False][kind]}/{n[False]}",
                "fires_supported": f"{fired[True][kind]}/{n[True]}",
                "likelihood_ratio": ratio,
            }
        )
    return rows


def select(cases: Sequence[Case], family: str | None, sample: int | None, seed: int) -> list[Case]:
    chosen = [c for c in cases if family in (None, c.family)]
    if sample is not None and sample < len(chosen):
        chosen = random.Random(seed).sample(chosen, sample)
    return chosen


def report(rows: Sequence[Result], cases: Sequence[Case], languages: Sequence[str]) -> str:
    parts = []
    for split in SPLITS:
        own = [r for r in rows if r.case.split == split]
        if own:
            parts.append(f"### {split}: % right (cases)\n\n{family_table(own, languages)}\n")
    lr = markdown_table(
        likelihood_rows(cases),
        ["check", "fires_unsupported", "fires_supported", "likelihood_ratio"],
    )
    parts.append(f"### Check likelihood ratios on these cases\n\n{lr}\n")
    return "\n".join(parts)


def show_wrong(rows: Sequence[Result], limit: int) -> None:
    per_cell: dict[tuple[str, str, str], int] = defaultdict(int)
    for r in rows:
        key = (r.case.split, r.case.family, r.case.lang)
        if r.right or per_cell[key] >= limit:
            continue
        per_cell[key] += 1
        print(f"[{r.case.id}] expect {r.case.expect}: {r.case.answer!r}")
        if r.case.base:
            print(f"    base {r.case.base!r}: {r.base}")
        print(f"    got {r.answer}\n    passage {r.case.passage!r}")


def dump(rows: Sequence[Result], path: Path, meta: Mapping[str, object]) -> None:
    cells: dict[str, dict[str, object]] = {}
    for split in SPLITS:
        for family in FAMILIES:
            for lang in LANGUAGES:
                own = [
                    r
                    for r in rows
                    if (r.case.split, r.case.family, r.case.lang) == (split, family, lang)
                ]
                if own:
                    cells[f"{split}/{family}/{lang}"] = {
                        "right": sum(r.right for r in own),
                        "cases": len(own),
                    }
    wrong = [{"id": r.case.id, "answer": asdict(r.answer)} for r in rows if not r.right]
    payload = {**meta, "cells": cells, "wrong": wrong}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all")
    parser.add_argument("--lang", default=",".join(LANGUAGES))
    parser.add_argument("--family", choices=FAMILIES)
    parser.add_argument("--sample", type=int, help="a seeded sample of this many cases")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--config", help="a ragguard config file (default: the lite tier)")
    parser.add_argument("--json", type=Path, help="write per-cell counts and wrong cases here")
    parser.add_argument("--show", type=int, default=0, help="print N wrong cases per cell")
    args = parser.parse_args(argv)
    splits = SPLITS if args.split == "all" else (args.split,)
    languages = args.lang.split(",")
    suite = load(splits, languages)
    cases = select(suite.cases, args.family, args.sample, args.seed)
    guard = Guard(args.config)
    rows = results(cases, guard)
    if args.show:
        show_wrong(rows, args.show)
    print(report(rows, cases, languages))
    if suite.left_out:
        print("Left out (cue not in the language's data):", json.dumps(suite.left_out))
    if args.json:
        meta = {"argv": sys.argv[1:], "cases": len(cases)}
        dump(rows, args.json, meta)


if __name__ == "__main__":
    main()
