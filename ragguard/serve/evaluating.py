"""``serve``'s evaluation: a scheduler thread joins every due trace's spans, and hands each
joined trace to the live ``Monitor`` of its pipeline (the ``service.name`` resource
attribute, at most ``exporters.max_pipelines`` names, then ``other``), which evaluates in
batches on one shared ``Guard`` (the judge tier as configured) and exports. A trace with
nothing to evaluate gets its status instead (``content_not_captured``...). The scheduler
hands over only what the evaluation queue can take, so an acknowledged trace is never
dropped for want of room."""

from __future__ import annotations

import functools
import logging
import threading
import time
import weakref
from collections.abc import Callable, Sequence

from ragguard.config import Config, ExportConfig, LiveConfig
from ragguard.evaluation import Guard
from ragguard.exporters import OTHER_PIPELINE, serve_monitor_config
from ragguard.live import Monitor, shared_guard
from ragguard.runtime import PeriodicRelease
from ragguard.schema import Evaluation, Trace
from ragguard.serve.buffer import Due, TraceBuffer
from ragguard.serve.join import Joined, join_spans
from ragguard.serve.outgoing import Outgoing
from ragguard.serve.stats import Counters

logger = logging.getLogger("ragguard.serve")

TICK_S = 0.1
"""How often due traces are looked for (the grace period's resolution)."""

LIVE_COUNTS = ("evaluated", "failed", "dropped", "lost")
"""The Monitors' counters that the receiver's stats add up."""


def _same(trace: Trace) -> Trace:
    return trace


def _join(due: Due) -> Joined:
    """``join_spans``, or the ``invalid`` status when the trace's spans make it raise
    (untrusted values: a recursion, a number past Python's digit limit...), logged without a
    traceback so a flood of them cannot flood the log."""
    try:
        return join_spans(due.trace_id, due.spans)
    except Exception as error:
        root = next((span for span in due.spans if span.parent_id is None), None)
        first = root or (due.spans[0] if due.spans else None)
        service = first.service if first is not None else "unknown_service"
        detail = f"{type(error).__name__} while assembling the trace"
        logger.warning("ragguard serve: trace %s is invalid: %s", due.trace_id, detail)
        return Joined(
            due.trace_id,
            "invalid",
            service,
            target_span_id=root.span_id if root else None,
            detail=detail,
            spans=len(due.spans),
        )


REVISION_KEY = "revision"
"""The trace-log field of a re-evaluation that late spans from another service caused."""


def _caused_by(trace: Trace, due: Due) -> Trace:
    """``trace`` naming why it is evaluated again: its record is a second one, beside the
    first, never a silent replacement (any service may send spans under a trace id)."""
    cause = {"number": due.revision, "cause": "late_spans", "services": list(due.late_from)}
    return trace.model_copy(update={REVISION_KEY: cause})


def evaluation_config(config: Config) -> Config:
    """The evaluation config (the exporters are per pipeline, the queue is serve's). One
    Guard serves every service, so a judge calibration (``[calibration] source =
    "judge"``) is kept under the configured ``exporters.pipeline`` for all of them."""
    exporters = ExportConfig(pipeline=config.exporters.pipeline)
    return config.model_copy(update={"exporters": exporters, "live": LiveConfig()})


class Evaluating:
    """The Monitors by pipeline, on one ``guard``, and the scheduler that feeds them."""

    def __init__(
        self,
        config: Config,
        buffer: TraceBuffer,
        counters: Counters,
        outgoing: Outgoing,
        guard: Guard | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.settings = config.serve
        self.buffer = buffer
        self.counters = counters
        self.outgoing = outgoing
        self.guard = guard or shared_guard(evaluation_config(config))
        self.clock = clock
        self._monitors: dict[str, Monitor] = {}
        self._monitor_lock = threading.Lock()

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
                self._monitor_config(service), guard=self.guard, exporters=self.outgoing.queues
            )
            self._monitors[service] = monitor
            return monitor

    def queue_depth(self) -> int:
        workers = {id(m.worker): m.worker for m in list(self._monitors.values())}
        return sum(worker.stats.pending for worker in workers.values())

    def room(self) -> int:
        """Traces the evaluation queue takes now (the scheduler hands over no more)."""
        return max(self.settings.queue_size - self.queue_depth(), 0)

    def live_counts(self) -> dict[str, int]:
        """The Monitors' ``LIVE_COUNTS``, added up (none before the first Monitor)."""
        monitors = list(self._monitors.values())
        totals = dict.fromkeys(LIVE_COUNTS, 0) if monitors else {}
        for monitor in monitors:
            live = monitor.stats
            for name in LIVE_COUNTS:
                totals[name] += getattr(live, name)
        return totals

    def process(self, dues: Sequence[Due]) -> list[Joined]:
        """Join due traces; queue the ready ones, record the others' status. Each trace on
        its own: one that cannot be joined is ``invalid`` (counted), not the tick's end."""
        results = []
        for due in dues:
            joined = _join(due)
            results.append(joined)
            with self.counters.lock:
                self.counters.traces[joined.status] += 1
                if due.revision:
                    self.counters.traces["reevaluated"] += 1
            if joined.status == "not_rag":  # nothing a late span could complete
                self.buffer.release(due.trace_id)
            if joined.trace is not None and due.late_from:
                joined.trace = _caused_by(joined.trace, due)
            if joined.trace is not None:
                # counted until the trace is let go (evaluated and delivered, or dropped)
                self.buffer.evaluation_started(due.size)
                weakref.finalize(joined.trace, self.buffer.evaluation_ended, due.size)
                self.monitor(joined.service).handle(
                    functools.partial(_same, joined.trace),
                    on_evaluation=functools.partial(self._delivered, arrived=due.arrived_at),
                )
            elif joined.status != "not_rag" and joined.target_span_id is not None:
                self.outgoing.status(joined)
        return results

    def _delivered(self, evaluation: Evaluation, arrived: float) -> None:
        self.counters.latency(self.clock() - arrived)

    def schedule(self, stopping: threading.Event) -> None:
        """The scheduler thread's loop, until ``stopping``."""
        release = PeriodicRelease()  # kept traces expire and caches turn over: see its module
        while not stopping.wait(TICK_S):
            try:
                self.process(self.buffer.due(self.room()))
            except Exception:  # a bug must not stop the scheduler: logged, the next tick goes on
                logger.exception("ragguard serve: assembling traces failed")
            release()

    def hand_over(self, dues: list[Due], deadline: float) -> int:
        """Hand ``dues`` to the evaluation queue as room frees up, until ``deadline``; how
        many were left (counted as lost)."""
        while dues:
            room = self.room()
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

    def finish(self, deadline: float) -> int:
        """Evaluate what is queued until ``deadline``, then stop the Monitors; how many
        traces were left."""
        monitors = list(self._monitors.values())
        if monitors:
            monitors[0].worker.flush(max(deadline - time.monotonic(), 0.0))
        left = self.queue_depth()
        for monitor in monitors:
            monitor.shutdown(0.0)
        return left
