"""Command line: ``ragguard evaluate``, ``replay``, ``benchmark``, ``train``, ``judge-bench`` and
``serve``, one module per command, each adding its parser with ``add_to``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ragguard.cli import benchmark, evaluate, judge_bench, replay, serve, train
from ragguard.cli._common import EXIT_ERROR, EXIT_OK, EXIT_SKIPPED
from ragguard.errors import RagguardError

__all__ = ["EXIT_ERROR", "EXIT_OK", "EXIT_SKIPPED", "build_parser", "main"]

COMMANDS = (evaluate, replay, benchmark, train, judge_bench, serve)
"""The command modules, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragguard", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_to(commands)
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
