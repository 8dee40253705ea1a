"""The command as users run it: ``python -m ragguard.cli`` in a real process, this
checkout's package first on the path."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.docs_blocks import ROOT


def run_ragguard(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Exit status, stdout and stderr of ``ragguard ARGS`` (``stdin``: its standard input)."""
    return subprocess.run(
        [sys.executable, "-m", "ragguard.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        input=stdin,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )
