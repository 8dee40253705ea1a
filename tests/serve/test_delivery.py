"""Exporters behind their own bounded queue: a Phoenix that accepts connections and never
answers holds up neither evaluation nor shutdown, and what it never got is counted."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from ragguard.serve.app import ServeApp
from tests.serve.test_app import rag_trace
from tests.serve.test_receivers import _post, otlp_json
from tests.support.serve_clients import records, wait_for


@pytest.fixture
def silent_endpoint() -> Iterator[str]:
    """A loopback HTTP endpoint that accepts every connection and never answers."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(2)
    for connection in held:
        connection.close()
    listener.close()


def test_a_phoenix_that_never_answers_stalls_neither_evaluation_nor_shutdown(
    tmp_path, guard, silent_endpoint
) -> None:
    config = {
        "serve": {"grace_s": 0.2, "shutdown_timeout_s": 3.0},
        "exporters": {
            "trace_log": str(tmp_path / "serve.jsonl"),
            "otel": False,
            "phoenix": {"url": silent_endpoint, "timeout_s": 10.0},
        },
    }
    app = ServeApp(
        config, otlp_http="127.0.0.1:0", otlp_grpc="", metrics="127.0.0.1:0", guard=guard
    )
    app.start()
    try:
        ids = [f"{n:032x}" for n in range(1, 31)]
        spans = [span for trace_id in ids for span in rag_trace(trace_id)]
        assert _post(app, otlp_json(spans), "application/json")[0] == 200
        wait_for(lambda: len(records(app)) == 30, 30)  # base: 5 of 30 in 60 s
    finally:
        started = time.monotonic()
        app.stop()
        stopped_in = time.monotonic() - started
    assert stopped_in < 3.0 + 1.5
    counts = app.stats().exports
    assert counts[("PhoenixExporter", "sent")] == 0
    assert counts[("PhoenixExporter", "dropped")] >= 30 - 1  # left at the deadline (one under way)
