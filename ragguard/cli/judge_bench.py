"""``ragguard judge-bench``: the lite verdicts, the LLM judge and the cascade, side by side."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ragguard.judge.bench import Case


def add_to(commands: Any) -> None:
    judge = commands.add_parser(
        "judge-bench",
        help="lite, LLM judge and cascade on the dev sets, against the configured endpoint",
    )
    judge.add_argument("-c", "--config", required=True, help="config with a [judge] section")
    judge.add_argument(
        "--labels",
        nargs="+",
        default=[],
        metavar="FILE",
        help="labelled JSONL (the format ragguard calibrate and train read), a row per file",
    )
    judge.add_argument(
        "--data", help="folder with the dev sets (WiCE, Factcheck-GPT; a source checkout)"
    )
    judge.add_argument("--limit", type=int, default=None, help="pairs drawn per dev set")
    judge.add_argument("--seed", type=int, default=0, help="which pairs --limit draws")
    judge.set_defaults(run=run)


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


def _labelled(path: Path) -> list[Case]:
    """Each labelled span of a labelled file, against its trace's items."""
    from ragguard.calibration.labels import read_labelled
    from ragguard.judge.bench import Case

    cases: list[Case] = []
    for entry in read_labelled(path):
        if isinstance(entry, Exception):
            print(f"skipped {path.name}: {entry}", file=sys.stderr)
            continue
        cases.extend(Case(*claim) for claim in entry.claims())
    return cases


def run(args: argparse.Namespace) -> int:
    import random

    from ragguard.config import Config
    from ragguard.evaluation.evaluator import Evaluator
    from ragguard.judge.bench import bench_set, render

    config = Config.from_file(args.config) if args.config else Config()
    if config.judge.backend == "none":
        raise ValueError('judge-bench needs a [judge] section with backend = "openai"')
    evaluator = Evaluator(config)
    cascade = evaluator.judge
    assert cascade is not None
    if not args.labels and not args.data:
        raise ValueError("judge-bench needs --labels FILE (labelled JSONL) or --data DIR")
    sets = {Path(path).name: _labelled(Path(path)) for path in args.labels}
    if args.data:
        sets.update(_devsets(Path(args.data)))
    rows = []
    for name, cases in sets.items():
        if args.limit is not None and args.limit < len(cases):
            cases = random.Random(args.seed).sample(cases, args.limit)
        rows.append(bench_set(name, cases, evaluator.support_scorer, cascade))
    print(render(rows, config.judge.model, config.judge.band))
    return 0
