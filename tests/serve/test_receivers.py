"""``ragguard serve`` end to end with the OpenTelemetry SDK's own OTLP exporters (HTTP
protobuf and gRPC): spans in, verdicts out in the trace log, on /metrics, and through
``ragguard replay``."""

from __future__ import annotations

import base64
import gzip
import json
import time
import urllib.request

import pytest

from ragguard.cli import main
from tests.support.serve_clients import (
    get,
    logged,
    metrics_text,
    openinference_request,
    records,
    running_app,
    sample,
    sdk_provider,
    wait_for,
)
from tests.support.serve_fixtures import ANSWER, QUERY


def test_the_sdk_http_exporter_gets_verdicts(tmp_path, guard) -> None:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    responses = 'ragguard_responses_total{pipeline="rag-app"}'
    with running_app(tmp_path, guard) as app:
        before = sample(metrics_text(app), responses)  # the registry is the process's
        endpoint = f"http://127.0.0.1:{app.ports['http']}/v1/traces"
        provider = sdk_provider(OTLPSpanExporter(endpoint=endpoint))
        trace_id = openinference_request(provider)
        assert provider.force_flush(10_000)
        (record,) = logged(app, trace_id)
        assert (record["query"], record["response"]) == (QUERY, ANSWER)
        evaluation = record["evaluation"]
        assert evaluation["trace_id"] == trace_id and len(trace_id) == 32
        relevant = {item["id"]: item["relevant"] for item in evaluation["items"]}
        assert relevant == {"d1": True, "d2": False}
        assert evaluation["metrics"]["support_rate"] == 1.0
        assert record["otel"]["service"] == "rag-app"
        assert get(f"http://127.0.0.1:{app.ports['metrics']}/readyz") == (200, "ready\n")
        assert get(f"http://127.0.0.1:{app.ports['metrics']}/healthz")[0] == 200
        # each sink has its own queue: the metrics may come a moment after the log record
        deadline = time.monotonic() + 30
        while sample(text := metrics_text(app), responses) < before + 1:
            assert time.monotonic() < deadline, text[-2000:]
            time.sleep(0.1)
        assert 'ragguard_serve_spans_total{outcome="accepted"} 3.0' in text
        assert 'ragguard_serve_traces_total{status="ready"} 1.0' in text
        assert 'ragguard_serve_requests_total{protocol="http",result="200"}' in text
        assert sample(text, responses) == before + 1
        provider.shutdown()
    log = str(app.config.exporters.trace_log)
    assert main(["replay", log, "-o", str(tmp_path / "replayed.jsonl")]) == 0
    replayed = json.loads((tmp_path / "replayed.jsonl").read_text())
    assert replayed["trace_id"] == trace_id


def test_the_sdk_grpc_exporter_gets_verdicts(tmp_path, guard) -> None:
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    with running_app(tmp_path, guard, grpc=True) as app:
        endpoint = f"127.0.0.1:{app.ports['grpc']}"
        provider = sdk_provider(OTLPSpanExporter(endpoint=endpoint, insecure=True))
        trace_id = openinference_request(provider)
        assert provider.force_flush(10_000)
        (record,) = logged(app, trace_id)
        assert record["evaluation"]["metrics"]["support_rate"] == 1.0
        assert 'ragguard_serve_requests_total{protocol="grpc",result="OK"} 1.0' in metrics_text(app)
        provider.shutdown()


def _post(app, body: bytes, content_type: str, **headers: str) -> tuple[int, dict, bytes]:
    url = f"http://127.0.0.1:{app.ports['http']}/v1/traces"
    request = urllib.request.Request(
        url, data=body, headers={"Content-Type": content_type, **headers}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def otlp_json(spans: list[dict]) -> bytes:
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": "node-app"}}]}
    return json.dumps(
        {"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": spans}]}]}
    ).encode()


def otlp_protobuf(spans: list[dict]) -> bytes:
    """The same request as ``otlp_json`` in protobuf (Phoenix takes only protobuf): protobuf's
    JSON mapping differs from OTLP/JSON by its base64 ids."""
    from google.protobuf.json_format import ParseDict
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    request = json.loads(otlp_json(spans))
    for span in request["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        for key in ("traceId", "spanId", "parentSpanId"):
            span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return ParseDict(request, ExportTraceServiceRequest()).SerializeToString()


def json_span(trace_id: str, span_id: str, parent: str, attributes: dict) -> dict:
    return {
        "traceId": trace_id,
        "spanId": span_id,
        "parentSpanId": parent,
        "name": "s",
        "kind": 1,
        "startTimeUnixNano": "1",
        "endTimeUnixNano": "2",
        "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()],
    }


def test_malformed_and_refused_requests(tmp_path, guard) -> None:
    with running_app(tmp_path, guard, max_body_bytes=4096) as app:
        assert _post(app, b"{}", "text/plain")[0] == 415
        assert _post(app, b"{}", "application/json", **{"Content-Encoding": "br"})[0] == 415
        assert _post(app, b"\xff\x00garbage", "application/x-protobuf")[0] == 400
        assert _post(app, b"{not json", "application/json")[0] == 400
        assert _post(app, b'{"resourceSpans": 5}', "application/json")[0] == 400
        assert _post(app, b"x" * 5000, "application/json")[0] == 413
        bomb = gzip.compress(b" " * 1_000_000)
        assert len(bomb) < 4096
        assert _post(app, bomb, "application/json", **{"Content-Encoding": "gzip"})[0] == 413
        assert _post(app, b"not gzip", "application/json", **{"Content-Encoding": "gzip"})[0] == 400
        good = json_span("ab" * 16, "cd" * 8, "", {"http.route": "/"})
        bad = json_span("xyz", "cd" * 8, "", {})
        code, _, body = _post(
            app,
            gzip.compress(otlp_json([good, bad])),
            "application/json",
            **{"Content-Encoding": "gzip"},
        )
        assert code == 200
        assert json.loads(body)["partialSuccess"]["rejectedSpans"] == "1"
        text = metrics_text(app)
        assert 'ragguard_serve_requests_total{protocol="http",result="415"} 2.0' in text
        assert 'ragguard_serve_spans_total{outcome="malformed"} 1.0' in text


def test_json_with_hex_ids_and_a_late_span_reevaluates_the_same_trace(tmp_path, guard) -> None:
    trace_id, root, retriever, llm = (
        "5b8efff798038103d269b633813fc60c",
        "eee19b7ec3c1b174",
        ("eee19b7ec3c1b173"),
        "eee19b7ec3c1b172",
    )
    chain = json_span(
        trace_id, root, "", {"openinference.span.kind": "CHAIN", "input.value": QUERY}
    )
    answer = json_span(
        trace_id, llm, root, {"openinference.span.kind": "LLM", "output.value": ANSWER}
    )
    with running_app(tmp_path, guard) as app:
        code, _, _ = _post(app, otlp_json([chain, answer]), "application/json")
        assert code == 200
        # no retriever and no context yet: a status, not a verdict
        wait_for(lambda: app.stats().traces.get("no_context"))
        documents = {
            "openinference.span.kind": "RETRIEVER",
            "input.value": QUERY,
            "retrieval.documents.0.document.id": "d1",
            "retrieval.documents.0.document.content": "The Eiffel Tower stands in Paris.",
        }
        late = json_span(trace_id, retriever, root, documents)
        assert _post(app, otlp_json([late]), "application/json")[0] == 200
        (record,) = logged(app, trace_id)
        assert [item["id"] for item in record["items"]] == ["d1"]
        assert record["otel"]["service"] == "node-app"
        assert app.stats().traces["reevaluated"] == 1


def test_a_full_queue_answers_429_with_retry_after(tmp_path, guard) -> None:
    from opentelemetry.sdk.trace import TracerProvider  # noqa: F401 (the SDK is here)

    with running_app(tmp_path, guard, queue_size=1) as app:
        chain = {"openinference.span.kind": "CHAIN", "input.value": QUERY, "output.value": ANSWER}
        context = {
            "openinference.span.kind": "RETRIEVER",
            "retrieval.documents.0.document.content": "The Eiffel Tower is in Paris.",
        }
        trace_id = "1" * 32
        body = otlp_json(
            [
                json_span(trace_id, "a" * 16, "", chain),
                json_span(trace_id, "b" * 16, "a" * 16, context),
            ]
        )
        with guard._lock:  # the evaluator is busy: the one queued trace fills the queue
            assert _post(app, body, "application/json")[0] == 200
            wait_for(lambda: app.queue_depth() >= 1)
            code, headers, _ = _post(app, body, "application/json")
            assert code == 429 and headers["Retry-After"] == "5"
        assert logged(app, trace_id)


@pytest.mark.parametrize("traces", [10_000])
def test_ten_thousand_traces_in_flight_stay_bounded(tmp_path, guard, traces) -> None:
    """Past ``max_traces`` of waiting traces, requests get 429: none held is evicted."""
    with running_app(tmp_path, guard, max_traces=1000, idle_timeout_s=600) as app:
        codes = []
        for start in range(0, traces, 1000):
            spans = [
                json_span(f"{n + 1:032x}", "c" * 16, "d" * 16, {"http.route": "/"})
                for n in range(start, start + 1000)
            ]
            codes.append(_post(app, otlp_json(spans), "application/json")[0])
        assert codes == [200] + [429] * 9
        stats = app.stats()
        assert stats.held_traces == 1000 and stats.held_spans == 1000
        assert stats.refused_batches == 9
        assert "ragguard_serve_refused_for_room_total 9.0" in metrics_text(app)
    assert records(app) == []


def test_a_late_span_after_the_verdict_replaces_it(tmp_path, guard) -> None:
    trace_id, root, first, second = "6" * 32, "1" * 16, "2" * 16, "3" * 16
    chain = {"openinference.span.kind": "CHAIN", "input.value": QUERY, "output.value": ANSWER}
    retrieval = {
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.id": "d1",
        "retrieval.documents.0.document.content": "Bananas are yellow.",
    }
    more = {
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.id": "d2",
        "retrieval.documents.0.document.content": "The Eiffel Tower is in Paris.",
    }
    with running_app(tmp_path, guard) as app:
        spans = [json_span(trace_id, root, "", chain), json_span(trace_id, first, root, retrieval)]
        assert _post(app, otlp_json(spans), "application/json")[0] == 200
        (before,) = logged(app, trace_id)
        assert (
            _post(app, otlp_json([json_span(trace_id, second, root, more)]), "application/json")[0]
            == 200
        )
        _, after = logged(app, trace_id, count=2)
    assert before["evaluation"]["metrics"]["support_rate"] == 0.0
    assert [item["id"] for item in after["items"]] == ["d1", "d2"]
    assert after["evaluation"]["metrics"]["support_rate"] == 1.0
    out = tmp_path / "replayed.jsonl"
    assert main(["replay", str(app.config.exporters.trace_log), "-o", str(out)]) == 0
    (replayed,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert [item["id"] for item in replayed["items"]] == ["d1", "d2"]


def test_a_bearer_token_guards_both_receivers(tmp_path, guard, monkeypatch) -> None:
    import grpc
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    monkeypatch.setenv("SERVE_TOKEN", "s3cret")
    with running_app(tmp_path, guard, grpc=True, auth_token_env="SERVE_TOKEN") as app:
        body = otlp_json([json_span("ab" * 16, "cd" * 8, "", {"http.route": "/"})])
        assert _post(app, body, "application/json")[0] == 401
        assert _post(app, body, "application/json", Authorization="Bearer wrong")[0] == 401
        assert _post(app, body, "application/json", Authorization="Bearer s3cret")[0] == 200
        with grpc.insecure_channel(f"127.0.0.1:{app.ports['grpc']}") as channel:
            stub = trace_service_pb2_grpc.TraceServiceStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                stub.Export(ExportTraceServiceRequest(), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            stub.Export(
                ExportTraceServiceRequest(),
                metadata=(("authorization", "Bearer s3cret"),),
                timeout=10,
            )


def test_the_evaluator_span_joins_the_applications_trace(tmp_path, guard, memory) -> None:
    from ragguard.exporters.otel import OtelExporter

    provider, spans = memory
    trace_id, root, llm = "4" * 32, "1" * 16, "2" * 16
    chain = {"openinference.span.kind": "CHAIN", "input.value": QUERY}
    answer = {"openinference.span.kind": "LLM", "output.value": ANSWER}
    retrieval = {
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.content": "The Eiffel Tower is in Paris.",
    }
    config = {"exporters": {"otel": False}, "serve": {"grace_s": 0.1}}
    from ragguard.serve.app import ServeApp

    app = ServeApp(
        config,
        otlp_http="127.0.0.1:0",
        otlp_grpc="",
        metrics="127.0.0.1:0",
        guard=guard,
        exporters=[OtelExporter(tracer_provider=provider)],
    )
    app.start()
    try:
        body = otlp_json(
            [
                json_span(trace_id, root, "", chain),
                json_span(trace_id, llm, root, answer),
                json_span(trace_id, "3" * 16, root, retrieval),
            ]
        )
        assert _post(app, body, "application/json")[0] == 200
        wait_for(lambda: app.stats().traces.get("evaluated"))
    finally:
        app.stop(10)
    (evaluation,) = [s for s in spans.get_finished_spans() if s.name == "ragguard.evaluation"]
    assert f"{evaluation.context.trace_id:032x}" == trace_id
    assert f"{evaluation.parent.span_id:016x}" == llm
    assert evaluation.attributes["openinference.span.kind"] == "EVALUATOR"
    results = {e.attributes["gen_ai.evaluation.name"] for e in evaluation.events}
    assert "ragguard.support_rate" in results


def test_tls_on_both_receivers_with_the_sdk_exporters(tmp_path, guard, monkeypatch) -> None:
    import subprocess

    import grpc
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
        OTLPSpanExporter as GrpcExporter,
    )
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import (
        OTLPSpanExporter as HttpExporter,
    )

    cert, key = tmp_path / "serve.pem", tmp_path / "serve-key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    monkeypatch.setenv("SERVE_TOKEN", "t0ken")
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):  # requests lets them override
        monkeypatch.delenv(name, raising=False)
    settings = {"tls_cert": str(cert), "tls_key": str(key), "auth_token_env": "SERVE_TOKEN"}
    headers = {"authorization": "Bearer t0ken"}
    with running_app(tmp_path, guard, grpc=True, **settings) as app:
        http = HttpExporter(
            endpoint=f"https://127.0.0.1:{app.ports['http']}/v1/traces",
            certificate_file=str(cert),
            headers=headers,
        )
        credentials = grpc.ssl_channel_credentials(cert.read_bytes())
        secure = GrpcExporter(
            endpoint=f"127.0.0.1:{app.ports['grpc']}", credentials=credentials, headers=headers
        )
        for exporter in (http, secure):
            provider = sdk_provider(exporter)
            trace_id = openinference_request(provider)
            assert provider.force_flush(10_000)
            (record,) = logged(app, trace_id)
            assert record["evaluation"]["metrics"]["support_rate"] == 1.0
            provider.shutdown()
