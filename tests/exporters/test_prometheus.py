"""The Prometheus exporter: what each evaluation adds to the ``ragguard_*`` metrics, the
live counters, multi-process mode, a real Prometheus server scraping a wrapped chain's
metrics, and the Grafana dashboard's queries against the names the exporter exposes."""

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest

import ragguard
from ragguard.exporters.base import Finished
from ragguard.exporters.prometheus import VERDICTS, PrometheusExporter, metric_names, serve
from ragguard.runtime.live_stats import LiveStats
from ragguard.schema import verdict
from tests.support.exporters_fixtures import judged_made_up, made_up, wrapped_chain
from tests.support.live_fixtures import QUESTIONS, SUPPORTED, UNSUPPORTED

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "dashboards" / "ragguard-grafana.json"


def test_one_evaluation_in_the_metrics_and_live_stats_kept_up_to_date():
    registry = CollectorRegistry()
    live = {"stats": LiveStats(submitted=5, dropped=2, failed=1, pending=3)}
    exporter = PrometheusExporter(registry, pipeline="qa", live_stats=lambda: live["stats"])
    trace, evaluation = made_up()
    exporter.export([Finished(trace, evaluation)])

    def value(name, **labels):
        return registry.get_sample_value(name, labels)

    qa = {"pipeline": "qa"}
    assert value("ragguard_responses_total", **qa) == 1
    assert value("ragguard_hallucinated_responses_total", **qa) == 1
    # not fired yet, yet there at 0: a dashboard panel shows 0, not "No data"
    assert value("ragguard_abstained_responses_total", **qa) == 0
    assert value("ragguard_unscored_items_total", **qa, modality="video") == 0
    assert value("ragguard_spans_total", **qa, verdict="abstention") == 0
    for word in ("supported", "unsupported", "subjective"):
        assert value("ragguard_spans_total", **qa, verdict=word) == 1
    assert value("ragguard_span_support_ratio_count", **qa) == 2
    assert value("ragguard_span_support_ratio_sum", **qa) == pytest.approx(0.95 + 0.1)
    assert value("ragguard_item_relevance_ratio_sum", **qa, modality="text") == pytest.approx(0.9)
    assert value("ragguard_item_relevance_ratio_count", **qa, modality="image") == 0  # at 0
    assert value("ragguard_unscored_items_total", **qa, modality="image") == 1
    assert value("ragguard_unknown_citations_total", **qa) == 1
    assert value("ragguard_items_total", **qa, modality="text") == 1
    assert value("ragguard_citation_recall_ratio_sum", **qa) == pytest.approx(0.5)
    assert value("ragguard_evaluation_duration_seconds_sum", **qa) == pytest.approx(0.012)
    assert value("ragguard_evaluations_dropped_total") == 2
    assert value("ragguard_evaluations_failed_total") == 1
    assert value("ragguard_queue_depth") == 3

    # a scrape alone brings the live counters up to date
    live["stats"] = LiveStats(submitted=9, dropped=4, failed=1, pending=0, export_errors=1)
    assert value("ragguard_evaluations_dropped_total") == 4
    assert value("ragguard_requests_submitted_total") == 9
    assert value("ragguard_export_errors_total") == 1
    assert value("ragguard_queue_depth") == 0

    # another pipeline's exporter on the same registry shares the metrics
    PrometheusExporter(registry, pipeline="chat").export([Finished(trace, evaluation)])
    assert value("ragguard_responses_total", pipeline="chat") == 1
    assert value("ragguard_responses_total", **qa) == 1

    # labels stay low-cardinality: nothing per request
    labels = {k for family in registry.collect() for s in family.samples for k in s.labels}
    assert labels == {
        "pipeline",
        "modality",
        "verdict",
        "le",
        "outcome",
        "direction",
        "estimate",
        "use",
    }
    # the unsupported-span rate, uncorrected without a judge-labelled sample: 1 of 2 spans
    assert value("ragguard_unsupported_span_rate", **qa, estimate="lite") == 0.5
    assert value("ragguard_unsupported_span_rate", **qa, estimate="corrected") == 0.5


def test_on_by_default_in_the_default_registry_and_switched_off_by_the_config(guard):
    _, off, _ = wrapped_chain(guard, [], config={"exporters": {"prometheus": False}})
    assert off.exporters == []
    chain, monitor, evaluations = wrapped_chain(
        guard, [UNSUPPORTED], config={"exporters": {"pipeline": "configured"}}
    )
    assert [type(e) for e in monitor.exporters] == [PrometheusExporter]  # and no HTTP server
    assert (
        'ragguard_abstained_responses_total{pipeline="configured"} 0.0'
        in generate_latest(REGISTRY).decode()
    )
    chain.invoke(QUESTIONS["paris"])
    assert ragguard.flush(60)
    text = generate_latest(REGISTRY).decode()
    assert 'ragguard_responses_total{pipeline="configured"} 1.0' in text
    assert 'ragguard_unscored_items_total{modality="image",pipeline="configured"} 1.0' in text
    unsupported = sum(s.supported is False for s in evaluations[0].spans)
    assert unsupported >= 1
    assert (
        f'ragguard_spans_total{{pipeline="configured",verdict="unsupported"}} {unsupported:.1f}'
        in text
    )


WRITER = """
import sys
from tests.support.exporters_fixtures import made_up
from ragguard.exporters.base import Finished
from ragguard.exporters.prometheus import PrometheusExporter

exporter = PrometheusExporter(pipeline="qa")
trace, evaluation = made_up()
for _ in range(int(sys.argv[1])):
    exporter.export([Finished(trace, evaluation)])
"""


def test_multiprocess_mode_sums_every_process(tmp_path, monkeypatch):
    """Two worker processes write to one PROMETHEUS_MULTIPROC_DIR; ``serve`` reads both."""
    directory = tmp_path / "multiproc"
    directory.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(n)], cwd=Path(__file__).parents[2], env=env
        )
        for n in (3, 2)
    ]
    assert [w.wait(120) for w in writers] == [0, 0]
    assert len(list(directory.glob("counter_*.db"))) == 2

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))
    server = serve(0)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/metrics") as reply:
            text = reply.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    assert 'ragguard_responses_total{pipeline="qa"} 5.0' in text
    assert 'ragguard_spans_total{pipeline="qa",verdict="unsupported"} 5.0' in text
    assert 'ragguard_item_relevance_ratio_count{modality="text",pipeline="qa"} 5.0' in text


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def prometheus(tmp_path):
    """A real Prometheus server on loopback, scraping the given targets every second."""
    binary = shutil.which("prometheus")
    assert binary, "the Prometheus server is missing: apt-get install prometheus (.ci/run does)"
    started = []

    def start(*targets):
        config = tmp_path / "prometheus.yml"
        listed = ", ".join(f"'{target}'" for target in targets)
        config.write_text(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            "scrape_configs:\n  - job_name: ragguard\n"
            f"    static_configs:\n      - targets: [{listed}]\n"
        )
        port = free_port()
        log = (tmp_path / "prometheus.log").open("w")
        started.append(
            subprocess.Popen(
                [
                    binary,
                    f"--config.file={config}",
                    f"--storage.tsdb.path={tmp_path / 'data'}",
                    f"--web.listen-address=127.0.0.1:{port}",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        return f"http://127.0.0.1:{port}"

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def promql(url, query):
    """The instant vector ``query`` returns, as {frozenset(labels): value}."""
    address = f"{url}/api/v1/query?{urllib.parse.urlencode({'query': query})}"
    with urllib.request.urlopen(address, timeout=5) as reply:
        body = json.load(reply)
    assert body["status"] == "success", body
    return {
        frozenset(
            (k, v) for k, v in r["metric"].items() if k not in ("__name__", "job", "instance")
        ): float(r["value"][1])
        for r in body["data"]["result"]
    }


def test_a_real_prometheus_scrapes_the_evaluations_of_a_wrapped_chain(guard, prometheus):
    registry = CollectorRegistry()
    monitors = []
    exporter = PrometheusExporter(registry, "qa", live_stats=lambda: monitors[0].stats)
    chain, monitor, evaluations = wrapped_chain(
        guard, [SUPPORTED, UNSUPPORTED], exporters=[exporter]
    )
    monitors.append(monitor)
    chain.invoke(QUESTIONS["paris"])
    chain.invoke(QUESTIONS["paris"])
    assert ragguard.flush(60) and len(evaluations) == 2

    endpoint = serve(0, "127.0.0.1", registry)
    try:
        url = prometheus(f"127.0.0.1:{endpoint.server_port}")
        deadline = time.monotonic() + 60
        responses = {}
        while time.monotonic() < deadline and not responses:
            with contextlib.suppress(OSError):  # not listening yet
                responses = promql(url, 'ragguard_responses_total{pipeline="qa"}')
            time.sleep(0.5)
        assert responses == {frozenset({("pipeline", "qa")}): 2.0}
        scraped = {
            query: promql(url, query)
            for query in (
                "sum by (verdict) (ragguard_spans_total)",
                "sum(ragguard_hallucinated_responses_total)",
                "sum by (modality) (ragguard_unscored_items_total)",
                'ragguard_item_relevance_ratio_sum{modality="text"}',
                "ragguard_requests_submitted_total",
                "ragguard_queue_depth",
            )
        }
    finally:
        endpoint.shutdown()
        endpoint.server_close()

    verdicts = Counter(verdict(s) for e in evaluations for s in e.spans)
    assert verdicts["unsupported"] >= 1 and verdicts["supported"] >= 1
    assert scraped["sum by (verdict) (ragguard_spans_total)"] == {
        frozenset({("verdict", v)}): verdicts[v]
        for v in VERDICTS  # 0 for those never seen
    }
    hallucinated = sum(e.metrics.hallucination for e in evaluations)
    assert scraped["sum(ragguard_hallucinated_responses_total)"] == {frozenset(): hallucinated}
    assert scraped["sum by (modality) (ragguard_unscored_items_total)"] == {
        frozenset({("modality", "image")}): 2.0,
        frozenset({("modality", "text")}): 0.0,
        frozenset({("modality", "video")}): 0.0,
    }
    relevance = sum(i.relevance for e in evaluations for i in e.items if i.relevance is not None)
    (summed,) = scraped['ragguard_item_relevance_ratio_sum{modality="text"}'].values()
    assert summed == pytest.approx(relevance)
    assert scraped["ragguard_requests_submitted_total"] == {frozenset(): 2.0}
    assert scraped["ragguard_queue_depth"] == {frozenset(): 0.0}


def test_the_judge_scores_go_into_a_histogram_by_use():
    registry = CollectorRegistry()
    exporter = PrometheusExporter(registry, pipeline="qa", live_stats=LiveStats)

    def value(name, use):
        return registry.get_sample_value(name, {"pipeline": "qa", "use": use})

    assert value("ragguard_judge_score_ratio_count", "span") == 0  # there before any score
    exporter.export([Finished(*judged_made_up())])
    exporter.export([Finished(*made_up("t2"))])  # no judge: nothing observed
    assert value("ragguard_judge_score_ratio_count", "span") == 1
    assert value("ragguard_judge_score_ratio_sum", "span") == pytest.approx(0.8)
    assert value("ragguard_judge_score_ratio_count", "sample") == 1
    assert (
        registry.get_sample_value(
            "ragguard_judge_score_ratio_bucket", {"pipeline": "qa", "use": "sample", "le": "0.3"}
        )
        == 1
    )
    assert value("ragguard_judge_score_ratio_count", "answer") == 0  # read from text: no score


def test_every_metric_of_the_grafana_dashboard_exists():
    dashboard = json.loads(DASHBOARD.read_text())
    from ragguard.serve.metrics_http import ServeCollector
    from ragguard.serve.stats import LATENCY_BUCKETS, ServeStats

    registry = CollectorRegistry()
    PrometheusExporter(registry, live_stats=LiveStats)
    import dataclasses

    given = {"latency_counts": [0] * len(LATENCY_BUCKETS), "latency_sum": 0.0}
    idle = ServeStats(  # an idle receiver: every count 0, whatever fields it grows
        **{
            f.name: given.get(f.name, {} if "dict" in str(f.type) else 0)
            for f in dataclasses.fields(ServeStats)
        }
    )
    registry.register(ServeCollector(lambda: idle))  # ragguard serve's own series
    exposed = metric_names(registry)
    queries = [
        target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])
    ]
    queries += [v["definition"] for v in dashboard["templating"]["list"] if "definition" in v]
    used = {name for query in queries for name in re.findall(r"\bragguard_\w+", query)}
    assert len(queries) >= 12 and len(used) >= 12
    assert used <= exposed, used - exposed
    # every panel reads the Prometheus chosen at import, and filters by pipeline where it can
    assert {i["name"] for i in dashboard["__inputs"]} == {"DS_PROMETHEUS"}
    for panel in dashboard["panels"]:
        if panel["type"] != "row":
            assert panel["datasource"]["uid"] == "${DS_PROMETHEUS}"
    per_pipeline = [q for q in queries if "pipeline" in q]
    assert all('pipeline=~"$pipeline"' in q for q in per_pipeline if "label_values" not in q)


def dashboard_queries():
    """(panel title, PromQL) of every target of the shipped dashboard."""
    dashboard = json.loads(DASHBOARD.read_text())
    return [
        (panel["title"], target["expr"])
        for panel in dashboard["panels"]
        for target in panel.get("targets", [])
    ]


def calibrated_guard():
    """A Guard whose support threshold is fitted from labels (``[calibration] source =
    "file"``), so the evaluations carry a calibration and its drift."""
    from ragguard import Config, Guard
    from ragguard.calibration import model_fingerprint

    base = Config()
    fitted = {
        "threshold": 0.5,
        "band": (0.4, 0.6),
        "n_labels": 40,
        "n_supported": 20,
        "fingerprint": model_fingerprint(base),
        "score_quantiles": [i / 40 for i in range(41)],
    }
    guard = Guard(Config(calibration={"source": "file", "fitted": fitted}))
    claims = " ".join(f"The tower is {300 + n} metres tall." for n in range(60))
    tower = [{"id": "d1", "text": "The Eiffel Tower is 330 metres tall."}]
    guard.evaluate({"trace_id": "warm", "query": "How tall?", "items": tower, "response": claims})
    return guard  # the drift needs 60 live scores: these, before the traffic under test


def serve_traffic(app, traces: int) -> None:
    """``traces`` RAG traces (OpenInference spans) posted to ``app``'s OTLP/HTTP receiver,
    and one LLM span alone."""
    from tests.serve.test_receivers import json_span
    from tests.support.serve_clients import post_rag_traces
    from tests.support.serve_fixtures import ANSWER, QUERY

    llm = {"openinference.span.kind": "LLM", "input.value": QUERY, "output.value": ANSWER}
    ids = [f"{n + 1:032x}" for n in range(traces)]
    post_rag_traces(app.ports["http"], ids, [json_span(f"{traces + 1:032x}", "c" * 16, "", llm)])


def test_every_dashboard_query_returns_data_from_a_real_prometheus(prometheus):
    """Each panel's query as Grafana sends it (its variables filled in), against a real
    Prometheus scraping a wrapped chain (before and after it answered) and ``ragguard
    serve`` (after OTLP traffic): none may come back empty ("No data"), and the citation
    panel must show a number."""
    from ragguard.serve.app import ServeApp

    guard = calibrated_guard()
    registry = CollectorRegistry()
    monitors = []
    exporter = PrometheusExporter(registry, "qa", live_stats=lambda: monitors[0].stats)
    cited = [SUPPORTED.rstrip(".") + " [1].", UNSUPPORTED.rstrip(".") + " [1]."]
    chain, monitor, evaluations = wrapped_chain(guard, cited * 2, exporters=[exporter])
    monitors.append(monitor)
    endpoint = serve(0, "127.0.0.1", registry)
    app = ServeApp(
        {"serve": {"grace_s": 0.2, "idle_timeout_s": 0.5}, "exporters": {"otel": False}},
        otlp_http="127.0.0.1:0",
        otlp_grpc="",
        metrics="127.0.0.1:0",
        guard=guard,
    )
    app.start()
    try:
        wrapped = f"127.0.0.1:{endpoint.server_port}"
        url = prometheus(wrapped, f"127.0.0.1:{app.ports['metrics']}")
        # serve's /metrics is the process's default registry, which earlier tests also used
        answered = f'ragguard_responses_total{{pipeline="qa", instance="{wrapped}"}}'
        scraped_at_zero = {}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not scraped_at_zero:
            with contextlib.suppress(OSError):  # not listening yet
                scraped_at_zero = promql(url, answered)
            time.sleep(0.5)
        assert scraped_at_zero == {frozenset({("pipeline", "qa")}): 0.0}
        for _ in range(4):
            chain.invoke(QUESTIONS["paris"])
        assert ragguard.flush(60) and len(evaluations) == 4
        serve_traffic(app, 2)
        while time.monotonic() < deadline:
            delivered = promql(url, "sum by (status) (ragguard_serve_traces_total)")
            if (
                promql(url, answered) == {frozenset({("pipeline", "qa")}): 4.0}
                and delivered.get(frozenset({("status", "evaluated")}), 0) >= 2
            ):
                break
            time.sleep(0.5)
        time.sleep(2)  # a few more scrapes after the last change
        results = {
            (title, query): promql(
                url, query.replace("$__rate_interval", "1m").replace("$pipeline", ".*")
            )
            for title, query in dashboard_queries()
        }
        statuses = promql(url, "sum by (status) (ragguard_serve_traces_total)")
    finally:
        app.stop(30)
        endpoint.shutdown()
        endpoint.server_close()

    empty = [key for key, result in results.items() if not result]
    assert empty == []
    assert statuses.get(frozenset({("status", "evaluated")})) == 2.0, statuses
    precision = next(
        result
        for (title, query), result in results.items()
        if "citation_precision_ratio_sum" in query
    )
    qa = precision[frozenset({("pipeline", "qa")})]
    assert qa == qa  # a number, not NaN (serve's answers cite nothing: NaN is right there)
    assert any(e.metrics.citation_precision is not None for e in evaluations)
    assert all(e.calibration is not None and e.calibration.drift is not None for e in evaluations)


def test_panel_titles_name_what_they_plot():
    """A panel plots what its title says: the loss panel only losses, and every serve
    metric under a "Serve:" title."""
    panels = {p["title"]: p for p in json.loads(DASHBOARD.read_text())["panels"]}
    losses = " ".join(t["expr"] for t in panels["Dropped, failed, export errors"]["targets"])
    assert re.findall(r"ragguard_\w+", losses) == [
        "ragguard_evaluations_dropped_total",
        "ragguard_evaluations_failed_total",
        "ragguard_export_errors_total",
    ]
    for title, panel in panels.items():
        exprs = " ".join(t["expr"] for t in panel.get("targets", []))
        assert ("ragguard_serve_" in exprs) == title.startswith("Serve:"), title
    plotted = {title for title, panel in panels.items() if panel["type"] != "row"}
    assert {
        "Answer relevance and off-topic rate",
        "Unsupported span rate: lite, corrected, 95% interval",
        "Calibration drift and threshold",
        "Serve: traces by status",
        "Serve: requests refused (HTTP 429/503, gRPC RESOURCE_EXHAUSTED/UNAVAILABLE)",
        "Serve: root span to verdict latency",
        "Serve: evaluation queue and held traces",
    } <= plotted
