"""The OTLP/gRPC receiver counts the messages grpcio refuses past the body cap."""

from __future__ import annotations

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from tests.support.serve_clients import metrics_text, running_app, wait_for


def test_a_message_past_the_cap_is_refused_and_counted(tmp_path, guard, caplog) -> None:
    with running_app(tmp_path, guard, grpc=True, max_body_bytes=4096) as app:
        big = ExportTraceServiceRequest()
        big.resource_spans.add().scope_spans.add().spans.add().name = "x" * 10_000
        with grpc.insecure_channel(f"127.0.0.1:{app.ports['grpc']}") as channel:
            stub = trace_service_pb2_grpc.TraceServiceStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                stub.Export(big, timeout=10)
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            stub.Export(ExportTraceServiceRequest(), timeout=10)  # a small one still goes
        refused_line = 'protocol="grpc",result="RESOURCE_EXHAUSTED"} 1.0'
        wait_for(lambda: app.stats().requests.get(("grpc", "RESOURCE_EXHAUSTED")), 10)
        text = metrics_text(app)
    assert refused_line in text
    assert 'ragguard_serve_requests_total{protocol="grpc",result="OK"} 1.0' in text
    assert "Exception calling application" not in caplog.text
