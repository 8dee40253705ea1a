"""``ragguard evaluate``: evaluate a JSONL file of traces."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    evaluate_all,
    refuse_overwriting_input,
    scale_options,
    unique_ids,
)
from ragguard.cli._selfcal import self_calibrated


def add_to(commands: Any) -> None:
    evaluate = commands.add_parser("evaluate", help="evaluate a JSONL file of traces")
    evaluate.add_argument("traces", help="JSONL file, one trace per line")
    evaluate.add_argument("-o", "--output", help="write one evaluation per line here")
    evaluate.add_argument("-c", "--config", help="TOML or JSON config file")
    evaluate.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    scale_options(evaluate)
    evaluate.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.config import Config
    from ragguard.io import count_lines, read_traces

    refuse_overwriting_input([args.traces], args.output)
    config = Config.coerce(args.config)
    limits = config.limits
    total = count_lines(args.traces) if Path(args.traces).is_file() else None
    first_pass = (
        entry for _, entry in read_traces(args.traces, max_line_bytes=limits.max_line_bytes)
    )
    with self_calibrated(config, first_pass, total) as config:
        args.config = config
        return _evaluate(args, total)


def _evaluate(args: argparse.Namespace, total: int | None) -> int:
    from ragguard.io import read_traces
    from ragguard.metrics.summary import RunSummary

    summary = RunSummary()
    traces = read_traces(args.traces, max_line_bytes=args.config.limits.max_line_bytes)
    text = evaluate_all(
        args,
        summary,
        entries=((f"line {n}", entry, None) for n, entry in unique_ids(traces)),
        paths=[args.traces],
        replay=None,
        total=total,
        out=(args.output, "w"),
        on_evaluation=lambda tag, evaluation: None,
    )
    print(text)
    if args.output:
        print(f"\nwrote {summary.evaluated} evaluations to {args.output}")
    return EXIT_SKIPPED if summary.failed else EXIT_OK
