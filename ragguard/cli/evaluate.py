"""``ragguard evaluate``: evaluate a JSONL file of traces."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    STDOUT,
    evaluate_all,
    refuse_overwriting_input,
    scale_options,
    unique_ids,
)
from ragguard.errors import RagguardError


def add_to(commands: Any) -> None:
    evaluate = commands.add_parser("evaluate", help="evaluate a JSONL file of traces")
    evaluate.add_argument("traces", help="JSONL file, one trace per line")
    evaluate.add_argument(
        "-o",
        "--output",
        "--out",
        dest="output",
        help="write one evaluation per line here (default: stdout, the summary on stderr)",
    )
    evaluate.add_argument("-c", "--config", help="TOML or JSON config file")
    evaluate.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    scale_options(evaluate)
    evaluate.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.config import Config
    from ragguard.io import count_lines, read_traces
    from ragguard.metrics.summary import RunSummary

    if Path(args.traces).is_dir():
        raise RagguardError(f"{args.traces} is a directory: evaluate takes a JSONL file of traces")
    output = args.output or STDOUT
    refuse_overwriting_input([args.traces], output)
    limits = Config.coerce(args.config).limits
    summary = RunSummary()
    traces = read_traces(args.traces, max_line_bytes=limits.max_line_bytes)
    text = evaluate_all(
        args,
        summary,
        entries=((f"line {n}", entry, None) for n, entry in unique_ids(traces)),
        paths=[args.traces],
        replay=None,
        total=count_lines(args.traces) if Path(args.traces).is_file() else None,
        out=(output, "w"),
        on_evaluation=lambda tag, evaluation: None,
    )
    if output == STDOUT:  # the evaluations went to stdout: the summary goes beside them
        print(text, file=sys.stderr)
    else:
        print(text)
        print(f"\nwrote {summary.evaluated} evaluations to {output}")
    return EXIT_SKIPPED if summary.failed else EXIT_OK
