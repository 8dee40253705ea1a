"""OTLP/gRPC: the ``TraceService/Export`` method with grpcio and the opentelemetry-proto
classes. A full queue or a shutdown answers UNAVAILABLE (retryable for OTLP exporters),
a missing token UNAUTHENTICATED; a message over the body cap is refused by grpcio itself
(RESOURCE_EXHAUSTED).

The method is registered as taking a stream of requests (the wire is the same for a unary
call), so the handler runs even when grpcio refused the message, and that refusal is
counted: a call that brings no message was refused past the cap. The message comes as
bytes, counted (``serve.max_values_per_request``) and reserved
(``serve.max_inflight_bytes``) before it is parsed, as over HTTP.

The token is checked from the call's metadata before its message is waited for, and that
wait is bounded (``serve.request_timeout_s``; the call is then cancelled): a stream that
never sends a message holds a worker thread no longer, so a few of them cannot hold up
every export."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceResponse,
)

from ragguard.serve.inflight import Busy
from ragguard.serve.intake import Intake
from ragguard.serve.otlp import OtlpDecodeError
from ragguard.serve.receiver_http import PROTOBUF
from ragguard.serve.request_size import TooManyValues

SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService"


class _TraceService:
    def __init__(self, intake: Intake, first_message_s: float) -> None:
        self.intake = intake
        self.first_message_s = first_message_s

    def export(self, requests: Iterator[bytes], context: Any) -> ExportTraceServiceResponse:
        """One ``Export`` call: its single request, if grpcio let it through."""
        metadata = dict(context.invocation_metadata() or ())
        if not self.intake.authorized(metadata.get("authorization")):
            self.intake.count_request("grpc", "UNAUTHENTICATED")
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token")
        late = threading.Event()

        def cancel() -> None:
            late.set()
            context.cancel()

        timer = threading.Timer(self.first_message_s, cancel)
        timer.daemon = True
        timer.start()
        try:
            request = next(requests, None)
        except grpc.RpcError:  # the call already ended: grpcio refused the message
            request = None
        finally:
            timer.cancel()
        if late.is_set():  # no message within serve.request_timeout_s: cancelled
            self.intake.count_request("grpc", "CANCELLED")
            return ExportTraceServiceResponse()  # the call is over; nothing is sent
        if request is None:  # grpcio already answered RESOURCE_EXHAUSTED
            self.intake.count_request("grpc", "RESOURCE_EXHAUSTED")
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "no request message")
            return ExportTraceServiceResponse()  # not reached: abort raises
        return self.handle(request, context)

    def handle(self, request: bytes, context: Any) -> ExportTraceServiceResponse:
        """One message, as bytes: counted and reserved before it is parsed (grpcio is not
        let parse it, so a small message cannot decode into gigabytes unseen)."""
        intake = self.intake
        reply = None
        try:
            with intake.reservation() as reserved:
                reserved.take(len(request))
                if intake.refusal() is None:
                    reply = intake.receive(intake.decode(request, False, reserved))
        except Busy:  # no room in serve.max_inflight_bytes: UNAVAILABLE, retried
            reply = None
        except TooManyValues:
            intake.count_request("grpc", "RESOURCE_EXHAUSTED")
            context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED, "more items than serve.max_values_per_request"
            )
        except OtlpDecodeError as error:
            intake.count_request("grpc", "INVALID_ARGUMENT")
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error)[:200])
        if reply is None or reply.refused is not None:
            intake.count_request("grpc", "UNAVAILABLE")
            context.set_trailing_metadata((("retry-after", str(intake.retry_after_s)),))
            context.abort(grpc.StatusCode.UNAVAILABLE, "queue full or shutting down")
            return ExportTraceServiceResponse()  # not reached: abort raises
        intake.count_request("grpc", "OK")
        intake.forward(request, PROTOBUF, None)
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
    first_message_s: float = 60.0,
) -> tuple[grpc.Server, int]:
    """Start the gRPC receiver; (server, bound port) (``server.stop(grace)`` stops it).
    A call must bring its message within ``first_message_s``."""
    options = [
        ("grpc.max_receive_message_length", intake.max_body_bytes),
        ("grpc.so_reuseport", 0),
    ]
    server = grpc.server(ThreadPoolExecutor(workers, "ragguard-serve-grpc"), options=options)
    method = grpc.stream_unary_rpc_method_handler(
        _TraceService(intake, first_message_s).export,
        request_deserializer=None,  # bytes: decoded by ``handle`` within its bounds
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
