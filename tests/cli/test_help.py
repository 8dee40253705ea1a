"""Every command's help, run as users run it: a real process, exit 0 and a usage line.
A ``%`` in a help text crashed ``ragguard --help`` while each subcommand's help worked."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragguard.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "ragguard.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_every_command_is_listed():
    assert {"evaluate", "replay", "compare", "serve", "calibrate"} <= set(COMMANDS)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_top_level_help(flag):
    done = _run(flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ragguard")
    assert "compare" in done.stdout and "95% intervals" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("command", COMMANDS)
def test_subcommand_help(command):
    done = _run(command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: ragguard {command}")
    assert done.stderr == ""
