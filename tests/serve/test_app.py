"""``ServeApp`` under hostile traffic: each trace assembled on its own (one that cannot be
is ``invalid``, counted, and the rest of its tick goes on), and backpressure that never
drops a trace it acknowledged."""

from __future__ import annotations

import threading
import time

import pytest

import ragguard.serve.evaluating as serve_evaluating
from ragguard.serve.buffer import Due
from tests.serve.test_receivers import _post, json_span, otlp_json
from tests.support.serve_clients import metrics_text, records, running_app, wait_for
from tests.support.serve_fixtures import ANSWER, QUERY, openinference

CHAIN = {"openinference.span.kind": "CHAIN", "input.value": QUERY, "output.value": ANSWER}
RETRIEVAL = {
    "openinference.span.kind": "RETRIEVER",
    "retrieval.documents.0.document.content": "The Eiffel Tower is in Paris.",
}
POISON = {
    # ''.isdigit() is true and int('') raises
    "superscript_index": ({}, {"retrieval.documents.\u00b2.document.content": "Paris."}),
    # RecursionError in json.loads
    "deep_json": ({"input.value": "[" * 100_000}, {}),
    # ValueError: past Python's 4,300-digit limit for int()
    "5000_digits": ({"input.value": '{"question": ' + "7" * 5000 + "}"}, {}),
}


def rag_trace(trace_id: str, chain: dict | None = None, retrieval: dict | None = None) -> list:
    return [
        json_span(trace_id, "a" * 16, "", {**CHAIN, **(chain or {})}),
        json_span(trace_id, "b" * 16, "a" * 16, {**RETRIEVAL, **(retrieval or {})}),
    ]


@pytest.mark.parametrize("poison", sorted(POISON))
def test_one_poison_trace_among_twenty_good_ones_costs_none_of_them(
    tmp_path, guard, poison
) -> None:
    chain, retrieval = POISON[poison]
    good = [f"{n:032x}" for n in range(1, 21)]
    bad = "f" * 32
    spans = [span for trace_id in good for span in rag_trace(trace_id)]
    spans[20:20] = rag_trace(bad, chain, retrieval)  # in the middle of the request
    with running_app(tmp_path, guard) as app:
        assert _post(app, otlp_json(spans), "application/json")[0] == 200
        wait_for(lambda: {r["trace_id"] for r in records(app)} >= set(good), 120)
        wait_for(lambda: sum(app.stats().traces.get(s, 0) for s in ("ready", "invalid")) == 21)
        text = metrics_text(app)
    assert 'ragguard_serve_traces_total{status="ready"}' in text
    logged = {r["trace_id"] for r in records(app)}
    assert set(good) <= logged


def test_a_trace_that_cannot_be_assembled_is_invalid_and_the_tick_goes_on(
    tmp_path, guard, monkeypatch
) -> None:
    """Whatever makes ``assemble`` raise (a defect not found yet), the trace is ``invalid``:
    counted, logged without a traceback, and the other traces of the tick are evaluated."""
    bad = "e" * 32
    real = serve_evaluating.join_spans

    def join_spans(trace_id, spans):
        if trace_id == bad:
            raise RecursionError("maximum recursion depth exceeded")
        return real(trace_id, spans)

    monkeypatch.setattr(serve_evaluating, "join_spans", join_spans)
    with running_app(tmp_path, guard) as app:
        dues = [  # a service of its own: the Prometheus registry is the process's
            Due(
                trace_id,
                [s._replace(service="isolated") for s in openinference(trace_id=trace_id)],
                "root",
                0,
            )
            for trace_id in ("1" * 32, bad, "2" * 32)
        ]
        results = app.process(dues)
        assert [r.status for r in results] == ["ready", "invalid", "ready"]
        assert results[1].detail == "RecursionError while assembling the trace"
        assert results[1].target_span_id == openinference()[0].span_id  # the root: annotated
        wait_for(lambda: len(records(app)) == 2)
        assert 'ragguard_serve_traces_total{status="invalid"} 1.0' in metrics_text(app)


def test_not_rag_traces_are_not_kept_for_late_spans(tmp_path, guard) -> None:
    http_only = [json_span(f"{n:032x}", "c" * 16, "", {"http.route": "/"}) for n in (1, 2)]
    with running_app(tmp_path, guard) as app:
        assert _post(app, otlp_json(http_only), "application/json")[0] == 200
        wait_for(lambda: app.stats().traces.get("not_rag") == 2)
        wait_for(lambda: app.stats().held_traces == 0, 5)
        assert app.stats().held_bytes == 0


def test_many_unique_traces_at_once_get_429_and_none_acknowledged_is_dropped(
    tmp_path, guard
) -> None:
    """Four clients post 240 unique traces (10 a request) as fast as they can into a queue
    of 20, retrying a 429 as an OTLP exporter does: every acknowledged trace is evaluated."""
    total, per_request, clients = 240, 10, 4
    acknowledged: list[str] = []
    refused = [0]
    lock = threading.Lock()

    def client(app, start: int) -> None:
        for first in range(start, total, per_request * clients):
            ids = [f"{n + 1:032x}" for n in range(first, first + per_request)]
            body = otlp_json([span for trace_id in ids for span in rag_trace(trace_id)])
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                code = _post(app, body, "application/json")[0]
                if code == 200:
                    with lock:
                        acknowledged.extend(ids)
                    break
                assert code == 429
                with lock:
                    refused[0] += 1
                time.sleep(0.2)

    with running_app(tmp_path, guard, queue_size=20, grace_s=0.3) as app:
        threads = [
            threading.Thread(target=client, args=(app, n * per_request)) for n in range(clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        ended = ("evaluated", "dropped", "failed")
        wait_for(lambda: sum(app.stats().traces.get(n, 0) for n in ended) >= len(acknowledged), 180)
        stats = app.stats()
    assert stats.traces.get("dropped", 0) == 0 and stats.refused_batches == 0
    assert len(acknowledged) == total
    assert refused[0] > 0  # backpressure did happen
    assert sorted({r["trace_id"] for r in records(app)}) == sorted(acknowledged)


def test_a_bearer_scheme_in_any_case(tmp_path, guard, monkeypatch) -> None:
    monkeypatch.setenv("SERVE_TOKEN", "s3cret")
    with running_app(tmp_path, guard, auth_token_env="SERVE_TOKEN") as app:
        body = otlp_json([json_span("ab" * 16, "cd" * 8, "", {"http.route": "/"})])
        for scheme in ("bearer", "BEARER", "Bearer"):
            assert _post(app, body, "application/json", Authorization=f"{scheme} s3cret")[0] == 200
        assert _post(app, body, "application/json", Authorization="Basic s3cret")[0] == 401
        assert _post(app, body, "application/json", Authorization="bearer s3cre")[0] == 401


def test_a_rootless_burst_gets_429_and_every_acknowledged_complete_trace_is_evaluated(
    tmp_path, guard, caplog
) -> None:
    """20 complete RAG traces acknowledged, then one request of 300 one-span traces without
    roots at ``max_traces`` 100: the burst gets 429 (retried by exporters), and all 20 are
    evaluated; nothing is logged as evicted."""
    complete = [f"{n:032x}" for n in range(1, 21)]
    with running_app(tmp_path, guard, max_traces=100, grace_s=1.5, idle_timeout_s=600) as app:
        spans = [span for trace_id in complete for span in rag_trace(trace_id)]
        assert _post(app, otlp_json(spans), "application/json")[0] == 200
        burst = [
            json_span(f"{n:032x}", "c" * 16, "d" * 16, {"http.route": "/"})
            for n in range(1000, 1300)
        ]
        code, headers, _ = _post(app, otlp_json(burst), "application/json")
        assert code == 429 and headers["Retry-After"] == "5"
        wait_for(lambda: len(records(app)) == 20, 120)
        assert app.stats().refused_batches == 1
    assert sorted(r["trace_id"] for r in records(app)) == complete
    assert "evicted" not in caplog.text
