"""``ragguard replay``: re-evaluate a trace log with another config; diff and HTML report."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    evaluate_all,
    refuse_overwriting_input,
    scale_options,
)
from ragguard.cli._gates import RunChecks, gate_options
from ragguard.cli._selfcal import self_calibrated
from ragguard.errors import RagguardError

if TYPE_CHECKING:
    from ragguard.config import Config
    from ragguard.runtime.log_record import LoggedTrace
    from ragguard.schema import Evaluation, Trace


def add_to(commands: Any) -> None:
    replay = commands.add_parser(
        "replay", help="re-evaluate a trace log with another config; diff and HTML report"
    )
    replay.add_argument("logs", nargs="+", help="trace log(s), rotated backups or a glob")
    replay.add_argument("-c", "--config", help="TOML or JSON config file for the replay")
    replay.add_argument(
        "-o",
        "--out",
        "--output",
        dest="out",
        help="re-evaluations (JSONL); resumes: ids in it skip",
    )
    replay.add_argument("--report", help="write the self-contained HTML report here")
    replay.add_argument("--limit", type=int, default=None, help="replay at most N traces")
    replay.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    gate_options(replay)
    scale_options(replay)
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.config import Config
    from ragguard.runtime.jsonl import count_lines
    from ragguard.runtime.log_record import expand_logs, read_log

    paths = expand_logs(args.logs)
    for path in paths:
        if path.is_dir():
            raise RagguardError(
                f"{path} is a directory: name the log files in it, or a glob that reads "
                f"them all ('{path}/*.jsonl*')"
            )
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no such log: {', '.join(missing)}")
    for output in (args.out, args.report):
        refuse_overwriting_input([str(p) for p in paths], output)
    config = Config.coerce(args.config)
    name = args.config if isinstance(args.config, str) else None
    limit = config.limits.max_line_bytes

    def logged() -> Iterator[Trace]:
        records = read_log(paths, max_line_bytes=limit)
        return (r.trace for _, r in records if not isinstance(r, RagguardError))

    checks = RunChecks.start(args, config, [str(p) for p in paths], logged)
    args.judge_first_pass = Counter()
    lines = sum(count_lines(p) for p in paths)
    with self_calibrated(config, logged(), lines, args.judge_first_pass) as calibrated:
        args.config = calibrated  # the run proper starts from the logs' judge calibration
        return _replay(args, paths, config, name, checks)


def _replay(
    args: argparse.Namespace, paths: list[Path], config: Config, name: str | None, checks: RunChecks
) -> int:
    """The run proper: ``config`` as given is what the output records."""
    from ragguard.metrics.summary import RunSummary
    from ragguard.replay.report import ReportBuilder
    from ragguard.replay.run import Replay, check_output_config, load_done, record_output_config
    from ragguard.runtime.jsonl import count_lines

    summary = RunSummary()
    summary.add_first_pass(getattr(args, "judge_first_pass", None) or {})
    report = ReportBuilder() if args.report else None
    done, cut = load_done(Path(args.out)) if args.out else ({}, 0)
    warning = args.out and check_output_config(Path(args.out), config, resuming=bool(done))
    if warning:
        print(f"ragguard: warning: {warning}", file=sys.stderr)
    if cut:
        print(f"removed a partial last line ({cut} bytes) from {args.out}", file=sys.stderr)
    limits = config.limits
    replay = Replay(paths, done, args.limit, report.add if report else lambda *_: None)
    replay.max_line_bytes = limits.max_line_bytes
    total = max(sum(count_lines(p) for p in paths) - len(done), 0)

    def add(logged: LoggedTrace | None, evaluation: Evaluation) -> None:
        if report is not None and logged is not None:
            report.add(logged, evaluation)
        checks.on_evaluation(evaluation)

    try:
        text = evaluate_all(
            args,
            summary,
            entries=replay.entries(),
            paths=[str(p) for p in paths],
            replay=replay,
            total=total if args.limit is None else min(total, args.limit),
            out=(args.out, "a"),
            on_evaluation=add,
            on_skipped=checks.on_skipped,
        )
    finally:  # lines may have been appended, even by a run cut short
        if args.out and Path(args.out).exists():
            record_output_config(Path(args.out), config, name)
    gates, status = checks.finish(summary)
    if summary.evaluated or not replay.resumed:  # a summary of this run's traces, if any
        print(text + gates)
    elif gates:
        print(gates.lstrip())
    if replay.resumed:
        print(f"\nresumed: skipped {replay.resumed} traces already replayed in {args.out}")
    if replay.superseded:
        print(f"skipped {replay.superseded} earlier records of traces logged again later")
    if args.out:
        print(f"wrote {summary.evaluated} evaluations to {args.out}")
    if report is not None:
        meta = {
            "logs": ", ".join(str(p) for p in paths),
            "replay config": name or "defaults",
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        html = report.render(title="ragguard replay report", meta=meta)
        Path(args.report).write_text(html, encoding="utf-8")
        print(f"wrote the report to {args.report}")
    if args.junit:
        print(f"wrote the JUnit report to {args.junit}")
    return status or (EXIT_SKIPPED if summary.failed else EXIT_OK)  # as evaluate
