"""The running ``ragguard serve``: receivers in, evaluation in the background, verdicts out.

``ServeApp`` puts the jobs together and runs their life cycle: ``receiving`` (the
``Intake`` of both receivers: token, refusals, counts), the ``buffer`` (spans per trace
until due), ``evaluating`` (the scheduler and the Monitors by pipeline), ``outgoing``
(verdicts and statuses to the sinks) and ``health`` (readiness, stats, ``/metrics``).
Requests are acknowledged as soon as their spans are buffered.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from http.server import ThreadingHTTPServer
from typing import Any

from ragguard.config import Config, ConfigLike
from ragguard.errors import RagguardError
from ragguard.evaluation import Guard
from ragguard.exporters import Exporter
from ragguard.serve.addresses import check_exposure, parse
from ragguard.serve.allocator import return_big_blocks
from ragguard.serve.buffer import BufferSettings, Due, TraceBuffer
from ragguard.serve.evaluating import Evaluating
from ragguard.serve.forward import Forwarder
from ragguard.serve.health import Health
from ragguard.serve.join import Joined
from ragguard.serve.outgoing import Outgoing
from ragguard.serve.receiving import Receiving
from ragguard.serve.startup import (
    check_addresses,
    listening,
    start_error,
    startup_line,
    verdict_destinations,
)
from ragguard.serve.stats import Counters, ServeStats

logger = logging.getLogger("ragguard.serve")


class ServeApp:
    """``start()`` binds and returns; ``stop()`` drains. Addresses given here override the
    config's (``None``: the config's; ``""`` for gRPC: no gRPC receiver)."""

    def __init__(
        self,
        config: ConfigLike = None,
        *,
        otlp_http: str | None = None,
        otlp_grpc: str | None = None,
        metrics: str | None = None,
        guard: Guard | None = None,
        exporters: Sequence[Exporter] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = Config.coerce(config)
        settings = self.config.serve
        self.settings = settings
        self.http_address = otlp_http or settings.otlp_http
        grpc = settings.otlp_grpc if otlp_grpc is None else otlp_grpc
        self.grpc_address = grpc or None
        self.metrics_address = metrics or settings.metrics
        self.buffer = TraceBuffer(BufferSettings.of(settings), clock)
        self.counters = Counters()
        self._stopping = threading.Event()
        self.outgoing = Outgoing(self.config, exporters)
        self.evaluating = Evaluating(
            self.config, self.buffer, self.counters, self.outgoing, guard, clock
        )
        self.guard = self.evaluating.guard
        self.receiving = Receiving(
            settings, self.buffer, self.counters, self.evaluating.queue_depth, self._stopping
        )
        self.health = Health(
            self.receiving, self.buffer, self.evaluating, self.outgoing, self._stopping
        )
        self._threads: list[threading.Thread] = []
        self._closers: list[Callable[[], None]] = []
        self._metrics_server: ThreadingHTTPServer | None = None
        self.ports: dict[str, int] = {}
        """Bound ports by endpoint (``http``, ``grpc``, ``metrics``): port 0 picks one."""

    def process(self, dues: Sequence[Due]) -> list[Joined]:
        return self.evaluating.process(dues)

    def queue_depth(self) -> int:
        return self.evaluating.queue_depth()

    def stats(self) -> ServeStats:
        return self.health.stats()

    def ready(self) -> bool:
        return self.health.ready()

    @property
    def load_failures(self) -> int:
        """Failed attempts to load the models (the warm-up retries them)."""
        return self.health.load_failures

    # -- life cycle ------------------------------------------------------------------------

    def _tls(self) -> ssl.SSLContext | None:
        settings = self.settings
        if settings.tls_cert is None or settings.tls_key is None:
            return None
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(settings.tls_cert, settings.tls_key)
        return context

    def start(self) -> None:
        """Bind every endpoint (refusing exposure without a token and TLS) and start."""
        try:
            self._start()
        except BaseException as error:
            self._close_endpoints()
            if self._metrics_server is not None:
                self._metrics_server.shutdown()
                self._metrics_server.server_close()
            if isinstance(error, ImportError):
                raise RagguardError(
                    f"ragguard serve needs {error.name}: pip install 'ragguard-eval[serve]'"
                ) from error
            raise

    def _start(self) -> None:
        return_big_blocks()
        tls = self._tls()
        addresses = {"http": self.http_address}
        if self.grpc_address is not None:
            addresses["grpc"] = self.grpc_address
        addresses["metrics"] = self.metrics_address
        token = self.receiving.token is not None
        for which, address in addresses.items():
            if which != "metrics":
                what = "OTLP/HTTP" if which == "http" else "OTLP/gRPC"
                check_exposure(parse(address)[0], what, token=token, tls=tls is not None)
        check_addresses(addresses)  # every clash named at once, before any thread starts
        self._start_thread(lambda: self.health.warm(self.guard), "ragguard-serve-warmup")
        self._metrics_server = self.health.start_endpoint(self.metrics_address, self._closers)
        self.ports["metrics"] = self._metrics_server.server_address[1]
        if self.settings.forward_otlp:
            self.receiving.forwarder = Forwarder(
                self.settings.forward_otlp, self.settings.forward_queue_size
            )
        self._start_http(tls)
        if self.grpc_address is not None:
            self._start_grpc(self.grpc_address)
        self._start_thread(
            lambda: self.evaluating.schedule(self._stopping), "ragguard-serve-scheduler"
        )
        self._start_thread(
            lambda: self.health.log_every(self.settings.log_interval_s), "ragguard-serve-log"
        )

    def _start_http(self, tls: ssl.SSLContext | None) -> None:
        from ragguard.serve.receiver_http import start_http

        host, port = parse(self.http_address)
        http = listening(
            "http",
            self.http_address,
            port,
            lambda: start_http(self.receiving, host, port, tls, self.settings),
        )
        self.ports["http"] = http.server_address[1]
        self._closers.extend([http.shutdown, http.server_close])

    def _start_grpc(self, address: str) -> None:
        from ragguard.serve.receiver_grpc import start_grpc

        host, port = parse(address)
        pair = (self.settings.tls_cert, self.settings.tls_key)
        files = pair if pair[0] is not None and pair[1] is not None else None
        try:
            server, bound = start_grpc(
                self.receiving,
                host,
                port,
                files,  # type: ignore[arg-type]
                first_message_s=self.settings.request_timeout_s,
            )
        except RuntimeError:  # gRPC's own bind failure (a port taken since the check)
            bound = 0
        if not bound:
            error = OSError(errno.EADDRINUSE, "cannot bind")
            raise start_error("grpc", address, port, error)
        self.ports["grpc"] = bound
        self._closers.append(lambda: server.stop(1).wait())

    def startup_line(self) -> str:
        """Where serve listens and where its verdicts go (printed once by the CLI)."""
        hosts = {"http": parse(self.http_address)[0], "metrics": parse(self.metrics_address)[0]}
        if self.grpc_address is not None:
            hosts["grpc"] = parse(self.grpc_address)[0]
        destinations = verdict_destinations(self.config, self.outgoing.extra_sinks)
        return startup_line(self.ports, hosts, destinations)

    def _start_thread(self, target: Callable[[], Any], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self, timeout: float | None = None) -> int:
        """Refuse new requests (503, gRPC UNAVAILABLE: the receivers stay open while the
        held traces drain, so exporters are told to retry rather than finding no one
        listening), evaluate every held trace, deliver within ``timeout`` (default
        ``shutdown_timeout_s``) and close; the number of traces left undelivered (counted
        as lost when the process exits)."""
        timeout = self.settings.shutdown_timeout_s if timeout is None else timeout
        deadline = time.monotonic() + timeout
        self.receiving.close(timeout)
        for thread in self._threads:
            thread.join(1.0)
        drained = self.buffer.drain()
        unassembled = self.evaluating.hand_over(drained, deadline)
        left = self.evaluating.finish(deadline) + unassembled
        dropped = self.outgoing.close(deadline)
        self._close_endpoints()
        forwarder = self.receiving.forwarder
        if forwarder is not None:
            forwarder.close(max(deadline - time.monotonic(), 0.1))
        logger.info(
            "ragguard serve: stopped; %d held traces assembled at shutdown, %d undelivered, "
            "%d exports dropped; %s",
            len(drained) - unassembled,
            left,
            dropped,
            self.stats().line(),
        )
        if self._metrics_server is not None:
            self._metrics_server.shutdown()
            self._metrics_server.server_close()
        return left

    def _close_endpoints(self) -> None:
        """Stop taking requests: refuse them (503), then close the receivers."""
        self._stopping.set()
        for close in self._closers[::-1]:
            with contextlib.suppress(Exception):
                close()
        self._closers.clear()
