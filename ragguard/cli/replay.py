"""``ragguard replay``: re-evaluate a trace log with another config; diff and HTML report."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragguard.cli._common import evaluate_all, refuse_overwriting_input, scale_options

if TYPE_CHECKING:
    from ragguard.io import LoggedTrace
    from ragguard.schema import Evaluation


def add_to(commands: Any) -> None:
    replay = commands.add_parser(
        "replay", help="re-evaluate a trace log with another config; diff and HTML report"
    )
    replay.add_argument("logs", nargs="+", help="trace log(s), rotated backups or a glob")
    replay.add_argument("-c", "--config", help="TOML or JSON config file for the replay")
    replay.add_argument("-o", "--out", help="re-evaluations (JSONL); resumes: ids in it skip")
    replay.add_argument("--report", help="write the self-contained HTML report here")
    replay.add_argument("--limit", type=int, default=None, help="replay at most N traces")
    replay.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    scale_options(replay)
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.io import count_lines, expand_logs
    from ragguard.metrics.summary import RunSummary
    from ragguard.replay.report import ReportBuilder
    from ragguard.replay.run import Replay, load_done

    paths = expand_logs(args.logs)
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no such log: {', '.join(missing)}")
    for output in (args.out, args.report):
        refuse_overwriting_input([str(p) for p in paths], output)
    summary = RunSummary()
    report = ReportBuilder() if args.report else None
    done, cut = load_done(Path(args.out)) if args.out else ({}, 0)
    if cut:
        print(f"removed a partial last line ({cut} bytes) from {args.out}", file=sys.stderr)
    replay = Replay(paths, done, args.limit, report.add if report else lambda *_: None)
    total = max(sum(count_lines(p) for p in paths) - len(done), 0)

    def add(logged: LoggedTrace | None, evaluation: Evaluation) -> None:
        if report is not None and logged is not None:
            report.add(logged, evaluation)

    text = evaluate_all(
        args,
        summary,
        entries=replay.entries(),
        paths=[str(p) for p in paths],
        replay=replay,
        total=total if args.limit is None else min(total, args.limit),
        out=(args.out, "a"),
        on_evaluation=add,
    )
    if summary.evaluated or not replay.resumed:  # a summary of this run's traces, if any
        print(text)
    if replay.resumed:
        print(f"\nresumed: skipped {replay.resumed} traces already replayed in {args.out}")
    if replay.superseded:
        print(f"skipped {replay.superseded} earlier records of traces logged again later")
    if args.out:
        print(f"wrote {summary.evaluated} evaluations to {args.out}")
    if report is not None:
        meta = {
            "logs": ", ".join(str(p) for p in paths),
            "replay config": args.config or "defaults",
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        html = report.render(title="ragguard replay report", meta=meta)
        Path(args.report).write_text(html, encoding="utf-8")
        print(f"wrote the report to {args.report}")
    return 0 if summary.evaluated or replay.resumed or not summary.failed else 1
