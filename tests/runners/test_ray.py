"""``--runner ray`` against a Ray head started on its own (``ray start --head``), as on a
cluster, not one started inside the test process: with the head's token authentication a
driver that holds the token replays the log, and one without it is refused with a message
that says what it lacks."""

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RAY = [sys.executable, "-m", "ray.scripts.scripts"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def processes_under(folder: str) -> list[int]:
    """The processes whose command line names ``folder``: the head's, and no one else's
    (``ray stop`` would stop every Ray of this user, other tests' too)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if folder.encode() in cmdline and int(entry.name) != os.getpid():
                pids.append(int(entry.name))
    return pids


@pytest.fixture(scope="module")
def head():
    """A Ray head with token authentication: (address, token file)."""
    # Ray's socket paths must stay short: a folder of its own directly under /tmp
    folder = tempfile.mkdtemp(prefix="rg-ray-", dir="/tmp")
    home = Path(folder) / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    subprocess.run([*RAY, "get-auth-token", "--generate"], env=env, check=True, timeout=120)
    port = free_port()
    start = [
        *RAY,
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        "--num-cpus=1",
        f"--temp-dir={folder}/tmp",
        "--include-dashboard=false",
        "--disable-usage-stats",
    ]
    subprocess.run(start, env=env, check=True, timeout=180, capture_output=True)
    try:
        yield f"127.0.0.1:{port}", home / ".ray" / "auth_token", folder
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in processes_under(folder):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            time.sleep(2)
        shutil.rmtree(folder, ignore_errors=True)


def replay(address: str, log: Path, out: Path, driver_home: Path, **auth: str):
    env = {**os.environ, "HOME": str(driver_home), "PYTHONPATH": str(ROOT), **auth}
    env.pop("RAY_ADDRESS", None)
    if "RAY_AUTH_MODE" not in auth:
        env.pop("RAY_AUTH_MODE", None)
    command = [sys.executable, "-m", "ragguard.cli", "replay", str(log), "-o", str(out)]
    command += ["--runner", "ray", "--ray-address", address, "--workers", "1"]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=400)


def test_a_driver_with_the_token_replays_on_a_separate_head_and_one_without_is_told(head, tmp_path):
    address, token, _ = head
    log = tmp_path / "log.jsonl"
    lines = (ROOT / "examples" / "live_log.jsonl").read_text().splitlines()[:4]
    log.write_text("\n".join(lines) + "\n")
    driver_home = tmp_path / "driver"  # no token of its own, as on another machine
    driver_home.mkdir()

    refused = replay(address, log, tmp_path / "refused.jsonl", driver_home)
    assert refused.returncode == 2
    assert "RAY_AUTH_MODE=token" in refused.stderr and "RAY_AUTH_TOKEN" in refused.stderr

    out = tmp_path / "out.jsonl"
    run = replay(
        address, log, out, driver_home, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token)
    )
    assert run.returncode == 0, run.stderr[-3000:]
    replayed = [json.loads(line)["trace_id"] for line in out.read_text().splitlines()]
    assert replayed == [json.loads(line)["trace_id"] for line in lines]
    assert "1 Ray actor" in run.stdout
