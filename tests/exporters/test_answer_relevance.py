"""Answer relevance everywhere the other metrics go: Prometheus, OpenTelemetry, the run
summary, the replay report and guard mode's ``min_answer_relevance``."""

import pytest
from prometheus_client import CollectorRegistry

from ragguard import Guard
from ragguard.exporters.base import Finished
from ragguard.exporters.otel import OtelExporter
from ragguard.exporters.prometheus import PrometheusExporter
from ragguard.live.monitor import Monitor
from ragguard.metrics.summary import RunSummary
from ragguard.replay.report import ReportBuilder
from ragguard.runtime.log_record import LoggedTrace
from ragguard.schema import JudgeVerdict
from ragguard.schema.otel_names import EVALUATION_EVENT
from tests.support.exporters_fixtures import made_up
from tests.support.frozen_evaluations import with_spans
from tests.support.replay_fixtures import evaluation as replay_evaluation
from tests.support.replay_fixtures import trace as replay_trace


def off_topic(trace_id="t1", score=0.2):
    trace, evaluation = made_up(trace_id)
    metrics = {"answer_relevance": score, "answer_relevant": score >= 0.4}
    evaluation = with_spans(
        evaluation, {i: {"addresses_query": i == 0} for i in range(len(evaluation.spans))}
    )
    update = {
        "metrics": evaluation.metrics.model_copy(update=metrics),
        "thresholds": evaluation.thresholds.model_copy(update={"answer_relevance": 0.4}),
    }
    return trace, evaluation.model_copy(update=update)


def test_prometheus_histogram_and_off_topic_counter():
    registry = CollectorRegistry()
    exporter = PrometheusExporter(registry, pipeline="qa")
    qa = {"pipeline": "qa"}
    assert registry.get_sample_value("ragguard_off_topic_responses_total", qa) == 0
    exporter.export([Finished(*off_topic("t1", 0.2))])
    exporter.export([Finished(*off_topic("t2", 0.9))])
    exporter.export([Finished(*made_up("t3"))])  # no answer relevance (an abstention): not observed
    assert registry.get_sample_value("ragguard_answer_relevance_ratio_count", qa) == 2
    assert registry.get_sample_value("ragguard_answer_relevance_ratio_sum", qa) == pytest.approx(
        1.1
    )
    assert registry.get_sample_value("ragguard_off_topic_responses_total", qa) == 1


def test_otel_event_names_answer_relevance_with_its_label(memory):
    provider, spans = memory
    OtelExporter(tracer_provider=provider).export([Finished(*off_topic())])
    (evaluated,) = [s for s in spans.get_finished_spans() if s.name == "ragguard.evaluation"]
    events = {
        e.attributes["gen_ai.evaluation.name"]: e.attributes
        for e in evaluated.events
        if e.name == EVALUATION_EVENT
    }
    event = events["ragguard.answer_relevance"]
    assert event["gen_ai.evaluation.score.value"] == pytest.approx(0.2)
    assert event["gen_ai.evaluation.score.label"] == "off_topic"
    assert "1 of 3 sentences address the query" in event["gen_ai.evaluation.explanation"]


def test_run_summary_shows_answer_relevance_and_off_topic_rate():
    summary = RunSummary()
    summary.add(off_topic("a", 0.2)[1])
    summary.add(off_topic("b", 0.8)[1])
    assert summary.mean("answer_relevance") == pytest.approx(0.5)
    assert summary.mean("off_topic_rate") == pytest.approx(0.5)
    text = summary.render(load_s=0.0, eval_s=0.0)
    assert "answer relevance" in text and "off-topic rate" in text


def test_replay_report_compares_live_and_replay_answer_relevance():
    builder = ReportBuilder()
    live, replay = replay_evaluation("t0"), replay_evaluation("t0")
    live = live.model_copy(
        update={"metrics": live.metrics.model_copy(update={"answer_relevance": 0.9})}
    )
    update = {
        "metrics": replay.metrics.model_copy(update={"answer_relevance": 0.3}),
        "thresholds": replay.thresholds.model_copy(update={"answer_relevance": 0.4}),
    }
    replay = replay.model_copy(update=update)
    builder.add(LoggedTrace("log.jsonl", 1, replay_trace("t0"), live, None), replay)
    assert builder.live.mean("answer_relevance") == 0.9
    assert builder.replay.mean("answer_relevance") == 0.3
    html = builder.render(title="r", meta={})
    assert "<th>answer relevance</th><td>0.900</td><td>0.300</td>" in html
    assert "Answer relevance (does it address the query?)" in html


@pytest.mark.parametrize(
    ("score", "judge", "failed"),
    [
        (0.9, None, []),
        (0.2, None, ["answer relevance 0.20 < 0.50"]),
        (0.2, True, []),  # the judge read it and says it answers
        (0.9, False, ["off-topic answer"]),
        (None, None, []),  # an abstention never fails on answer relevance
    ],
)
def test_guard_min_answer_relevance(score, judge, failed):
    monitor = Monitor(guard=Guard(), min_support_rate=None, min_answer_relevance=0.5)
    _, evaluation = made_up()
    metrics = evaluation.metrics.model_copy(update={"answer_relevance": score})
    answer_judge = None if judge is None else JudgeVerdict(verdict=judge, rationale="r", model="m")
    evaluation = evaluation.model_copy(update={"metrics": metrics, "answer_judge": answer_judge})
    assert [r.split(" (")[0] for r in monitor.failures(evaluation)] == failed


def test_min_answer_relevance_is_off_by_default():
    assert Monitor(guard=Guard()).live.min_answer_relevance is None
