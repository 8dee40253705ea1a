"""Typed run options: argparse stays in ``cli/``; ``evaluate`` and ``replay`` read their
options into one frozen ``RunOptions``."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import ragguard
from ragguard.cli import build_parser
from ragguard.cli._batch import RunOptions

PACKAGE = Path(ragguard.__file__).parent


def _namespace_parameters(path: Path) -> list[str]:
    """The parameters of ``path``'s functions annotated as an argparse ``Namespace``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
            found += [
                f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}({a.arg})"
                for a in arguments
                if a.annotation is not None and "Namespace" in ast.unparse(a.annotation)
            ]
    return found


def test_nothing_below_cli_takes_a_namespace() -> None:
    below = [p for p in PACKAGE.rglob("*.py") if "cli" not in p.relative_to(PACKAGE).parts]
    assert [hit for path in below for hit in _namespace_parameters(path)] == []


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "t.jsonl", "-c", "c.toml", "--workers", "3", "--fail-over", "x=1"],
        ["replay", "a.jsonl", "b.jsonl", "--runner", "ray", "--junit", "j.xml"],
    ],
)
def test_evaluate_and_replay_read_one_frozen_options_object(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    options = RunOptions.from_args(args)
    assert options.config == args.config and options.workers == args.workers
    assert options.runner == args.runner and options.junit == args.junit
    assert options.fail_over == tuple(args.fail_over)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.workers = 9  # type: ignore[misc]
