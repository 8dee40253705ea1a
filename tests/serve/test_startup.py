"""``ragguard serve`` start-up: a port it cannot listen on is named with its endpoint and
the flag and setting that move it (exit 2, one line, no gRPC C-core log), and once it
listens it prints one line saying where, and where the verdicts go."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys

import pytest

from ragguard.cli import main
from ragguard.config import Config
from ragguard.errors import ServeStartError
from ragguard.serve.app import ServeApp
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


def _serve_command() -> list[str]:
    """``ragguard`` as users run it: the installed command, else the module."""
    installed = shutil.which("ragguard")
    return [installed] if installed else [sys.executable, "-m", "ragguard.cli"]


@pytest.fixture
def two_taken():
    holders = [socket.socket(), socket.socket()]
    try:
        for holder in holders:
            holder.bind(("127.0.0.1", 0))
            holder.listen()
        yield [f"127.0.0.1:{holder.getsockname()[1]}" for holder in holders]
    finally:
        for holder in holders:
            holder.close()


@pytest.mark.parametrize("run", range(3))
def test_the_real_command_names_every_clash_at_once_and_exits_2(two_taken, run) -> None:
    """``ragguard serve`` with its gRPC and metrics ports taken: one error naming both, exit
    status 2 from the process itself (a taken gRPC port ended in SIGABRT, exit 134, in half
    the runs), before any model loads or thread starts."""
    grpc_address, metrics_address = two_taken
    command = [*_serve_command(), "serve", "--otlp-http", "127.0.0.1:0"]
    command += ["--otlp-grpc", grpc_address, "--metrics", metrics_address]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.splitlines() == [
        "ragguard: error: cannot listen on 2 addresses:",
        f"  - cannot listen on {grpc_address} for the OTLP/gRPC receiver: the port is in use "
        "by another process. Choose another address with --otlp-grpc HOST:PORT or the [serve] "
        "otlp_grpc setting; '' turns it off",
        f"  - cannot listen on {metrics_address} for the /metrics and health endpoint: the port "
        "is in use by another process. Choose another address with --metrics HOST:PORT or the "
        "[serve] metrics setting",
    ], done.stderr
    assert done.stdout == ""


def test_one_address_given_to_two_endpoints_is_named() -> None:
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    address = f"127.0.0.1:{free.getsockname()[1]}"
    free.close()
    with pytest.raises(ServeStartError) as clash:
        ServeApp(otlp_http=address, otlp_grpc="", metrics=address).start()
    assert str(clash.value).startswith(
        f"cannot listen on {address} for the /metrics and health endpoint: the OTLP/HTTP "
        "receiver is given the same address."
    )
    assert clash.value.endpoint == "metrics"


@pytest.mark.parametrize("run", range(3))
def test_a_taken_grpc_port_exits_2_not_sigabrt(taken, run) -> None:
    """The real process, the gRPC port alone taken: exit 2 with the one message (on the
    base code 5 runs in 8 ended with ``terminate called without an active exception``)."""
    command = [*_serve_command(), "serve", "--otlp-http", "127.0.0.1:0"]
    command += ["--otlp-grpc", taken, "--metrics", "127.0.0.1:0"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "terminate called" not in done.stderr
    assert done.stderr.startswith(f"ragguard: error: cannot listen on {taken} for the OTLP/gRPC")
