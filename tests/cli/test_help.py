"""Every command's help, run as users run it: a real process, exit 0 and a usage line.
A ``%`` in a help text crashed ``ragguard --help`` while each subcommand's help worked."""

import pytest

from ragguard.cli import build_parser
from tests.support.cli_process import run_ragguard

COMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def test_every_command_is_listed():
    assert {"evaluate", "replay", "compare", "serve", "calibrate"} <= set(COMMANDS)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_top_level_help(flag):
    done = run_ragguard(flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ragguard")
    assert "compare" in done.stdout and "95% intervals" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("command", COMMANDS)
def test_subcommand_help(command):
    done = run_ragguard(command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: ragguard {command}")
    assert done.stderr == ""
