"""The running ``ragguard serve``: receivers in, evaluation in the background, verdicts out.

Requests are acknowledged as soon as their spans are buffered. A scheduler thread hands
every due trace to assembly, and each assembled trace to the live ``Monitor`` of its
pipeline (the ``service.name`` resource attribute, at most ``exporters.max_pipelines``
names, then ``other``), which evaluates in batches on one shared ``Guard`` (the judge tier
as configured) and exports through the configured exporters, plus Phoenix and Langfuse.
A trace with nothing to evaluate gets its status instead (``content_not_captured``...).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hmac
import logging
import os
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from http.server import ThreadingHTTPServer
from typing import Any

from ragguard.config import Config, ConfigLike, ExportConfig, LiveConfig
from ragguard.errors import RagguardError
from ragguard.evaluation.guard import Guard
from ragguard.exporters import Exporter, build_exporters
from ragguard.exporters.registry import OTHER_PIPELINE, serve_monitor_config
from ragguard.live.monitor import Monitor
from ragguard.live.shared import shared_guard
from ragguard.runtime.memory import PeriodicRelease
from ragguard.schema import Evaluation, Trace
from ragguard.serve.addresses import check_exposure, parse
from ragguard.serve.assembly import Assembled, assemble
from ragguard.serve.buffer import BufferSettings, Due, TraceBuffer
from ragguard.serve.delivery import ExportQueue
from ragguard.serve.forward import Forwarder
from ragguard.serve.intake import Refusal, Reply
from ragguard.serve.otlp import Decoded
from ragguard.serve.startup import (
    check_addresses,
    listening,
    start_error,
    startup_line,
    verdict_destinations,
)
from ragguard.serve.stats import Counters, ServeStats

logger = logging.getLogger("ragguard.serve")

TICK_S = 0.1
"""How often due traces are looked for (the grace period's resolution)."""


def _same(trace: Trace) -> Trace:
    return trace


def _assemble(due: Due) -> Assembled:
    """``assemble``, or the ``invalid`` status when the trace's spans make it raise (untrusted
    values: a recursion, a number past Python's digit limit...), logged without a
    traceback so a flood of them cannot flood the log."""
    try:
        return assemble(due.trace_id, due.spans)
    except Exception as error:
        root = next((span for span in due.spans if span.parent_id is None), None)
        first = root or (due.spans[0] if due.spans else None)
        service = first.service if first is not None else "unknown_service"
        detail = f"{type(error).__name__} while assembling the trace"
        logger.warning("ragguard serve: trace %s is invalid: %s", due.trace_id, detail)
        return Assembled(
            due.trace_id,
            "invalid",
            service,
            target_span_id=root.span_id if root else None,
            detail=detail,
            spans=len(due.spans),
        )


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
        self.max_body_bytes = settings.max_body_bytes
        self.retry_after_s = settings.retry_after_s
        self._token = self._read_token()
        self.clock = clock
        self.buffer = TraceBuffer(
            BufferSettings(
                grace_s=settings.grace_s,
                idle_timeout_s=settings.idle_timeout_s,
                late_span_window_s=settings.late_span_window_s,
                max_traces=settings.max_traces,
                max_spans_per_trace=settings.max_spans_per_trace,
                sample_rate=settings.sample_rate,
                max_bytes=settings.max_held_bytes,
            ),
            clock,
        )
        self.counters = Counters()
        self.sinks = [*build_exporters(self.config.exporters, scope="serve"), *exporters]
        self.outbound = [ExportQueue(sink, settings.export_queue_size) for sink in self.sinks]
        """The sinks behind their own queues: what the Monitors and statuses are given."""
        self.guard = guard or shared_guard(self._models())
        self._monitors: dict[str, Monitor] = {}
        self._monitor_lock = threading.Lock()
        self._stopping = threading.Event()
        self._intake = threading.Condition()
        self._receiving = 0
        """Requests between their refusal check and their spans' buffering: ``stop`` waits
        for them, so no acknowledged span comes in after the buffer is drained."""
        self._ready = threading.Event()
        self.load_failures = 0
        """Failed attempts to load the models (``_warm`` retries them)."""
        self._threads: list[threading.Thread] = []
        self._closers: list[Callable[[], None]] = []
        self.forwarder: Forwarder | None = None
        self._metrics_server: ThreadingHTTPServer | None = None
        self.ports: dict[str, int] = {}
        """Bound ports by endpoint (``http``, ``grpc``, ``metrics``): port 0 picks one."""

    def _read_token(self) -> str | None:
        name = self.settings.auth_token_env
        if name is None:
            return None
        token = os.environ.get(name)
        if not token:
            raise RagguardError(f"serve.auth_token_env names {name}, which is not set")
        return token

    def _models(self) -> Config:
        """The evaluation config (the exporters are per pipeline, the queue is serve's). One
        Guard serves every service, so a judge calibration (``[calibration] source =
        "judge"``) is kept under the configured ``exporters.pipeline`` for all of them."""
        exporters = ExportConfig(pipeline=self.config.exporters.pipeline)
        return self.config.model_copy(update={"exporters": exporters, "live": LiveConfig()})

    def _monitor_config(self, pipeline: str) -> Config:
        live = self.config.live.model_copy(
            update={
                "mode": "background",
                "worker": "thread",
                "queue_size": self.settings.queue_size,
                "flush_on_sigterm": False,
                "warmup": False,
                "exit_flush_timeout_s": self.settings.shutdown_timeout_s,
            }
        )
        exporters = serve_monitor_config(self.config.exporters, pipeline)
        return self.config.model_copy(update={"live": live, "exporters": exporters})

    def monitor(self, service: str) -> Monitor:
        """The Monitor of one pipeline; names beyond ``max_pipelines`` share ``other``."""
        with self._monitor_lock:
            monitor = self._monitors.get(service)
            if monitor is not None:
                return monitor
            if len(self._monitors) >= self.config.exporters.max_pipelines:
                service = OTHER_PIPELINE
                if service in self._monitors:
                    return self._monitors[service]
            monitor = Monitor(
                self._monitor_config(service), guard=self.guard, exporters=self.outbound
            )
            self._monitors[service] = monitor
            return monitor

    # -- the receivers' side (``Intake``) ---------------------------------------------------

    def authorized(self, header: str | None) -> bool:
        """``Bearer <token>``, the scheme in any case (RFC 7235), the token compared in
        constant time."""
        if self._token is None:
            return True
        scheme, _, credentials = (header or "").strip().partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            credentials.strip().encode(), self._token.encode()
        )

    def queue_depth(self) -> int:
        workers = {id(m.worker): m.worker for m in list(self._monitors.values())}
        return sum(worker.stats.pending for worker in workers.values())

    def _room(self) -> int:
        """Traces the evaluation queue takes now (the scheduler hands over no more)."""
        return max(self.settings.queue_size - self.queue_depth(), 0)

    def refusal(self, incoming: int = 0) -> Refusal | None:
        """Why a request bringing ``incoming`` new root spans is refused now, if it is:
        the queued traces and the buffered ones due soon (their root came) may not pass
        ``queue_size`` (unless none wait), nor waiting span bytes ``max_held_bytes``."""
        if self._stopping.is_set():
            return "stopping"
        waiting = self.queue_depth() + self.buffer.rooted
        if waiting and waiting + max(incoming, 1) > self.settings.queue_size:
            return "queue_full"
        if self.buffer.waiting.bytes >= self.settings.max_held_bytes:
            return "buffer_full"
        return None

    def receive(self, decoded: Decoded) -> Reply:
        with self._intake:
            if self._stopping.is_set():
                return Reply(refused="stopping")
            self._receiving += 1
        try:
            return self._receive(decoded)
        finally:
            with self._intake:
                self._receiving -= 1
                self._intake.notify_all()

    def _receive(self, decoded: Decoded) -> Reply:
        roots = len({span.trace_id for span in decoded.spans if span.parent_id is None})
        refusal = self.refusal(roots)
        if refusal is not None:
            return Reply(refused=refusal)
        added = self.buffer.add(decoded.spans)
        if added.refused:  # waiting traces leave no room: retried, nothing acknowledged is lost
            return Reply(refused="buffer_full")
        with self.counters.lock:
            spans = self.counters.spans
            spans.update(
                accepted=added.accepted,
                rejected=added.rejected + added.over_capacity,
                duplicate=added.duplicates,
                sampled_out=added.sampled_out,
                malformed=decoded.rejected,
            )
        errors = list(decoded.errors)
        if added.rejected:
            errors.append(f"{added.rejected} spans over serve.max_spans_per_trace")
        if added.over_capacity:
            errors.append(
                f"{added.over_capacity} spans past what the buffer holds "
                "(serve.max_traces, serve.max_held_bytes)"
            )
        rejected = decoded.rejected + added.rejected + added.over_capacity
        return Reply(rejected=rejected, message="; ".join(errors))

    def forward(self, body: bytes, content_type: str, encoding: str | None) -> None:
        if self.forwarder is not None:
            self.forwarder.submit(body, content_type, encoding)

    def count_request(self, protocol: str, result: str) -> None:
        with self.counters.lock:
            self.counters.requests[(protocol, result)] += 1

    def count_connection(self, outcome: str) -> None:
        with self.counters.lock:
            self.counters.connections[outcome] += 1

    # -- evaluation ------------------------------------------------------------------------

    def process(self, dues: Sequence[Due]) -> list[Assembled]:
        """Assemble due traces; queue the ready ones, record the others' status. Each trace
        on its own: one that cannot be assembled is ``invalid`` (counted), not the tick's
        end."""
        results = []
        for due in dues:
            assembled = _assemble(due)
            results.append(assembled)
            with self.counters.lock:
                self.counters.traces[assembled.status] += 1
                if due.revision:
                    self.counters.traces["reevaluated"] += 1
            if assembled.status == "not_rag":  # nothing a late span could complete
                self.buffer.release(due.trace_id)
            if assembled.trace is not None:
                self.monitor(assembled.service).handle(
                    functools.partial(_same, assembled.trace),
                    on_evaluation=functools.partial(self._delivered, arrived=due.arrived_at),
                )
            elif assembled.status != "not_rag" and assembled.target_span_id is not None:
                self._status(assembled)
        return results

    def _delivered(self, evaluation: Evaluation, arrived: float) -> None:
        self.counters.latency(self.clock() - arrived)

    def _status(self, assembled: Assembled) -> None:
        logger.info(
            "ragguard serve: trace %s not evaluated: %s (%s)",
            assembled.trace_id,
            assembled.status,
            assembled.detail,
        )
        if assembled.target_span_id is None:
            return
        for queue in self.outbound:  # queued: a slow backend never holds up the scheduler
            queue.status(
                assembled.trace_id, assembled.target_span_id, assembled.status, assembled.detail
            )

    def _schedule(self) -> None:
        release = PeriodicRelease()  # kept traces expire and caches turn over: see its module
        while not self._stopping.wait(TICK_S):
            try:
                self.process(self.buffer.due(self._room()))
            except Exception:  # a bug must not stop the scheduler: logged, the next tick goes on
                logger.exception("ragguard serve: assembling traces failed")
            release()

    def _log_every(self, interval: float) -> None:
        while not self._stopping.wait(interval):
            logger.info("ragguard serve: %s", self.stats().line())

    def _warm(self) -> None:
        """Load the models, again after a failure (a judge GGUF still being copied, a port
        taken) with a doubling backoff capped at 5 minutes; ``/readyz`` waits for it."""
        delay = 1.0
        while not self._stopping.is_set():
            try:
                self.guard.warmup()
            except Exception:
                self.load_failures += 1
                logger.exception(
                    "ragguard serve: loading the models failed (%d times; again in %.0f s)",
                    self.load_failures,
                    delay,
                )
                if self._stopping.wait(delay):
                    return
                delay = min(delay * 2, 300.0)
                continue
            self._ready.set()
            return

    def stats(self) -> ServeStats:
        counters = self.counters
        monitors = list(self._monitors.values())
        traces: dict[str, int] = {}
        for monitor in monitors:
            live = monitor.stats
            for name in ("evaluated", "failed", "dropped", "lost"):
                traces[name] = traces.get(name, 0) + getattr(live, name)
        exports: dict[tuple[str, str], int] = {}
        for queue in self.outbound:
            for outcome, value in vars(queue.outbox.counts).items():
                key = (queue.name, outcome)
                exports[key] = exports.get(key, 0) + value
        with counters.lock:
            for name, value in counters.traces.items():
                traces[name] = traces.get(name, 0) + value
            return ServeStats(
                spans=dict(counters.spans),
                traces=traces,
                requests=dict(counters.requests),
                connections=dict(counters.connections),
                exports=exports,
                refused_batches=self.buffer.counts["batches_refused"],
                held_traces=self.buffer.held_traces,
                held_spans=self.buffer.held_spans,
                held_bytes=self.buffer.held_bytes,
                queue_depth=self.queue_depth(),
                forward_errors=self.forwarder.errors if self.forwarder else 0,
                latency_counts=list(counters.latency_counts),
                latency_sum=counters.latency_sum,
                latency_total=counters.latency_total,
            )

    def ready(self) -> bool:
        return self._ready.is_set() and not self._stopping.is_set()

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
        tls = self._tls()
        http_host, http_port = parse(self.http_address)
        endpoints = [("OTLP/HTTP", http_host)]
        if self.grpc_address is not None:
            endpoints.append(("OTLP/gRPC", parse(self.grpc_address)[0]))
        for what, host in endpoints:
            check_exposure(host, what, token=self._token is not None, tls=tls is not None)
        addresses = {"http": self.http_address}
        if self.grpc_address is not None:
            addresses["grpc"] = self.grpc_address
        addresses["metrics"] = self.metrics_address
        check_addresses(addresses)  # every clash named at once, before any thread starts
        self._start_thread(self._warm, "ragguard-serve-warmup")
        self._start_metrics()
        if self.settings.forward_otlp:
            self.forwarder = Forwarder(self.settings.forward_otlp, self.settings.forward_queue_size)
        from ragguard.serve.receiver_http import start_http

        http = listening(
            "http",
            self.http_address,
            http_port,
            lambda: start_http(self, http_host, http_port, tls, self.settings),
        )
        self.ports["http"] = http.server_address[1]
        self._closers.extend([http.shutdown, http.server_close])
        if self.grpc_address is not None:
            grpc_host, grpc_port = parse(self.grpc_address)
            from ragguard.serve.receiver_grpc import start_grpc

            pair = (self.settings.tls_cert, self.settings.tls_key)
            files = pair if pair[0] is not None and pair[1] is not None else None
            try:
                server, bound = start_grpc(
                    self,
                    grpc_host,
                    grpc_port,
                    files,  # type: ignore[arg-type]
                    first_message_s=self.settings.request_timeout_s,
                )
            except RuntimeError:  # gRPC's own bind failure (a port taken since the check)
                bound = 0
            if not bound:
                error = OSError(errno.EADDRINUSE, "cannot bind")
                raise start_error("grpc", self.grpc_address, grpc_port, error)
            self.ports["grpc"] = bound
            self._closers.append(lambda: server.stop(1).wait())
        self._start_thread(self._schedule, "ragguard-serve-scheduler")
        self._start_thread(
            lambda: self._log_every(self.settings.log_interval_s), "ragguard-serve-log"
        )

    def startup_line(self) -> str:
        """Where serve listens and where its verdicts go (printed once by the CLI)."""
        hosts = {"http": parse(self.http_address)[0], "metrics": parse(self.metrics_address)[0]}
        if self.grpc_address is not None:
            hosts["grpc"] = parse(self.grpc_address)[0]
        extra = sum(not type(s).__module__.startswith("ragguard.") for s in self.sinks)
        return startup_line(self.ports, hosts, verdict_destinations(self.config, extra))

    def _start_metrics(self) -> None:
        from prometheus_client import REGISTRY

        from ragguard.serve.metrics_http import ServeCollector, health_server

        collector = ServeCollector(self.stats)
        REGISTRY.register(collector)
        self._closers.append(lambda: REGISTRY.unregister(collector))
        host, port = parse(self.metrics_address)
        server = listening(
            "metrics",
            self.metrics_address,
            port,
            lambda: health_server(host, port, self.ready, lambda: not self._stopping.is_set()),
        )
        self.ports["metrics"] = server.server_address[1]
        self._metrics_server = server

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
        with self._intake:
            self._stopping.set()
            self._intake.wait_for(lambda: self._receiving == 0, max(timeout, 0.1))
        for thread in self._threads:
            thread.join(1.0)
        drained = self.buffer.drain()
        unassembled = self._hand_over(drained, deadline)
        monitors = list(self._monitors.values())
        if monitors:
            monitors[0].worker.flush(max(deadline - time.monotonic(), 0.0))
        left = self.queue_depth() + unassembled
        for monitor in monitors:
            monitor.shutdown(0.0)
        dropped = sum(queue.close(deadline) for queue in self.outbound)
        self._close_endpoints()
        if self.forwarder is not None:
            self.forwarder.close(max(deadline - time.monotonic(), 0.1))
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

    def _hand_over(self, dues: list[Due], deadline: float) -> int:
        """Hand ``dues`` to the evaluation queue as room frees up, until ``deadline``; how
        many were left (counted as lost)."""
        while dues:
            room = self._room()
            if room:
                self.process(dues[:room])
                dues = dues[room:]
            elif time.monotonic() >= deadline:
                break
            else:
                time.sleep(TICK_S)
        if dues:
            with self.counters.lock:
                self.counters.traces["lost"] += len(dues)
        return len(dues)

    def _close_endpoints(self) -> None:
        """Stop taking requests: refuse them (503), then close the receivers."""
        self._stopping.set()
        for close in self._closers[::-1]:
            with contextlib.suppress(Exception):
                close()
        self._closers.clear()
