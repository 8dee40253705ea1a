"""A late span from a service other than the root's cannot silently replace a verdict: the
trace is evaluated again (any service may send spans under a trace id), and the second
record names the services that caused it, beside the first."""

from __future__ import annotations

import json

from ragguard.replay.run import Replay
from ragguard.serve.buffer import BufferSettings, Due, TraceBuffer
from tests.support.serve_clients import logged, running_app
from tests.support.serve_fixtures import TRACE, openinference


def test_a_late_span_from_another_service_is_named_on_the_reevaluation() -> None:
    clock = [0.0]
    buffer = TraceBuffer(BufferSettings(grace_s=0), lambda: clock[0])
    spans = openinference()
    buffer.add(spans)
    (first,) = buffer.due()
    assert (first.revision, first.late_from) == (0, ())
    own = spans[1]._replace(span_id="e" * 16)  # the root's service: no cause to name
    buffer.add([own])
    (second,) = buffer.due()
    assert (second.revision, second.late_from) == (1, ())
    stranger = spans[1]._replace(span_id="f" * 16, service="someone-else")
    buffer.add([stranger])
    (third,) = buffer.due()
    assert (third.revision, third.late_from) == (2, ("someone-else",))


def test_the_second_record_names_its_cause(tmp_path, guard) -> None:
    with running_app(tmp_path, guard) as app:
        app.process([Due(TRACE, openinference(), "root", 0)])
        spans = [*openinference(), openinference()[1]._replace(span_id="f" * 16)]
        app.process([Due(TRACE, spans, "root", 1, late_from=("someone-else",))])
        records = logged(app, TRACE, 2)
    causes = [record.get("revision") for record in records]
    assert None in causes
    assert {"number": 1, "cause": "late_spans", "services": ["someone-else"]} in causes


def test_replay_shows_both_records(tmp_path) -> None:
    trace = {"trace_id": TRACE, "query": "q?", "items": [{"id": "d", "text": "t"}]}
    first = {**trace, "response": "In Paris."}
    second = {**first, "revision": {"number": 1, "cause": "late_spans", "services": ["x"]}}
    again = {**first, "response": "In Paris, again."}  # the root's own late span: replaces
    log = tmp_path / "serve.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in (first, second, again)))
    replay = Replay([log])
    entries = [(trace.trace_id, trace.response) for _, trace, _ in replay.entries()]
    assert entries == [(f"{TRACE}#1", "In Paris."), (TRACE, "In Paris, again.")]
    assert replay.superseded == 1
