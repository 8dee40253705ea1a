"""The OTLP/gRPC receiver counts the messages grpcio refuses past the body cap, and streams
that never send a message hold up no authorised export."""

from __future__ import annotations

import threading
import time

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

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


PATH = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"


def _silent_streams(channel, count: int, metadata=()) -> tuple[list, threading.Event]:
    """``count`` Export calls that open and never send their message (until released)."""
    release = threading.Event()

    def never():
        release.wait(60)
        return
        yield  # a generator that yields nothing

    call = channel.stream_unary(
        PATH,
        request_serializer=ExportTraceServiceRequest.SerializeToString,
        response_deserializer=ExportTraceServiceResponse.FromString,
    )
    return [call.future(never(), metadata=metadata, timeout=60) for _ in range(count)], release


def test_silent_streams_without_the_token_are_refused_before_their_message(
    tmp_path, guard, monkeypatch
) -> None:
    """Four streams that never send hold none of the four workers: the token is read from
    the metadata first, so an authorised export goes through at once."""
    monkeypatch.setenv("R1_TOKEN", "sesame")
    with (
        running_app(tmp_path, guard, grpc=True, auth_token_env="R1_TOKEN") as app,
        grpc.insecure_channel(f"127.0.0.1:{app.ports['grpc']}") as channel,
    ):
        silent, release = _silent_streams(channel, 8)
        try:
            for call in silent:
                with pytest.raises(grpc.RpcError) as refused:
                    call.result(timeout=10)
                assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            stub = trace_service_pb2_grpc.TraceServiceStub(channel)
            stub.Export(
                ExportTraceServiceRequest(),
                metadata=(("authorization", "Bearer sesame"),),
                timeout=5,
            )
        finally:
            release.set()


def test_an_authorised_stream_that_never_sends_is_cut_off_at_the_request_timeout(
    tmp_path, guard
) -> None:
    with running_app(tmp_path, guard, grpc=True, request_timeout_s=0.5) as app:
        with grpc.insecure_channel(f"127.0.0.1:{app.ports['grpc']}") as channel:
            silent, release = _silent_streams(channel, 8)
            try:
                started = time.monotonic()
                stub = trace_service_pb2_grpc.TraceServiceStub(channel)
                stub.Export(ExportTraceServiceRequest(), timeout=10)
                assert time.monotonic() - started < 5.0
                for call in silent:
                    with pytest.raises(grpc.RpcError) as cut:
                        call.result(timeout=10)
                    assert cut.value.code() == grpc.StatusCode.CANCELLED
            finally:
                release.set()
        wait_for(lambda: app.stats().requests.get(("grpc", "CANCELLED")) == 8, 10)
