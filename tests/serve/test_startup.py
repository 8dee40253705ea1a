"""``ragguard serve`` start-up: a port it cannot listen on is named with its endpoint and
the flag and setting that move it (exit 2, one line, no gRPC C-core log), and once it
listens it prints one line saying where, and where the verdicts go."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys

import pytest

from ragguard.cli import main
from ragguard.config import Config
from ragguard.serve.startup import verdict_destinations
from tests.support.docs_blocks import ROOT


@pytest.fixture
def taken():
    """A loopback port held by another listener, as a Collector on 4317 would."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield f"127.0.0.1:{holder.getsockname()[1]}"


@pytest.mark.parametrize(
    ("flag", "endpoint", "key"),
    [
        ("--otlp-http", "the OTLP/HTTP receiver", "otlp_http"),
        ("--otlp-grpc", "the OTLP/gRPC receiver", "otlp_grpc"),
        ("--metrics", "the /metrics and health endpoint", "metrics"),
    ],
)
def test_a_taken_port_names_the_address_the_endpoint_and_how_to_move_it(
    taken, capfd, flag, endpoint, key
):
    free = {"--otlp-http": "127.0.0.1:0", "--otlp-grpc": "127.0.0.1:0", "--metrics": "127.0.0.1:0"}
    free[flag] = taken
    argv = ["serve", *(part for pair in free.items() for part in pair)]
    assert main(argv) == 2
    out, err = capfd.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == [
        f"ragguard: error: cannot listen on {taken} for {endpoint}: the port is in use by "
        f"another process. Choose another address with {flag} HOST:PORT or the [serve] "
        f"{key} setting" + ("; '' turns it off" if key == "otlp_grpc" else "")
    ], err
    assert "internal error" not in err and "chttp2" not in err and "ragguard serve:" not in out


def test_the_start_up_line_is_printed_once_and_says_where_verdicts_go(tmp_path):
    config = tmp_path / "ragguard.toml"
    config.write_text("[exporters]\notel = false\n")
    command = [sys.executable, "-m", "ragguard.cli", "serve", "-c", str(config)]
    command += ["--otlp-http", "127.0.0.1:0", "--otlp-grpc", "", "--metrics", "127.0.0.1:0"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert re.fullmatch(
        r"ragguard serve: OTLP/HTTP on 127\.0\.0\.1:\d+, OTLP/gRPC off, /metrics on "
        r"127\.0\.0\.1:\d+; verdicts go to /metrics \(Prometheus\) only \(no trace log to "
        r"replay: set \[exporters\] trace_log\)\n",
        first,
    ), first
    assert "OTLP/HTTP on" not in stdout + stderr  # once: not again, not in the log


def test_the_verdicts_line_names_the_trace_log_or_its_absence(tmp_path):
    without = verdict_destinations(Config())
    assert without == (
        "verdicts go to /metrics (Prometheus) only (no trace log to replay: set [exporters] "
        "trace_log)"
    )
    log = tmp_path / "serve.jsonl"
    with_log = verdict_destinations(Config(exporters={"trace_log": log}))
    assert with_log == f"verdicts go to /metrics (Prometheus), the trace log {log}"
