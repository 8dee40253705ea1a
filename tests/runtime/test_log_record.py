"""The trace-log record: the one module that writes a line reads it back the same."""

from __future__ import annotations

from datetime import UTC, datetime

from ragguard.runtime.jsonl import parse_line
from ragguard.runtime.log_record import LOG_FIELDS, LoggedTrace, as_logged, to_record
from tests.support.replay_fixtures import evaluation, trace


def test_a_record_written_reads_back_as_its_trace_evaluation_and_time() -> None:
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    live = evaluation("t1")
    line = to_record(trace("t1"), live, when)
    assert line is not None and line.endswith(b"\n")
    data = parse_line(line, 7)
    assert isinstance(data, dict) and set(LOG_FIELDS) - {"log_truncated"} <= set(data)
    logged = as_logged(data, "log.jsonl", 7)
    assert isinstance(logged, LoggedTrace)
    assert logged.trace.trace_id == "t1" and logged.line == 7 and not logged.truncated
    assert logged.evaluation == live and logged.logged_at == when


def test_a_replayed_trace_logged_again_drops_its_old_log_fields() -> None:
    when = datetime(2026, 1, 2, tzinfo=UTC)
    old = trace("t1", logged_at="2020-01-01T00:00:00+00:00", log_truncated=True)
    line = to_record(old, evaluation("t1"), when)
    assert line is not None
    data = parse_line(line, 1)
    assert isinstance(data, dict)
    assert data["logged_at"] == when.isoformat() and "log_truncated" not in data
