"""OTLP/gRPC: the ``TraceService/Export`` method with grpcio and the opentelemetry-proto
classes. A full queue or a shutdown answers UNAVAILABLE (retryable for OTLP exporters),
a missing token UNAUTHENTICATED; a message over the body cap is refused by grpcio itself
(RESOURCE_EXHAUSTED).

The method is registered as taking a stream of requests (the wire is the same for a unary
call), so the handler runs even when grpcio refused the message, and that refusal is
counted: a call that brings no message was refused past the cap (or was malformed)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from ragguard.serve.intake import Intake
from ragguard.serve.otlp import decode_request
from ragguard.serve.receiver_http import PROTOBUF

SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService"


class _TraceService:
    def __init__(self, intake: Intake) -> None:
        self.intake = intake

    def export(
        self, requests: Iterator[ExportTraceServiceRequest], context: Any
    ) -> ExportTraceServiceResponse:
        """One ``Export`` call: its single request, if grpcio let it through."""
        try:
            request = next(requests, None)
        except grpc.RpcError:  # the call already ended: grpcio refused the message
            request = None
        if request is None:  # grpcio already answered RESOURCE_EXHAUSTED
            self.intake.count_request("grpc", "RESOURCE_EXHAUSTED")
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "no request message")
            return ExportTraceServiceResponse()  # not reached: abort raises
        return self.handle(request, context)

    def handle(
        self, request: ExportTraceServiceRequest, context: Any
    ) -> ExportTraceServiceResponse:
        intake = self.intake
        metadata = dict(context.invocation_metadata() or ())
        if not intake.authorized(metadata.get("authorization")):
            intake.count_request("grpc", "UNAUTHENTICATED")
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token")
        reply = None
        if intake.refusal() is None:
            reply = intake.receive(decode_request(request))
        if reply is None or reply.refused is not None:
            intake.count_request("grpc", "UNAVAILABLE")
            context.set_trailing_metadata((("retry-after", str(intake.retry_after_s)),))
            context.abort(grpc.StatusCode.UNAVAILABLE, "queue full or shutting down")
            return ExportTraceServiceResponse()  # not reached: abort raises
        intake.count_request("grpc", "OK")
        intake.forward(request.SerializeToString(), PROTOBUF, None)
        response = ExportTraceServiceResponse()
        if reply.rejected:
            response.partial_success.rejected_spans = reply.rejected
            response.partial_success.error_message = reply.message
        return response


def start_grpc(
    intake: Intake,
    host: str,
    port: int,
    tls: tuple[Path, Path] | None = None,
    workers: int = 4,
) -> tuple[grpc.Server, int]:
    """Start the gRPC receiver; (server, bound port) (``server.stop(grace)`` stops it)."""
    options = [
        ("grpc.max_receive_message_length", intake.max_body_bytes),
        ("grpc.so_reuseport", 0),
    ]
    server = grpc.server(ThreadPoolExecutor(workers, "ragguard-serve-grpc"), options=options)
    method = grpc.stream_unary_rpc_method_handler(
        _TraceService(intake).export,
        request_deserializer=ExportTraceServiceRequest.FromString,
        response_serializer=ExportTraceServiceResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE, {"Export": method}),)
    )
    target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if tls is None:
        bound = server.add_insecure_port(target)
    else:
        cert, key = tls
        credentials = grpc.ssl_server_credentials([(key.read_bytes(), cert.read_bytes())])
        bound = server.add_secure_port(target, credentials)
    server.start()
    return server, bound
