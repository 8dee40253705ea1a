"""Command line: ``ragguard evaluate``, ``replay``, ``compare``, ``benchmark``, ``train``,
``calibrate``, ``judge-bench``, ``serve`` and ``review``, one module per command, each adding
its parser with ``add_to``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ragguard._version import __version__
from ragguard.cli import (
    benchmark,
    calibrate,
    compare,
    evaluate,
    judge_bench,
    replay,
    review,
    serve,
    train,
)
from ragguard.cli._common import (
    EXIT_ERROR,
    EXIT_GATE,
    EXIT_OK,
    EXIT_SKIPPED,
    Terminated,
    sigterm_raises,
)
from ragguard.errors import RagguardError

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_ERROR",
    "EXIT_GATE",
    "EXIT_OK",
    "EXIT_SKIPPED",
    "build_parser",
    "main",
]

EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a tool whose output pipe was closed."""

_COMMANDS = (evaluate, replay, compare, benchmark, train, calibrate, judge_bench, serve, review)
"""The command modules, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragguard", description=__doc__)
    parser.add_argument("--version", action="version", version=f"ragguard {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        command.add_to(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with sigterm_raises():
            return int(args.run(args))
    except BrokenPipeError:  # stdout's reader went away (`| head`): stop, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return EXIT_BROKEN_PIPE
    except (RagguardError, OSError, ValueError) as error:
        print(f"ragguard: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("ragguard: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("ragguard: terminated", file=sys.stderr)
        return 143
    except Exception as error:  # a bug: one line, not a traceback (RAGGUARD_DEBUG=1 shows it)
        if os.environ.get("RAGGUARD_DEBUG"):
            raise
        print(f"ragguard: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_ERROR
