"""Command line: ``ragguard evaluate``, ``replay``, ``benchmark``, ``train`` and ``judge-bench``."""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from tqdm.auto import tqdm

from ragguard.errors import RagguardError, TraceValidationError
from ragguard.scoring.checks import CONTRADICTIONS

if TYPE_CHECKING:
    from ragguard.engine import Outcome
    from ragguard.io import LoggedTrace
    from ragguard.judge.bench import Case
    from ragguard.metrics.summary import RunSummary
    from ragguard.parallel import Runner
    from ragguard.ray_engine import RayRun
    from ragguard.replay.run import Replay
    from ragguard.schema import Evaluation, Trace

T = TypeVar("T")


def _tally(
    outcomes: Iterable[tuple[str, Outcome, T]],
    *,
    total: int | None,
    summary: RunSummary,
    desc: str,
) -> Iterator[tuple[T, Evaluation]]:
    """Count (where, outcome, tag) triples behind a progress bar: yield (tag, evaluation);
    errors are reported with where they came from and counted."""
    with tqdm(total=total, unit="trace", desc=desc, disable=None) as bar:
        for where, outcome, tag in outcomes:
            bar.update(1)
            if isinstance(outcome, RagguardError):
                summary.failed += 1
                prefix = "" if where in str(outcome) else f"{where}: "
                tqdm.write(f"skipped {prefix}{outcome}", file=sys.stderr)
                continue
            summary.add(outcome)
            yield tag, outcome


def _outcomes(
    runner: Runner, entries: Iterable[tuple[str, Trace | RagguardError, T]], batch_size: int | None
) -> Iterator[tuple[str, Outcome, T]]:
    """Evaluate (where, trace or error, tag) entries in batches, in order."""
    pending: collections.deque[tuple[str, T]] = collections.deque()

    def inputs() -> Iterator[Trace | RagguardError]:
        for where, entry, tag in entries:
            pending.append((where, tag))
            yield entry

    for outcome in runner.evaluate_stream(inputs(), batch_size=batch_size):
        where, tag = pending.popleft()
        yield where, outcome, tag


@contextlib.contextmanager
def _runner(args: argparse.Namespace) -> Iterator[tuple[Runner, str]]:
    """This process's Guard, or ``--workers`` processes; with how the run was spread."""
    from ragguard.config import Config
    from ragguard.guard import Guard
    from ragguard.parallel import WorkerPool

    if (args.workers or 1) <= 1:
        yield Guard(args.config), "1 process"
        return
    with WorkerPool(Config.coerce(args.config), args.workers) as pool:
        yield pool, f"{args.workers} worker processes, in parallel"


EXIT_OK = 0
"""Every line was evaluated (or there was none)."""
EXIT_SKIPPED = 1
"""Some lines were skipped (bad input, a limit, a duplicate trace_id, a failed evaluation);
each was reported with its line number, and every other trace was written."""
EXIT_ERROR = 2
"""The run stopped: bad arguments or config, a model that cannot load, unreadable input,
an output path that is the input. An existing output file is left as it was."""


@contextlib.contextmanager
def _jsonl_sink(path: str | None, mode: str) -> Iterator[Callable[[Evaluation], object]]:
    """A writer of one evaluation per line to ``path`` (a no-op without one). Mode ``a``
    appends line by line (an interrupted run leaves at most a partial last line); mode ``w``
    writes a temporary file beside ``path`` and renames it over ``path`` only when the run
    finishes, so a run that fails (a model that cannot load) leaves ``path`` as it was."""
    if path is None:
        yield lambda evaluation: None
        return
    if mode == "a":
        with open(path, mode, encoding="utf-8", buffering=1) as out:
            yield lambda evaluation: out.write(evaluation.model_dump_json() + "\n")
        return
    with _replaced_on_success(Path(path)) as out:
        yield lambda evaluation: out.write(evaluation.model_dump_json() + "\n")


@contextlib.contextmanager
def _replaced_on_success(path: Path) -> Iterator[IO[str]]:
    """A temporary text file beside ``path`` that replaces it (atomically, by rename) when
    the block ends without an exception, and is removed otherwise."""
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed or removed below)
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def _refuse_overwriting_input(inputs: Sequence[str], output: str | None) -> None:
    """An output path naming an input file would destroy the input: a usage error."""
    if output is None:
        return
    for name in inputs:
        if Path(output).exists() and Path(name).exists() and os.path.samefile(output, name):
            raise RagguardError(f"the output {output!r} is the input {name!r}; choose another path")


def _unique_ids(
    entries: Iterable[tuple[int, Trace | TraceValidationError]],
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """The entries with every repeat of an earlier trace_id made an error naming the first
    line: results are keyed by trace_id (``replay`` resumes by it), so a repeat is ambiguous."""
    first: dict[str, int] = {}
    for line, entry in entries:
        if isinstance(entry, TraceValidationError):
            yield line, entry
            continue
        seen = first.setdefault(entry.trace_id, line)
        if seen == line:
            yield line, entry
        else:
            message = f"repeats the trace_id of line {seen}"
            yield (
                line,
                TraceValidationError("trace_id", message, trace_id=entry.trace_id, line=line),
            )


def _run(
    args: argparse.Namespace,
    summary: RunSummary,
    *,
    entries: Iterable[tuple[str, Trace | RagguardError, LoggedTrace | None]],
    paths: Sequence[str],
    replay: Replay | None,
    total: int | None,
    out: tuple[str | None, str],
    on_evaluation: Callable[[LoggedTrace | None, Evaluation], object],
) -> str:
    """Evaluate ``entries`` in this process or ``--workers`` processes, or ``paths`` on Ray;
    write each evaluation to ``out`` (path, file mode) in input order; the summary."""
    with contextlib.ExitStack() as stack:
        if args.engine == "ray":
            RayRun = _ray_run()
            run = stack.enter_context(RayRun(args, paths, replay))
            load_s, how, outcomes = 0.0, run.description, run.outcomes()
        else:
            runner, how = stack.enter_context(_runner(args))
            load_s, outcomes = runner.load(), _outcomes(runner, entries, args.batch_size)
        desc = "evaluating" if replay is None else "replaying"
        started = time.perf_counter()
        with _jsonl_sink(*out) as write:
            for tag, evaluation in _tally(outcomes, total=total, summary=summary, desc=desc):
                write(evaluation)
                on_evaluation(tag, evaluation)
        eval_s = time.perf_counter() - started
        if args.engine == "ray":
            load_s, eval_s = run.timings()
    return summary.render(load_s, eval_s, how)


def _ray_run() -> type[RayRun]:
    try:
        from ragguard.ray_engine import RayRun
    except ImportError as error:
        if (error.name or "").split(".")[0] != "ray":
            raise
        raise RagguardError("--engine ray needs Ray: pip install 'ragguard[ray]'") from None
    return RayRun


def _evaluate(args: argparse.Namespace) -> int:
    from ragguard.config import Config
    from ragguard.io import count_lines, read_traces
    from ragguard.metrics.summary import RunSummary

    _refuse_overwriting_input([args.traces], args.output)
    limits = Config.coerce(args.config).limits
    summary = RunSummary()
    traces = read_traces(args.traces, max_line_bytes=limits.max_line_bytes)
    text = _run(
        args,
        summary,
        entries=((f"line {n}", entry, None) for n, entry in _unique_ids(traces)),
        paths=[args.traces],
        replay=None,
        total=count_lines(args.traces) if Path(args.traces).is_file() else None,
        out=(args.output, "w"),
        on_evaluation=lambda tag, evaluation: None,
    )
    print(text)
    if args.output:
        print(f"\nwrote {summary.evaluated} evaluations to {args.output}")
    return EXIT_SKIPPED if summary.failed else EXIT_OK


def _replay(args: argparse.Namespace) -> int:
    from ragguard.io import count_lines, expand_logs
    from ragguard.metrics.summary import RunSummary
    from ragguard.replay.report import ReportBuilder
    from ragguard.replay.run import Replay, load_done

    paths = expand_logs(args.logs)
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no such log: {', '.join(missing)}")
    for output in (args.out, args.report):
        _refuse_overwriting_input([str(p) for p in paths], output)
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

    text = _run(
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
    from ragguard.scoring.embeddings import TextEmbedder
    from ragguard.train.lite import train_lite

    validation = train_lite(
        args.role,
        Path(args.data_dir) if args.data_dir else None,
        Path(args.out),
        labels=[Path(path) for path in args.labels],
        per_source=args.per_source,
        seed=args.seed,
        sources=args.sources,
        features=args.features,
        hidden=args.hidden,
        pairwise=not args.no_pairwise,
        edits=args.edits,
        veto=args.veto,
        embedder=TextEmbedder(args.embedding_model) if args.embedding_model else None,
    ).validation
    print(f"wrote {args.out} and its model card {Path(args.out).with_suffix('.md')}")
    for key, value in validation.items():
        print(f"  validation {key}: {value}")
    return 0


def _benchmark(args: argparse.Namespace) -> int:
    from ragguard.guard import Guard
    from ragguard.io import read_traces
    from ragguard.reference.score import score_references
    from ragguard.reference.tables import render
    from ragguard.schema import Trace

    _refuse_overwriting_input([args.golden], args.output)
    guard = Guard(args.config)
    entries = list(read_traces(args.golden))
    outcomes = guard.evaluate_stream(entry for _, entry in entries)
    evaluated = []
    for (line, trace), outcome in zip(entries, outcomes, strict=True):
        if isinstance(outcome, RagguardError) or not isinstance(trace, Trace):
            print(f"skipped line {line}: {outcome}", file=sys.stderr)
        else:
            evaluated.append((trace, outcome))
    scores = score_references(evaluated, guard.evaluator, pipeline_field=args.pipeline_field)
    if args.output:
        with _replaced_on_success(Path(args.output)) as out:
            out.writelines(score.model_dump_json() + "\n" for score in scores)
    print(render(scores))
    if args.output:
        print(f"\nwrote {len(scores)} trace results to {args.output}")
    return 0 if scores else 1


def _devsets(data: Path) -> dict[str, list[Case]]:
    """WiCE dev and Factcheck-GPT through ``benchmarks/devsets.py`` of a source checkout:
    the dev-set readers live there only, so they cannot leak into training."""
    import importlib.util

    import ragguard
    from ragguard.judge.bench import Case

    path = Path(ragguard.__file__).resolve().parent.parent / "benchmarks" / "devsets.py"
    spec = importlib.util.spec_from_file_location("ragguard_devsets", path)
    if spec is None or spec.loader is None or not path.is_file():
        raise FileNotFoundError(f"judge-bench reads the dev sets with {path} (a source checkout)")
    devsets = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = devsets  # its dataclasses look their module up there
    spec.loader.exec_module(devsets)
    return {
        name: [Case(c.claim, c.evidence, c.label) for c in reader(data)]
        for name, reader in (("wice-dev", devsets.wice), ("factcheck-gpt", devsets.factcheck_gpt))
    }


def _judge_bench(args: argparse.Namespace) -> int:
    import random

    from ragguard.config import Config
    from ragguard.engine import Evaluator
    from ragguard.judge.bench import bench_set, render

    config = Config.from_file(args.config) if args.config else Config()
    if config.judge.backend == "none":
        raise ValueError('judge-bench needs a [judge] section with backend = "openai"')
    evaluator = Evaluator(config)
    cascade = evaluator.judge
    assert cascade is not None
    rows = []
    for name, cases in _devsets(Path(args.data)).items():
        if args.limit is not None and args.limit < len(cases):
            cases = random.Random(args.seed).sample(cases, args.limit)
        rows.append(bench_set(name, cases, evaluator.support_scorer, cascade))
    print(render(rows, config.judge.model, config.judge.band))
    return 0


def _scale_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes on this machine, each with its own models (default 1); "
        "with --engine ray: actors (default: one per CPU of the cluster)",
    )
    command.add_argument(
        "--engine",
        choices=["local", "ray"],
        default="local",
        help="ray: read with Ray Data, evaluate on an actor pool (needs ragguard[ray])",
    )
    command.add_argument(
        "--ray-address", help="Ray cluster to join (default: RAY_ADDRESS, else a local one)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragguard", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    evaluate = commands.add_parser("evaluate", help="evaluate a JSONL file of traces")
    evaluate.add_argument("traces", help="JSONL file, one trace per line")
    evaluate.add_argument("-o", "--output", help="write one evaluation per line here")
    evaluate.add_argument("-c", "--config", help="TOML or JSON config file")
    evaluate.add_argument("--batch-size", type=int, default=None, help="traces per batch")
    _scale_options(evaluate)
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
    _scale_options(replay)
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
        "and OUT with a .md suffix (the model card). Train on your own labels (--labels), "
        "on the training sets (--data), or both mixed.",
    )
    train.add_argument("role", choices=["support", "relevance"])
    train.add_argument(
        "--labels",
        nargs="+",
        default=[],
        metavar="FILE",
        help='your labels, JSONL: {"claim", "evidence", "label"} per line for support, '
        '{"query", "passage", "label"} for relevance; label 1 or 0',
    )
    train.add_argument(
        "--data",
        "--data-dir",
        dest="data_dir",
        help="folder of the training sets named in the model cards (e.g. snli/, selqa-ass/)",
    )
    train.add_argument("--out", required=True, help="head JSON to write")
    train.add_argument(
        "--embedding-model",
        help="the sentence-transformers model (hub id or path) the head's features come from: "
        "the config's embedding_model (default: the bundled int8 MiniLM)",
    )
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

    judge = commands.add_parser(
        "judge-bench",
        help="lite, LLM judge and cascade on the dev sets, against the configured endpoint",
    )
    judge.add_argument("-c", "--config", required=True, help="config with a [judge] section")
    judge.add_argument(
        "--data", required=True, help="folder with the dev sets (WiCE, Factcheck-GPT)"
    )
    judge.add_argument("--limit", type=int, default=None, help="pairs drawn per dev set")
    judge.add_argument("--seed", type=int, default=0, help="which pairs --limit draws")
    judge.set_defaults(run=_judge_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (RagguardError, OSError, ValueError) as error:
        print(f"ragguard: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("ragguard: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bug: one line, not a traceback (RAGGUARD_DEBUG=1 shows it)
        if os.environ.get("RAGGUARD_DEBUG"):
            raise
        print(f"ragguard: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
