"""``ragguard evaluate``: evaluate a JSONL file of traces."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragguard.cli._batch import BatchRun, RunOptions, run_exit_status
from ragguard.cli._common import (
    STDOUT,
    format_option,
    refuse_overwriting_input,
    scale_options,
    stdin_file,
    unique_ids,
)
from ragguard.cli._gates import gate_options
from ragguard.errors import RagguardError, TraceValidationError

if TYPE_CHECKING:
    from ragguard.config import Config
    from ragguard.runtime import Format
    from ragguard.schema import Trace

    Entry = tuple[str, Trace | RagguardError, None]


def add_to(commands: Any) -> None:
    evaluate = commands.add_parser("evaluate", help="evaluate a JSONL file of traces")
    evaluate.add_argument(
        "traces",
        help="JSONL file, one trace per line, or - for standard input (or another tool's "
        "export: --format)",
    )
    evaluate.add_argument(
        "-o",
        "--output",
        "--out",
        dest="output",
        help="write one evaluation per line here (default: stdout, the summary on stderr)",
    )
    evaluate.add_argument("-c", "--config", help="TOML or JSON config file")
    format_option(evaluate)
    evaluate.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    evaluate.add_argument(
        "--resume",
        action="store_true",
        help="keep the evaluations already in -o and evaluate only the traces not in it "
        "(refused when another config wrote it)",
    )
    gate_options(evaluate)
    scale_options(evaluate)
    evaluate.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.traces != "-":
        return _run(args, str(args.traces))
    if args.runner == "ray":
        raise RagguardError(
            "--runner ray reads the input file on the cluster: it cannot read standard input "
            "(-); write the traces to a file and pass its path"
        )
    with stdin_file(csv=args.format != "ragguard") as path:
        return _run(args, path)


def _run(args: argparse.Namespace, path: str) -> int:
    from ragguard.replay import load_done
    from ragguard.runtime import count_lines, read_input
    from ragguard.schema import Trace

    options = RunOptions.from_args(args)
    resume = bool(args.resume)
    data_format: Format = args.format
    if Path(path).is_dir():
        raise RagguardError(f"{path} is a directory: evaluate takes a JSONL file of traces")
    output = args.output or STDOUT
    if resume and (output == STDOUT or options.runner == "ray"):
        raise RagguardError("--resume needs -o FILE and the local runner")
    refuse_overwriting_input([path], output)

    def traces(config: Config) -> Iterator[tuple[int, Trace | TraceValidationError]]:
        return read_input(path, data_format, max_line_bytes=config.limits.max_line_bytes)

    batch = BatchRun.start(
        options, [path], lambda config: (e for _, e in traces(config) if isinstance(e, Trace))
    )
    done = set(load_done(Path(output))[0]) if resume else set()
    batch.warn_output(output, resuming=bool(done))
    first_pass = (entry for _, entry in traces(batch.config))
    total = count_lines(path) - len(done) if Path(path).is_file() else None
    resumed = 0

    def entries(lines: Iterator[tuple[int, Trace | TraceValidationError]]) -> Iterator[Entry]:
        nonlocal resumed
        for n, entry in unique_ids(lines):
            if isinstance(entry, Trace) and entry.trace_id in done:
                resumed += 1
                continue
            if isinstance(entry, Trace) and data_format != "ragguard":
                batch.checks.title(entry)
            yield f"line {n}", entry, None

    with batch.calibrated(first_pass, total) as (calibrated, summary):
        lines = traces(batch.config)  # read as the run proper starts, as ever
        text, gates, status = batch.evaluate(
            calibrated,
            summary,
            entries=entries(lines),
            replay=None,
            total=total,
            out=(output, "a" if resume else "w"),
            on_evaluation=lambda tag, evaluation: None,
        )
        _print_results(text + gates, output, resumed, summary.evaluated, options.junit)
        return run_exit_status(summary, status)


def _print_results(
    summary: str, output: str, resumed: int, evaluated: int, junit: str | None
) -> None:
    """The summary and what was written where: beside the evaluations on stderr when they
    went to stdout."""
    if output == STDOUT:
        print(summary, file=sys.stderr)
    else:
        print(summary)
        if resumed:
            print(f"\nresumed: skipped {resumed} traces already evaluated in {output}")
        print(f"\nwrote {evaluated} evaluations to {output}")
    if junit:
        print(
            f"wrote the JUnit report to {junit}",
            file=sys.stderr if output == STDOUT else sys.stdout,
        )
