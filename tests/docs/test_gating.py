"""The "Gating a release" page as a reader uses it: its pytest example runs under pytest
with the plugin and its report, and every ragguard command of its CI jobs parses."""

import json
import os
import shlex
import subprocess
import sys

import yaml

from ragguard.cli import build_parser
from ragguard.metrics.gates import WORSE_WHEN, Gate, known_metric
from tests.support.docs_blocks import ROOT, blocks

PAGE = ROOT / "docs" / "gating.md"
SHELL_ENDS = {">", "|", "||", "&&", ";"}


def test_the_pytest_example_runs_under_pytest_with_the_plugin(tmp_path):
    (example,) = [code for _, code in blocks(PAGE, "python") if "def test_" in code]
    (tmp_path / "test_answers.py").write_text(example)
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "ragguard.testing.plugin",
            "-q",
            "--ragguard-report",
            str(report),
            "test_answers.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert [r["passed"] for r in records] == [True, False, True]


def ragguard_commands() -> list[str]:
    """Every ``ragguard`` line of the page's CI jobs (YAML) and shell blocks."""
    lines = [
        line for _, code in blocks(PAGE, "bash") for line in code.replace("\\\n", " ").splitlines()
    ]
    for _, code in blocks(PAGE, "yaml"):

        def walk(node: object) -> None:
            if isinstance(node, dict):
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)
            elif isinstance(node, str):
                lines.extend(node.splitlines())

        walk(yaml.safe_load(code))
    return [line.strip() for line in lines if line.strip().startswith("ragguard ")]


def test_every_ragguard_command_of_the_ci_jobs_parses():
    commands = ragguard_commands()
    assert sum("compare" in c for c in commands) >= 3 and sum("replay" in c for c in commands) >= 4
    parser = build_parser()
    for command in commands:
        words = shlex.split(command)[1:]
        cut = next((i for i, word in enumerate(words) if word in SHELL_ENDS), len(words))
        args = parser.parse_args(words[:cut])
        for text in getattr(args, "fail_over", []) + getattr(args, "fail_under", []):
            Gate.parse(text, "over")  # a real metric and a number
        for name in getattr(args, "fail_if_worse", []):
            assert WORSE_WHEN[known_metric(name, tuple(WORSE_WHEN))] is not None
