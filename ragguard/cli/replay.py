"""``ragguard replay``: re-evaluate a trace log with another config; diff and HTML report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragguard.cli._batch import BatchRun, RunOptions, run_exit_status
from ragguard.cli._common import refuse_overwriting_input, scale_options
from ragguard.cli._gates import gate_options
from ragguard.errors import RagguardError

if TYPE_CHECKING:
    from ragguard.config import Config
    from ragguard.replay import ReportBuilder
    from ragguard.runtime import LoggedTrace
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
    from ragguard.replay import Replay, ReportBuilder, load_done
    from ragguard.runtime import count_lines, read_log

    options = RunOptions.from_args(args)
    out: str | None = args.out
    report_path: str | None = args.report
    limit_traces: int | None = args.limit
    paths = _log_paths(args.logs)
    for output in (out, report_path):
        refuse_overwriting_input([str(p) for p in paths], output)

    def logged(config: Config) -> Iterator[Trace]:
        records = read_log(paths, max_line_bytes=config.limits.max_line_bytes)
        return (r.trace for _, r in records if not isinstance(r, RagguardError))

    batch = BatchRun.start(options, [str(p) for p in paths], logged)
    lines = sum(count_lines(p) for p in paths)
    with batch.calibrated(logged(batch.config), lines) as (calibrated, summary):
        report = ReportBuilder() if report_path else None
        done, cut = load_done(Path(out)) if out else ({}, 0)
        if out:
            batch.warn_output(out, resuming=bool(done))
        if cut:
            print(f"removed a partial last line ({cut} bytes) from {out}", file=sys.stderr)
        replay = Replay(paths, done, limit_traces, report.add if report else lambda *_: None)
        replay.max_line_bytes = batch.config.limits.max_line_bytes
        total = max(sum(count_lines(p) for p in paths) - len(done), 0)

        def add(logged: LoggedTrace | None, evaluation: Evaluation) -> None:
            if report is not None and logged is not None:
                report.add(logged, evaluation)

        text, gates, status = batch.evaluate(
            calibrated,
            summary,
            entries=replay.entries(),
            replay=replay,
            total=total if limit_traces is None else min(total, limit_traces),
            out=(out, "a"),
            on_evaluation=add,
        )
        if summary.evaluated or not replay.resumed:  # a summary of this run's traces, if any
            print(text + gates)
        elif gates:
            print(gates.lstrip())
        if replay.resumed:
            print(f"\nresumed: skipped {replay.resumed} traces already replayed in {out}")
        if replay.superseded:
            print(f"skipped {replay.superseded} earlier records of traces logged again later")
        if out:
            print(f"wrote {summary.evaluated} evaluations to {out}")
        if report is not None and report_path is not None:
            _write_report(report, report_path, paths, batch.name)
        if options.junit:
            print(f"wrote the JUnit report to {options.junit}")
        return run_exit_status(summary, status)  # as evaluate


def _log_paths(patterns: list[str]) -> list[Path]:
    """The log files ``patterns`` name (rotated backups, globs), each one a file."""
    from ragguard.runtime import expand_logs

    paths = expand_logs(patterns)
    for path in paths:
        if path.is_dir():
            raise RagguardError(
                f"{path} is a directory: name the log files in it, or a glob that reads "
                f"them all ('{path}/*.jsonl*')"
            )
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no such log: {', '.join(missing)}")
    return paths


def _write_report(
    report: ReportBuilder, path: str, logs: list[Path], config_name: str | None
) -> None:
    meta = {
        "logs": ", ".join(str(p) for p in logs),
        "replay config": config_name or "defaults",
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    html = report.render(title="ragguard replay report", meta=meta)
    Path(path).write_text(html, encoding="utf-8")
    print(f"wrote the report to {path}")
