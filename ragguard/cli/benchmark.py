"""``ragguard benchmark``: reference-based metrics of a golden set, per pipeline and category."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ragguard.cli._common import format_option, refuse_overwriting_input, replaced_on_success
from ragguard.errors import RagguardError


def add_to(commands: Any) -> None:
    benchmark = commands.add_parser(
        "benchmark", help="replay a golden set: reference-based metrics per pipeline and category"
    )
    benchmark.add_argument("golden", help="JSONL file of traces with a reference object")
    benchmark.add_argument("-c", "--config", help="TOML or JSON config file")
    format_option(benchmark)
    benchmark.add_argument(
        "--pipeline-field",
        default="pipeline",
        help="trace field (or metadata key) naming each trace's pipeline (default: pipeline)",
    )
    benchmark.add_argument(
        "-o", "--output", "--out", dest="output", help="write each trace's metrics here (JSONL)"
    )
    benchmark.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.evaluation import Guard
    from ragguard.goldsets import render, score_references
    from ragguard.runtime import read_input
    from ragguard.schema import Trace

    refuse_overwriting_input([args.golden], args.output)
    guard = Guard(args.config)
    entries = list(read_input(args.golden, args.format))
    outcomes = guard.evaluate_stream(entry for _, entry in entries)
    evaluated = []
    for (line, trace), outcome in zip(entries, outcomes, strict=True):
        if isinstance(outcome, RagguardError) or not isinstance(trace, Trace):
            print(f"skipped line {line}: {outcome}", file=sys.stderr)
        else:
            evaluated.append((trace, outcome))
    scores = score_references(evaluated, guard.models, pipeline_field=args.pipeline_field)
    if args.output:
        with replaced_on_success(Path(args.output)) as out:
            out.writelines(score.model_dump_json() + "\n" for score in scores)
    print(render(scores))
    if args.output:
        print(f"\nwrote {len(scores)} trace results to {args.output}")
    return 0 if scores else 1
