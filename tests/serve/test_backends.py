"""Verdicts from ``ragguard serve`` in Phoenix and Langfuse. Phoenix is the real server
(arize-phoenix, offline, telemetry off, in its own cached venv: scripts/phoenix-venv),
fed the application's spans by ``forward_otlp`` and read back through its REST and
GraphQL APIs. Langfuse cannot run offline here: a loopback stub checks each request
against the documented scores API (``POST /api/public/scores``, basic auth)."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from tests.serve.test_receivers import _post, json_span, otlp_json, otlp_protobuf
from tests.support.serve_clients import get, running_app, wait_for

ROOT = Path(__file__).parents[2]
APPS = Path(__file__).parents[1] / "support" / "serve_apps"
QUERY = "Where is the Eiffel Tower?"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory) -> Iterator[str]:
    python = subprocess.run(
        ["bash", str(ROOT / "scripts" / "phoenix-venv")],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    ).stdout.strip()
    folder = tmp_path_factory.mktemp("phoenix")
    port = free_port()
    env = {
        **os.environ,
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_WORKING_DIR": str(folder),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    env.pop("PYTHONPATH", None)
    log = (folder / "phoenix.log").open("w")
    server = subprocess.Popen(
        [python, "-m", "phoenix.server.main", "serve"], env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: server.poll() is not None or _up(f"{url}/healthz"), 180)
        assert server.poll() is None
    except AssertionError:
        server.kill()
        raise AssertionError((folder / "phoenix.log").read_text()[-3000:]) from None
    yield url
    server.terminate()
    server.wait(30)


def _up(url: str) -> bool:
    try:
        return get(url)[0] == 200
    except OSError:
        return False


def _json(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def span_annotations(phoenix: str, span_id: str) -> list[dict]:
    url = f"{phoenix}/v1/projects/default/span_annotations?span_ids={span_id}&limit=100"
    try:
        return _json(url)["data"]
    except urllib.error.HTTPError as error:
        if error.code == 404:  # the span is not in Phoenix yet
            return []
        raise


def document_annotations(phoenix: str) -> dict[str, list[dict]]:
    query = (
        "{ projects { edges { node { spans(first: 100) { edges { node { spanId "
        "documentEvaluations { name score label documentPosition } } } } } } } }"
    )
    data = _json(f"{phoenix}/graphql", {"query": query})["data"]
    spans = data["projects"]["edges"][0]["node"]["spans"]["edges"]
    return {edge["node"]["spanId"]: edge["node"]["documentEvaluations"] for edge in spans}


def test_phoenix_shows_the_verdicts_on_the_right_spans(tmp_path, guard, phoenix) -> None:
    settings = {"forward_otlp": f"{phoenix}/v1/traces"}
    config_phoenix = {"url": phoenix}
    with running_app(tmp_path, guard, phoenix=config_phoenix, **settings) as app:
        endpoint = f"http://127.0.0.1:{app.ports['http']}/v1/traces"
        done = subprocess.run(
            [sys.executable, "llamaindex_app.py", endpoint],
            cwd=APPS,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        record = wait_for(
            lambda: (
                app.config.exporters.trace_log.exists()
                and json.loads(app.config.exporters.trace_log.read_text().splitlines()[0])
            )
        )
        otel = record["otel"]
        root = otel["root_span_id"]
        names = lambda: {a["name"]: a for a in span_annotations(phoenix, root)}  # noqa: E731
        annotations = wait_for(lambda: "ragguard.status" in names() and names())
        assert annotations["ragguard.support_rate"]["result"]["score"] == 1.0
        assert annotations["ragguard.hallucination"]["result"]["label"] == "grounded"
        assert annotations["ragguard.status"]["result"]["label"] == "evaluated"
        assert all(a["identifier"] == "ragguard" for a in annotations.values())
        retriever = next(i["span_id"] for i in record["items"])
        documents = wait_for(lambda: document_annotations(phoenix).get(retriever))
        by_position = {d["documentPosition"]: d for d in documents}
        assert by_position[0]["label"] == "relevant" and by_position[1]["label"] == "not"
        # a late span: evaluated again under the same trace id, annotations replaced
        late = json_span(
            record["trace_id"],
            "9" * 16,
            root,
            {
                "openinference.span.kind": "RETRIEVER",
                "retrieval.documents.0.document.id": "extra",
                "retrieval.documents.0.document.content": "Paris is the capital of France.",
            },
        )
        assert _post(app, otlp_protobuf([late]), "application/x-protobuf")[0] == 200
        wait_for(lambda: app.stats().traces.get("evaluated") == 2)
        wait_for(lambda: len(document_annotations(phoenix).get("9" * 16) or []) == 1)
        again = span_annotations(phoenix, root)
        assert len(again) == len(annotations)  # replaced, not added
        # content switched off: a status on the root span, never a verdict
        hidden = "__REDACTED__"
        trace_id, span_id = "f" * 32, "e" * 16
        spans = [
            json_span(
                trace_id, span_id, "", {"openinference.span.kind": "CHAIN", "input.value": hidden}
            ),
            json_span(
                trace_id,
                "d" * 16,
                span_id,
                {"openinference.span.kind": "LLM", "output.value": hidden},
            ),
        ]
        assert _post(app, otlp_protobuf(spans), "application/x-protobuf")[0] == 200
        status = wait_for(lambda: span_annotations(phoenix, span_id))
        assert [(a["name"], a["result"]["label"]) for a in status] == [
            ("ragguard.status", "content_not_captured")
        ]


class LangfuseStub(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, str, dict]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.received.append((self.path, self.headers.get("Authorization", ""), body))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"id": body.get("id")}).encode())

    def log_message(self, *args: object) -> None:
        pass


def test_langfuse_gets_scores_in_the_documented_shape(tmp_path, guard, monkeypatch) -> None:
    monkeypatch.setenv("LANGFUSE_PUBLIC_KEY", "pk-lf-test")
    monkeypatch.setenv("LANGFUSE_SECRET_KEY", "sk-lf-test")
    stub = ThreadingHTTPServer(("127.0.0.1", 0), LangfuseStub)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    langfuse = {"url": f"http://127.0.0.1:{stub.server_address[1]}/"}
    trace_id, root = "c" * 32, "a" * 16
    chain = {"openinference.span.kind": "CHAIN", "input.value": QUERY, "output.value": "In Paris."}
    retrieval = {
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.content": "The Eiffel Tower is in Paris.",
    }
    try:
        with running_app(tmp_path, guard, langfuse=langfuse) as app:
            spans = [
                json_span(trace_id, root, "", chain),
                json_span(trace_id, "b" * 16, root, retrieval),
            ]
            assert _post(app, otlp_json(spans), "application/json")[0] == 200
            wait_for(
                lambda: any(b["name"] == "ragguard.status" for _, _, b in LangfuseStub.received)
            )
            first = list(LangfuseStub.received)
            late = {**retrieval, "retrieval.documents.0.document.content": "Paris is in France."}
            assert (
                _post(
                    app, otlp_json([json_span(trace_id, "d" * 16, root, late)]), "application/json"
                )[0]
                == 200
            )
            wait_for(lambda: len(LangfuseStub.received) == 2 * len(first))
    finally:
        stub.shutdown()
    expected_auth = "Basic " + base64.b64encode(b"pk-lf-test:sk-lf-test").decode()
    for path, auth, body in LangfuseStub.received:
        assert path == "/api/public/scores" and auth == expected_auth
        assert set(body) <= {
            "id",
            "traceId",
            "observationId",
            "name",
            "value",
            "dataType",
            "comment",
        }
        assert body["traceId"] == trace_id and body["observationId"] == root
        assert re.fullmatch(r"[0-9a-f-]{36}", body["id"])
        if body["dataType"] == "NUMERIC":
            assert isinstance(body["value"], float)
        else:
            assert body["dataType"] == "CATEGORICAL" and isinstance(body["value"], str)
    scores = {body["name"]: body for _, _, body in first}
    assert scores["ragguard.support_rate"]["value"] == 1.0
    assert scores["ragguard.status"]["value"] == "evaluated"
    # the re-evaluation sends the same score ids: Langfuse replaces, not duplicates
    second = LangfuseStub.received[len(first) :]
    assert sorted(b["id"] for _, _, b in first) == sorted(b["id"] for _, _, b in second)
    assert len({b["id"] for _, _, b in first}) == len(first)
