"""The review page's tests: trace logs to review, and ``ragguard review`` as a real server
process on loopback (started, its URL read from its output, stopped)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.support.docs_blocks import ROOT

LIVE_LOG = ROOT / "examples" / "live_log.jsonl"
CHROMIUM = "/usr/bin/chromium"


def live_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in LIVE_LOG.read_text(encoding="utf-8").splitlines()]


def write_log(path: Path, records: list[dict[str, Any]]) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    return path


class ReviewServer:
    """``ragguard review ARGS --port 0`` in a real process; ``url`` is the page."""

    def __init__(self, *args: str, cwd: Path) -> None:
        command = [sys.executable, "-m", "ragguard.cli", "review", *args, "--port", "0"]
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.url = self._read_url()

    def _read_url(self) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            if "open http" in line:
                return line.rsplit(" ", 1)[-1].strip()
        self.process.kill()
        _, err = self.process.communicate(timeout=30)
        raise AssertionError(f"ragguard review did not start: {err}")

    def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop the server (SIGKILL: as a crash); its standard error."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        _, err = self.process.communicate(timeout=60)
        return err

    def __enter__(self) -> ReviewServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def label_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
