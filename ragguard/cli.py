"""Command line: ``ragguard evaluate`` and ``ragguard train``."""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tqdm.auto import tqdm

from ragguard.errors import RagguardError


def _evaluate(args: argparse.Namespace) -> int:
    from ragguard.guard import Guard
    from ragguard.io import count_lines, read_traces
    from ragguard.metrics.summary import RunSummary

    guard = Guard(args.config)
    summary = RunSummary()
    lines: collections.deque[int] = collections.deque()

    def entries():
        for number, entry in read_traces(args.traces):
            lines.append(number)
            yield entry

    started = time.perf_counter()
    total = count_lines(args.traces) if Path(args.traces).is_file() else None
    out = open(args.output, "w", encoding="utf-8") if args.output else None  # noqa: SIM115
    try:
        with tqdm(total=total, unit="trace", desc="evaluating", disable=None) as bar:
            for outcome in guard.evaluate_stream(entries(), batch_size=args.batch_size):
                line = lines.popleft()
                bar.update(1)
                if isinstance(outcome, RagguardError):
                    summary.failed += 1
                    where = "" if f"line {line}" in str(outcome) else f"line {line}: "
                    tqdm.write(f"skipped {where}{outcome}", file=sys.stderr)
                    continue
                summary.add(outcome)
                if out is not None:
                    out.write(outcome.model_dump_json() + "\n")
    finally:
        if out is not None:
            out.close()
    print(summary.render(time.perf_counter() - started))
    if args.output:
        print(f"\nwrote {summary.evaluated} evaluations to {args.output}")
    return 0 if summary.evaluated or not summary.failed else 1


def _train(args: argparse.Namespace) -> int:
    from ragguard.train.lite import train_lite

    result = train_lite(
        args.role,
        Path(args.data_dir),
        Path(args.out),
        per_source=args.per_source,
        seed=args.seed,
        sources=args.sources,
        features=args.features,
        hidden=args.hidden,
    )
    print(f"wrote {args.out}")
    for key, value in result.validation.items():
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

    train = commands.add_parser("train", help="train a lite scoring head")
    train.add_argument("role", choices=["support", "relevance"])
    train.add_argument("--data-dir", default="../shared/data", help="folder of training sets")
    train.add_argument("--out", required=True, help="where to write the head JSON")
    train.add_argument("--per-source", type=int, default=4000, help="pairs drawn per data set")
    train.add_argument("--sources", nargs="*", help="data sets to use (default: all for role)")
    train.add_argument("--features", nargs="*", help="feature subset (default: all for role)")
    train.add_argument("--hidden", type=int, default=16, help="MLP units; 0 = logistic")
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
