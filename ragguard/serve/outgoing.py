"""What ``serve`` delivers: verdicts and statuses to its sinks (the configured exporters,
Phoenix, Langfuse, any given ones), each sink behind a queue of its own (``delivery``), so
a slow backend never holds up the scheduler or the evaluation."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ragguard.config import Config
from ragguard.exporters import Exporter, StatusNote, build_exporters
from ragguard.serve.delivery import ExportQueue
from ragguard.serve.join import Joined

logger = logging.getLogger("ragguard.serve")


class Outgoing:
    def __init__(self, config: Config, exporters: Sequence[Exporter] = ()) -> None:
        self.sinks = [*build_exporters(config.exporters, scope="serve"), *exporters]
        size = config.serve.export_queue_size
        self.queues = [ExportQueue(sink, size) for sink in self.sinks]
        """The sinks behind their own queues: what the Monitors and statuses are given."""

    @property
    def extra_sinks(self) -> int:
        """Sinks from outside ragguard (for the start-up line)."""
        return sum(not type(s).__module__.startswith("ragguard.") for s in self.sinks)

    def status(self, joined: Joined) -> None:
        """A trace with nothing to evaluate: logged, and its status sent where it would
        have been annotated."""
        logger.info(
            "ragguard serve: trace %s not evaluated: %s (%s)",
            joined.trace_id,
            joined.status,
            joined.detail,
        )
        if joined.target_span_id is None:
            return
        note = StatusNote(joined.trace_id, joined.target_span_id, joined.status, joined.detail)
        for queue in self.queues:  # queued: a slow backend never holds up the scheduler
            queue.record_status(note)

    def counts(self) -> dict[tuple[str, str], int]:
        """(exporter, outcome): sent, failed, dropped."""
        exports: dict[tuple[str, str], int] = {}
        for queue in self.queues:
            for outcome, value in vars(queue.outbox.counts).items():
                key = (queue.name, outcome)
                exports[key] = exports.get(key, 0) + value
        return exports

    def close(self, deadline: float) -> int:
        """Deliver until ``deadline``; how many were dropped."""
        return sum(queue.close(deadline) for queue in self.queues)
