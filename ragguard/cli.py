"""Command line: ``ragguard evaluate``, ``replay``, ``benchmark`` and ``train``."""

from __future__ import annotations

import argparse
import collections
import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from tqdm.auto import tqdm

from ragguard.errors import RagguardError
from ragguard.scoring.checks import CONTRADICTIONS

if TYPE_CHECKING:
    from ragguard.guard import Guard
    from ragguard.metrics.summary import RunSummary
    from ragguard.schema import Evaluation, Trace

T = TypeVar("T")


def _stream(
    guard: Guard,
    entries: Iterable[tuple[str, Trace | RagguardError, T]],
    *,
    total: int | None,
    batch_size: int | None,
    summary: RunSummary,
    desc: str = "evaluating",
) -> Iterator[tuple[T, Evaluation]]:
    """Evaluate (where, trace or error, tag) entries in batches behind a progress bar:
    yield (tag, evaluation); bad entries are reported with where they came from and counted."""
    pending: collections.deque[tuple[str, T]] = collections.deque()

    def inputs() -> Iterator[Trace | RagguardError]:
        for where, entry, tag in entries:
            pending.append((where, tag))
            yield entry

    with tqdm(total=total, unit="trace", desc=desc, disable=None) as bar:
        for outcome in guard.evaluate_stream(inputs(), batch_size=batch_size):
            where, tag = pending.popleft()
            bar.update(1)
            if isinstance(outcome, RagguardError):
                summary.failed += 1
                prefix = "" if where in str(outcome) else f"{where}: "
                tqdm.write(f"skipped {prefix}{outcome}", file=sys.stderr)
                continue
            summary.add(outcome)
            yield tag, outcome


@contextlib.contextmanager
def _jsonl_sink(path: str | None, mode: str) -> Iterator[Callable[[Evaluation], object]]:
    """A writer of one evaluation per line to ``path`` (a no-op without one); lines go out
    whole as they come, so an interrupted run leaves at most a partial last line."""
    if path is None:
        yield lambda evaluation: None
        return
    with open(path, mode, encoding="utf-8", buffering=1) as out:
        yield lambda evaluation: out.write(evaluation.model_dump_json() + "\n")


def _evaluate(args: argparse.Namespace) -> int:
    from ragguard.guard import Guard
    from ragguard.io import count_lines, read_traces
    from ragguard.metrics.summary import RunSummary

    guard = Guard(args.config)
    summary = RunSummary()
    entries = ((f"line {n}", entry, None) for n, entry in read_traces(args.traces))
    started = time.perf_counter()
    total = count_lines(args.traces) if Path(args.traces).is_file() else None
    with _jsonl_sink(args.output, "w") as write:
        for _, evaluation in _stream(
            guard, entries, total=total, batch_size=args.batch_size, summary=summary
        ):
            write(evaluation)
    print(summary.render(time.perf_counter() - started))
    if args.output:
        print(f"\nwrote {summary.evaluated} evaluations to {args.output}")
    return 0 if summary.evaluated or not summary.failed else 1


def _replay(args: argparse.Namespace) -> int:
    from ragguard.exporters.tracelog import expand_logs
    from ragguard.guard import Guard
    from ragguard.io import count_lines
    from ragguard.metrics.summary import RunSummary
    from ragguard.replay.report import ReportBuilder
    from ragguard.replay.run import Replay, load_done

    paths = expand_logs(args.logs)
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no such log: {', '.join(missing)}")
    guard = Guard(args.config)
    summary = RunSummary()
    report = ReportBuilder() if args.report else None
    done, cut = load_done(Path(args.out)) if args.out else ({}, 0)
    if cut:
        print(f"removed a partial last line ({cut} bytes) from {args.out}", file=sys.stderr)
    replay = Replay(paths, done, args.limit, report.add if report else lambda *_: None)
    total = max(sum(count_lines(p) for p in paths) - len(done), 0)
    total = total if args.limit is None else min(total, args.limit)
    started = time.perf_counter()
    stream = _stream(
        guard,
        replay.entries(),
        total=total,
        batch_size=args.batch_size,
        summary=summary,
        desc="replaying",
    )
    with _jsonl_sink(args.out, "a") as write:
        for logged, evaluation in stream:
            write(evaluation)
            if report is not None and logged is not None:
                report.add(logged, evaluation)
    print(summary.render(time.perf_counter() - started))
    if replay.resumed:
        print(f"\nresumed: skipped {replay.resumed} traces already replayed in {args.out}")
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


def _train(args: argparse.Namespace) -> int:
    from ragguard.train.lite import train_lite

    validation = train_lite(
        args.role,
        Path(args.data_dir),
        Path(args.out),
        per_source=args.per_source,
        seed=args.seed,
        sources=args.sources,
        features=args.features,
        hidden=args.hidden,
        pairwise=not args.no_pairwise,
        edits=args.edits,
        veto=args.veto,
    ).validation
    print(f"wrote {args.out}")
    for key, value in validation.items():
        print(f"  validation {key}: {value}")
    return 0


def _benchmark(args: argparse.Namespace) -> int:
    from ragguard.guard import Guard
    from ragguard.io import read_traces
    from ragguard.metrics.reference import score_references
    from ragguard.metrics.tables import render

    guard = Guard(args.config)
    entries = list(read_traces(args.golden))
    outcomes = guard.evaluate_stream(entry for _, entry in entries)
    evaluated = []
    for (line, trace), outcome in zip(entries, outcomes, strict=True):
        if isinstance(outcome, RagguardError):
            print(f"skipped line {line}: {outcome}", file=sys.stderr)
        else:
            evaluated.append((trace, outcome))
    scores = score_references(evaluated, guard.evaluator, pipeline_field=args.pipeline_field)
    if args.output:
        Path(args.output).write_text(
            "".join(score.model_dump_json() + "\n" for score in scores), encoding="utf-8"
        )
    print(render(scores))
    if args.output:
        print(f"\nwrote {len(scores)} trace results to {args.output}")
    return 0 if scores else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragguard", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    evaluate = commands.add_parser("evaluate", help="evaluate a JSONL file of traces")
    evaluate.add_argument("traces", help="JSONL file, one trace per line")
    evaluate.add_argument("-o", "--output", help="write one evaluation per line here")
    evaluate.add_argument("-c", "--config", help="TOML or JSON config file")
    evaluate.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    evaluate.set_defaults(run=_evaluate)

    replay = commands.add_parser(
        "replay", help="re-evaluate a trace log with another config; diff and HTML report"
    )
    replay.add_argument("logs", nargs="+", help="trace log(s), rotated backups or a glob")
    replay.add_argument("-c", "--config", help="TOML or JSON config file for the replay")
    replay.add_argument("-o", "--out", help="re-evaluations (JSONL); resumes: ids in it skip")
    replay.add_argument("--report", help="write the self-contained HTML report here")
    replay.add_argument("--limit", type=int, default=None, help="replay at most N traces")
    replay.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    replay.set_defaults(run=_replay)

    benchmark = commands.add_parser(
        "benchmark", help="replay a golden set: reference-based metrics per pipeline and category"
    )
    benchmark.add_argument("golden", help="JSONL file of traces with a reference object")
    benchmark.add_argument("-c", "--config", help="TOML or JSON config file")
    benchmark.add_argument(
        "--pipeline-field",
        default="pipeline",
        help="trace field (or metadata key) naming each trace's pipeline (default: pipeline)",
    )
    benchmark.add_argument("-o", "--output", help="write each trace's metrics here (JSONL)")
    benchmark.set_defaults(run=_benchmark)

    train = commands.add_parser(
        "train",
        help="train a lite scoring head",
        description="Train a head over the lite features with RAG-Check's pairwise loss on "
        "triplets plus binary cross-entropy; writes OUT (weights JSON with the calibrated eta) "
        "and OUT with a .md suffix (the model card).",
    )
    train.add_argument("role", choices=["support", "relevance"])
    train.add_argument(
        "--data", "--data-dir", dest="data_dir", default="../shared/data", help="training sets"
    )
    train.add_argument("--out", required=True, help="head JSON to write")
    train.add_argument("--per-source", type=int, default=3000, help="pairs drawn per data set")
    train.add_argument("--sources", nargs="*", help="data sets to use (default: all for role)")
    train.add_argument("--features", nargs="*", help="feature subset (default: all for role)")
    train.add_argument("--hidden", type=int, default=0, help="MLP units; 0 = logistic")
    train.add_argument(
        "--no-pairwise", action="store_true", help="binary cross-entropy only (no triplets)"
    )
    train.add_argument(
        "--edits",
        type=float,
        default=0.5,
        help="support: share of supported pairs that also get a hard-negative edit (0: none)",
    )
    train.add_argument(
        "--veto",
        nargs="*",
        default=list(CONTRADICTIONS),
        choices=list(CONTRADICTIONS),
        help="support: checks whose firing caps support below eta (none: --veto with no value)",
    )
    train.add_argument("--seed", type=int, default=0)
    train.set_defaults(run=_train)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (RagguardError, OSError, ValueError) as error:
        print(f"ragguard: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
