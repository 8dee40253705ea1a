"""``ragguard serve`` as a process: SIGTERM with traces still held evaluates them, delivers
them to the trace log and exits cleanly; a non-loopback address without a token and TLS
is refused; the minute log line is written."""

from __future__ import annotations

import json
import signal
import socket
import threading
import time
from pathlib import Path

from tests.serve.test_receiver_http import certificate, https_post
from tests.support.serve_clients import get, post_rag_traces, start_serve, wait_for

ROOT = Path(__file__).parents[2]


def test_sigterm_evaluates_the_held_traces_and_exits(tmp_path) -> None:
    log = tmp_path / "serve.jsonl"
    config = tmp_path / "ragguard.toml"
    config.write_text(
        "[serve]\ngrace_s = 600\nidle_timeout_s = 600\nlog_interval_s = 0.5\n"
        f'[exporters]\ntrace_log = "{log.name}"\notel = false\n'
    )
    process, ports = start_serve(config)
    try:
        wait_for(lambda: get(f"http://127.0.0.1:{ports['metrics']}/readyz")[0] == 200, 120)
        ids = [f"{n:032x}" for n in (7, 8)]
        post_rag_traces(ports["http"], ids)
        time.sleep(1.0)
        assert not log.exists()  # held for the grace period, not evaluated yet
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, stderr[-2000:]
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(r["trace_id"] for r in logged) == ids
    assert all(r["evaluation"]["metrics"]["support_rate"] == 1.0 for r in logged)
    assert "ragguard serve: spans: accepted=4" in stderr  # the periodic line
    assert "2 held traces assembled at shutdown, 0 undelivered" in stderr


def test_a_public_address_needs_a_token_and_tls(tmp_path) -> None:
    from ragguard.cli import main

    assert (
        main(["serve", "--otlp-http", "0.0.0.0:0", "--otlp-grpc", "", "--metrics", "127.0.0.1:0"])
        == 2
    )


def test_sigterm_with_an_idle_tls_connection_exits_within_the_timeout(tmp_path) -> None:
    """The TLS handshake runs on the connection's thread: an idle TCP connection holds up
    neither an HTTPS export nor the shutdown."""
    cert, key = certificate(tmp_path)
    config = tmp_path / "ragguard.toml"
    config.write_text(
        f'[serve]\ntls_cert = "{cert}"\ntls_key = "{key}"\nshutdown_timeout_s = 5.0\n'
        "[exporters]\notel = false\n"
    )
    process, ports = start_serve(config)
    try:
        wait_for(lambda: get(f"http://127.0.0.1:{ports['metrics']}/readyz")[0] == 200, 120)
        with socket.create_connection(("127.0.0.1", ports["http"])):
            time.sleep(0.2)
            started = time.monotonic()
            assert https_post(ports["http"], cert) == 200
            assert time.monotonic() - started < 1.0
            process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            process.communicate(timeout=60)
            assert time.monotonic() - signalled < 5.0
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0


def test_while_draining_new_requests_get_the_documented_503(tmp_path, guard) -> None:
    """Between SIGTERM (``stop``) and the end of the drain, the receiver still answers:
    503 with ``Retry-After``, not a refused connection, so exporters retry elsewhere or
    later."""
    from ragguard.serve.app import ServeApp
    from tests.serve.test_app import rag_trace
    from tests.serve.test_receivers import _post, otlp_json

    config = {
        "serve": {"grace_s": 0.1, "shutdown_timeout_s": 30},
        "exporters": {"trace_log": str(tmp_path / "serve.jsonl"), "otel": False},
    }
    app = ServeApp(
        config, otlp_http="127.0.0.1:0", otlp_grpc="", metrics="127.0.0.1:0", guard=guard
    )
    app.start()
    stopper = threading.Thread(target=app.stop)
    with guard._lock:  # the evaluator is busy: the drain waits for it
        assert _post(app, otlp_json(rag_trace("7" * 32)), "application/json")[0] == 200
        wait_for(lambda: app.queue_depth() >= 1, 30)
        stopper.start()
        wait_for(lambda: app.stats() and not app.ready(), 10)
        time.sleep(0.2)
        code, headers, body = _post(app, otlp_json(rag_trace("8" * 32)), "application/json")
        assert code == 503 and headers["Retry-After"] == "5", (code, body)
    stopper.join(60)
    assert not stopper.is_alive()
    logged = [json.loads(line)["trace_id"] for line in (tmp_path / "serve.jsonl").open()]
    assert logged == ["7" * 32]
