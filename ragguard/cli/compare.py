"""``ragguard compare BASE NEW``: two results files of the same traces, metric by metric
with a paired 95% interval, span verdicts paired, the traces whose verdict changed; exit 3
when NEW is worse beyond the interval on a ``--fail-if-worse`` metric. Loads no model."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragguard.cli._common import EXIT_GATE, EXIT_OK
from ragguard.errors import GateError

if TYPE_CHECKING:
    from ragguard.replay import Comparison, StoredEvaluations


def add_to(commands: Any) -> None:
    compare = commands.add_parser(
        "compare",
        help="compare two results files of the same traces: paired differences, 95%% intervals",
    )
    compare.add_argument("base", help="results of the current config (evaluate -o, replay -o)")
    compare.add_argument("new", help="results of the candidate, over the same traces")
    compare.add_argument(
        "--fail-if-worse",
        action="append",
        default=[],
        metavar="METRIC",
        help="exit 3 when NEW is worse than BASE on METRIC beyond the 95%% interval "
        "(repeatable), e.g. unsupported_span_rate",
    )
    compare.add_argument("--markdown", action="store_true", help="Markdown tables (a PR comment)")
    compare.add_argument("--top", type=int, default=20, help="changed traces to list (default 20)")
    compare.add_argument("--resamples", type=int, default=2000, help="bootstrap draws (2000)")
    compare.add_argument("--seed", type=int, default=0, help="the bootstrap's random seed")
    compare.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.metrics import WORSE_WHEN, known_metric
    from ragguard.replay import compare

    watched = [known_metric(name, tuple(WORSE_WHEN)) for name in args.fail_if_worse]
    for name in watched:
        if WORSE_WHEN[name] is None:
            raise GateError(f"--fail-if-worse {name}: {name} is neither better nor worse higher")
    if args.resamples < 100:
        raise GateError("--resamples: at least 100 draws make a 95% interval")
    sides = [read_results(Path(path)) for path in (args.base, args.new)]
    result = compare(
        sides[0][0],
        sides[1][0],
        names=(args.base, args.new),
        resamples=args.resamples,
        seed=args.seed,
    )
    if not result.paired:
        raise ValueError(_no_pairs(args.base, args.new, sides[0][0], sides[1][0]))
    worse = []
    for name in watched:
        change = result.metric(name)
        if change.low is None:
            raise GateError(
                f"--fail-if-worse {name}: not computed on both sides "
                f"({name} is n/a in {args.base if change.base is None else args.new})"
            )
        if change.verdict == "worse":
            worse.append(change)
    print(render(result, markdown=args.markdown, top=args.top, repeated=(sides[0][1], sides[1][1])))
    for change in worse:
        print(
            f"ragguard: {change.metric} is worse in {args.new}: {change.base:.3f} -> "
            f"{change.new:.3f}, 95% interval of the difference "
            f"{change.low:+.3f} to {change.high:+.3f}",
            file=sys.stderr,
        )
    return EXIT_GATE if worse else EXIT_OK


def _no_pairs(base: str, new: str, a: Mapping[str, object], b: Mapping[str, object]) -> str:
    """Why nothing was compared: no trace id is in both files (exit 2, whatever the gates)."""
    from ragguard.replay import plain_text

    shown = ", ".join(plain_text(i) for i in list(a)[:2]) or "none"
    other = ", ".join(plain_text(i) for i in list(b)[:2]) or "none"
    return (
        f"no trace is in both files, nothing to compare: {base} has {len(a)} trace ids "
        f"(e.g. {shown}), {new} has {len(b)} (e.g. {other}); compare pairs results by "
        "trace_id, so run both over the same traces file"
    )


def read_results(path: Path) -> tuple[StoredEvaluations, int]:
    """Evaluations by trace id (the last record of a repeated id), from a results file or a
    trace log (each record's live evaluation), held compressed; and how many earlier
    records were repeated."""
    from pydantic import ValidationError

    from ragguard.errors import TraceValidationError
    from ragguard.replay import StoredEvaluations
    from ragguard.runtime import read_jsonl
    from ragguard.schema import Evaluation

    if not path.is_file():
        raise FileNotFoundError(f"no such results file: {path}")
    found = StoredEvaluations()
    repeated = 0
    for number, data in read_jsonl(path):
        if isinstance(data, TraceValidationError):
            raise ValueError(f"{path} line {number}: {data}")
        record = data.get("evaluation") if "spans" not in data else data
        try:
            evaluation = Evaluation.model_validate(record)
        except ValidationError as error:
            raise ValueError(
                f"{path} line {number} is not an evaluation (evaluate -o or replay -o writes "
                f"them): {error.errors()[0]['msg']}"
            ) from None
        repeated += evaluation.trace_id in found
        found.put(evaluation)
    return found, repeated


def _number(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def render(result: Comparison, *, markdown: bool, top: int, repeated: tuple[int, int]) -> str:
    """The comparison as plain text or Markdown."""
    from ragguard.metrics import markdown_table
    from ragguard.replay import markdown_text, plain_text

    rows = _metric_rows(result)
    changes = [
        {
            "trace": change.trace_id,
            "base": change.base,
            "new": change.new,
            "spans changed": change.spans_changed,
        }
        for change in result.traces[:top]
    ]
    text = markdown_text if markdown else plain_text  # file names and trace ids are the user's
    lines = _header(result, text, repeated)
    span_line, moved = _span_changes(result)
    heading = f"traces whose verdict changed, worst first: {len(result.traces)}"
    if len(result.traces) > top:
        heading += f" (the first {top} listed)"
    columns = ["metric", "base", "new", "difference", "95% interval", "verdict"]
    trace_columns = ["trace", "base", "new", "spans changed"]
    changes = [{k: text(v) if isinstance(v, str) else v for k, v in r.items()} for r in changes]
    if markdown:
        parts = ["\n".join(f"{line}  " for line in lines), markdown_table(rows, columns)]
        parts += [span_line + ("  \n" + "; ".join(moved) if moved else "")]
        parts += [f"**{heading}**"] + ([markdown_table(changes, trace_columns)] if changes else [])
        return "\n\n".join(parts)
    parts = ["\n".join(lines), _plain_table(rows, columns), span_line]
    parts += ["  " + "\n  ".join(moved)] if moved else []
    parts += [heading] + ([_plain_table(changes, trace_columns)] if changes else [])
    return "\n\n".join(parts)


def _metric_rows(result: Comparison) -> list[dict[str, str]]:
    """One row per metric: both sides, the difference, its interval and the verdict."""
    return [
        {
            "metric": m.metric,
            "base": _number(m.base),
            "new": _number(m.new),
            "difference": _number(m.difference, signed=True),
            "95% interval": "n/a" if m.low is None else f"{m.low:+.3f} to {m.high:+.3f}",
            "verdict": m.verdict,
        }
        for m in result.metrics
    ]


def _header(result: Comparison, text: Callable[[str], str], repeated: tuple[int, int]) -> list[str]:
    """What was compared with what, and how the interval is drawn."""
    lines = [
        f"BASE {text(result.base_name)}  vs  NEW {text(result.new_name)}",
        f"traces compared: {result.paired} in both files; only in BASE: "
        f"{_listed(result.only_base, text)}; only in NEW: {_listed(result.only_new, text)}",
    ]
    if any(repeated):
        lines.append(
            f"repeated trace ids (the last record counts): {repeated[0]} in BASE, "
            f"{repeated[1]} in NEW"
        )
    lines.append(
        f"interval: 95% paired bootstrap over traces ({result.resamples:,} draws, expanded "
        "percentile); 'worse' and 'better' only when it excludes 0"
    )
    return lines


def _span_changes(result: Comparison) -> tuple[str, list[str]]:
    """(the paired spans' line, each verdict move with its count, most first)."""
    from ragguard.replay import ABSENT

    base_only, new_only = result.unmatched
    moves = sorted(
        ((a, b, n) for (a, b), n in result.spans.transitions.items() if a != b),
        key=lambda move: -move[2],
    )
    spans_paired = sum(n for (a, b), n in result.spans.transitions.items() if ABSENT not in (a, b))
    flipped = sum(n for a, b, n in moves if ABSENT not in (a, b))
    span_line = (
        f"spans paired by (trace, start, end): {spans_paired}; only in BASE {base_only}, only in "
        f"NEW {new_only}; verdict changed: {flipped}"
    )
    return span_line, [f"{a} -> {b}: {n}" for a, b, n in moves]


def _listed(ids: list[str], text: Callable[[str], str], shown: int = 5) -> str:
    if not ids:
        return "0"
    more = f", +{len(ids) - shown} more" if len(ids) > shown else ""
    return f"{len(ids)} ({', '.join(text(i) for i in ids[:shown])}{more})"


def _plain_table(rows: Sequence[Mapping[str, object]], columns: list[str]) -> str:
    widths = [max(len(c), *(len(str(r[c])) for r in rows)) for c in columns]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))]
    lines += [
        "  ".join(str(r[c]).ljust(w) for c, w in zip(columns, widths, strict=True)) for r in rows
    ]
    return "\n".join(line.rstrip() for line in lines)
