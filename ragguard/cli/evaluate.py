"""``ragguard evaluate``: evaluate a JSONL file of traces."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    STDOUT,
    evaluate_all,
    format_option,
    refuse_overwriting_input,
    scale_options,
    unique_ids,
)
from ragguard.cli._gates import RunChecks, gate_options
from ragguard.cli._selfcal import self_calibrated
from ragguard.errors import RagguardError

if TYPE_CHECKING:
    from ragguard.config import Config


def add_to(commands: Any) -> None:
    evaluate = commands.add_parser("evaluate", help="evaluate a JSONL file of traces")
    evaluate.add_argument(
        "traces", help="JSONL file, one trace per line (or a RAGAS/DeepEval export: --format)"
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
    from ragguard.config import Config
    from ragguard.replay.run import check_output_config, load_done
    from ragguard.runtime.foreign import read_input
    from ragguard.runtime.jsonl import count_lines
    from ragguard.schema import Trace

    if Path(args.traces).is_dir():
        raise RagguardError(f"{args.traces} is a directory: evaluate takes a JSONL file of traces")
    output = args.output or STDOUT
    if args.resume and (output == STDOUT or args.runner == "ray"):
        raise RagguardError("--resume needs -o FILE and the local runner")
    refuse_overwriting_input([args.traces], output)
    config = Config.coerce(args.config)
    limit = config.limits.max_line_bytes
    checks = RunChecks.start(
        args,
        config,
        [args.traces],
        lambda: (
            e
            for _, e in read_input(args.traces, args.format, max_line_bytes=limit)
            if isinstance(e, Trace)
        ),
    )
    done = set(load_done(Path(output))[0]) if args.resume else set()
    warning = check_output_config(Path(output), config, resuming=bool(done))
    if warning:
        print(f"ragguard: warning: {warning}", file=sys.stderr)
    name = args.config if isinstance(args.config, str) else None
    first_pass = (entry for _, entry in read_input(args.traces, args.format, max_line_bytes=limit))
    total = count_lines(args.traces) - len(done) if Path(args.traces).is_file() else None
    args.judge_first_pass = Counter()
    with self_calibrated(config, first_pass, total, args.judge_first_pass) as calibrated:
        args.config = calibrated  # the run proper starts from this file's judge calibration
        return _evaluate(args, config, name, output, done, total, checks)


def _evaluate(
    args: argparse.Namespace,
    config: Config,
    name: str | None,
    output: str,
    done: set[str],
    total: int | None,
    checks: RunChecks,
) -> int:
    """The run proper: ``config`` as given is what the output records."""
    from ragguard.metrics.summary import RunSummary
    from ragguard.replay.run import record_output_config
    from ragguard.runtime.foreign import read_input
    from ragguard.schema import Trace

    summary = RunSummary()
    summary.add_first_pass(getattr(args, "judge_first_pass", None) or {})
    limit = config.limits.max_line_bytes
    traces = read_input(args.traces, args.format, max_line_bytes=limit)
    resumed = 0

    def entries() -> Iterator[tuple[str, Trace | RagguardError, None]]:
        nonlocal resumed
        for n, entry in unique_ids(traces):
            if isinstance(entry, Trace) and entry.trace_id in done:
                resumed += 1
                continue
            yield f"line {n}", entry, None

    finished = False
    try:
        text = evaluate_all(
            args,
            summary,
            entries=entries(),
            paths=[args.traces],
            replay=None,
            total=total,
            out=(output, "a" if args.resume else "w"),
            on_evaluation=lambda tag, evaluation: checks.on_evaluation(evaluation),
            on_skipped=checks.on_skipped,
        )
        finished = True
    finally:  # a replaced output is this config's; an appended one is, even if cut short
        if output != STDOUT and (finished or (args.resume and Path(output).exists())):
            record_output_config(Path(output), config, name)
    gates, status = checks.finish(summary)
    if output == STDOUT:  # the evaluations went to stdout: the summary goes beside them
        print(text + gates, file=sys.stderr)
    else:
        print(text + gates)
        if resumed:
            print(f"\nresumed: skipped {resumed} traces already evaluated in {output}")
        print(f"\nwrote {summary.evaluated} evaluations to {output}")
    if args.junit:
        print(
            f"wrote the JUnit report to {args.junit}",
            file=sys.stderr if output == STDOUT else sys.stdout,
        )
    return status or (EXIT_SKIPPED if summary.failed else EXIT_OK)
