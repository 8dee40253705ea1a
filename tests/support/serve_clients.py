"""Shared by the serve tests: a running ``ServeApp`` on loopback (ports picked by the OS)
with a trace log, readers of that log, and a RAG request made with the OpenTelemetry SDK."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ragguard.serve.app import ServeApp
from tests.support.serve_fixtures import ANSWER, DOCS, QUERY

ROOT = Path(__file__).parents[2]


@contextlib.contextmanager
def running_app(
    tmp_path: Path,
    guard: Any,
    grpc: bool = False,
    phoenix: dict[str, Any] | None = None,
    langfuse: dict[str, Any] | None = None,
    **serve: Any,
) -> Iterator[ServeApp]:
    exporters = {"trace_log": str(tmp_path / "serve.jsonl"), "otel": False}
    config = {
        "serve": {"grace_s": 0.2, "idle_timeout_s": 5.0, **serve},
        "exporters": {**exporters, "phoenix": phoenix, "langfuse": langfuse},
    }
    app = ServeApp(
        config,
        otlp_http="127.0.0.1:0",
        otlp_grpc="127.0.0.1:0" if grpc else "",
        metrics="127.0.0.1:0",
        guard=guard,
    )
    app.start()
    try:
        yield app
    finally:
        app.stop(timeout=30)


def records(app: ServeApp) -> list[dict[str, Any]]:
    path = app.config.exporters.trace_log
    if path is None or not path.exists():
        return []
    # the log is being written: a last line without its newline is not complete yet
    complete = path.read_text().split("\n")[:-1]
    return [json.loads(line) for line in complete if line.strip()]


def wait_for(check: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def logged(app: ServeApp, trace_id: str, count: int = 1) -> list[dict[str, Any]]:
    """The trace log's records of ``trace_id``, once there are ``count`` of them."""

    def found() -> list[dict[str, Any]]:
        mine = [record for record in records(app) if record["trace_id"] == trace_id]
        return mine if len(mine) >= count else []

    return wait_for(found)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def metrics_text(app: ServeApp) -> str:
    return get(f"http://127.0.0.1:{app.ports['metrics']}/metrics")[1]


def sample(text: str, series: str) -> float:
    """The value of ``series`` (name and labels, as exposed) in ``text``; 0 when absent.
    The evaluation metrics live in the process's registry, which earlier tests add to."""
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def openinference_request(provider: Any) -> str:
    """One RAG request as OpenInference spans through an SDK tracer: a chain over a
    retriever and an LLM. Its trace id (hex)."""
    tracer = provider.get_tracer("test-app")
    with tracer.start_as_current_span(
        "rag", attributes={"openinference.span.kind": "CHAIN", "input.value": QUERY}
    ) as root:
        attributes: dict[str, Any] = {"openinference.span.kind": "RETRIEVER", "input.value": QUERY}
        for i, (doc_id, text, score) in enumerate(DOCS):
            attributes[f"retrieval.documents.{i}.document.id"] = doc_id
            attributes[f"retrieval.documents.{i}.document.content"] = text
            attributes[f"retrieval.documents.{i}.document.score"] = score
        with tracer.start_as_current_span("retrieve", attributes=attributes):
            pass
        llm = {
            "openinference.span.kind": "LLM",
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.content": ANSWER,
        }
        with tracer.start_as_current_span("llm", attributes=llm):
            pass
        root.set_attribute("output.value", ANSWER)
        return f"{root.get_span_context().trace_id:032x}"


def sdk_provider(exporter: Any, service: str = "rag-app") -> Any:
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def post_rag_traces(port: int, trace_ids: list[str], extra: list[dict] | None = None) -> None:
    """One OpenInference RAG trace (a chain span with the query and answer, a retriever span
    under it with one document) per id, and ``extra`` spans, in one OTLP/JSON request."""
    from tests.serve.test_receivers import json_span, otlp_json

    chain = {"openinference.span.kind": "CHAIN", "input.value": QUERY, "output.value": ANSWER}
    retrieval = {
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.content": "The Eiffel Tower is in Paris.",
    }
    spans = [
        span
        for trace_id in trace_ids
        for span in (
            json_span(trace_id, "a" * 16, "", chain),
            json_span(trace_id, "b" * 16, "a" * 16, retrieval),
        )
    ]
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/traces",
        data=otlp_json([*spans, *(extra or [])]),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def start_serve(
    config: Path, stderr: int = subprocess.PIPE
) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """``ragguard serve -c config`` as a process on loopback ports the OS picks (no gRPC),
    and its ports (``http``, ``metrics``), read from the line it prints once bound."""
    command = [sys.executable, "-m", "ragguard.cli", "serve", "-c", str(config)]
    command += ["--otlp-http", "127.0.0.1:0", "--otlp-grpc", "", "--metrics", "127.0.0.1:0"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()
    ports = {
        which: int(found[1])
        for which, label in (("http", "OTLP/HTTP"), ("metrics", "/metrics"))
        if (found := re.search(rf"{label} on \S+:(\d+)", line))
    }
    assert set(ports) == {"http", "metrics"}, line
    return process, ports
