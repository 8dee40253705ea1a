"""``ragguard judge-bench``: the lite verdicts, the LLM judge and the cascade, side by side."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ragguard.config import Config
    from ragguard.judge import Case


def add_to(commands: Any) -> None:
    judge = commands.add_parser(
        "judge-bench",
        help="lite, LLM judge and cascade on labelled sets, against the configured endpoint",
    )
    judge.add_argument("-c", "--config", required=True, help="config with a [judge] section")
    judge.add_argument(
        "--labels",
        nargs="+",
        default=[],
        metavar="FILE",
        help="labelled JSONL (the format ragguard calibrate and train read), a row per file",
    )
    judge.add_argument("--limit", type=int, default=None, help="pairs drawn per set")
    judge.add_argument("--seed", type=int, default=0, help="which pairs --limit draws")
    judge.set_defaults(run=run)


def _labelled(path: Path) -> list[Case]:
    """Each labelled span of a labelled file, against its trace's items."""
    from ragguard.calibration import read_labelled
    from ragguard.judge import Case

    cases: list[Case] = []
    for entry in read_labelled(path):
        if isinstance(entry, Exception):
            print(f"skipped {path.name}: {entry}", file=sys.stderr)
            continue
        cases.extend(Case(*claim) for claim in entry.claims())
    return cases


def run(args: argparse.Namespace) -> int:
    from ragguard.config import Config

    config = Config.from_file(args.config) if args.config else Config()
    if not args.labels:
        raise ValueError("judge-bench needs --labels FILE (labelled JSONL), once per set")
    sets = {Path(path).name: _labelled(Path(path)) for path in args.labels}
    print(bench_report(config, sets, limit=args.limit, seed=args.seed))
    return 0


def bench_report(
    config: Config, sets: dict[str, list[Case]], *, limit: int | None = None, seed: int = 0
) -> str:
    """The judge-bench table over named sets of (claim, evidence, label) cases: lite, the
    judge alone and the cascade. ``benchmarks/judge_devsets.py`` gives it the dev sets."""
    import random

    from ragguard.evaluation import Models
    from ragguard.judge import bench_set

    if config.judge.backend == "none":
        raise ValueError('judge-bench needs a [judge] section with backend = "openai"')
    models = Models.build(config)
    cascade = models.judge
    assert cascade is not None
    rows = []
    for name, cases in sets.items():
        if limit is not None and limit < len(cases):
            cases = random.Random(seed).sample(cases, limit)
        rows.append(bench_set(name, cases, models.support_scorer, cascade))
    return bench_table(rows, config.judge.model, config.judge.band)


BENCH_COLUMNS = (
    "set",
    "n",
    "lite",
    "judge",
    "cascade",
    "sent",
    "unanswered",
    "judge_tokens",
    "cascade_tokens",
    "tokens_per_call",
)


def bench_table(rows: Sequence[dict[str, Any]], model: str, band: tuple[float, float]) -> str:
    """The judge bench as a markdown table: balanced accuracy of each tier, share sent,
    tokens."""
    from ragguard.metrics import markdown_table

    title = (
        f"judge model {model}, band {list(band)}: balanced accuracy per tier; 'sent' is the "
        "share of pairs in the band (sent to the judge by the cascade)"
    )
    return f"{title}\n\n{markdown_table(rows, BENCH_COLUMNS)}"
