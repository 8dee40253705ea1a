"""One judge budget: a trace's band calls capped (most uncertain first, the calibration sample
exempt), the first pass's tokens off the run's day, each worker a share of both budgets, and
the calls counted by use for the summary, Prometheus and the report."""

from collections import Counter

from ragguard import Config
from ragguard.config import JudgeConfig
from ragguard.exporters.base import Finished
from ragguard.judge.budget import after_first_pass, per_worker
from ragguard.metrics.judge_calls import calls_by_use
from ragguard.metrics.summary import RunSummary
from tests.judge.test_answer_relevance import standin_guard_and_judge
from tests.support.judge_fixtures import TRACE

SPANS = ["The Eiffel Tower is in Paris.", "It was moved to Berlin in 1975."]


def test_the_cap_asks_the_most_uncertain_band_questions_first(guard):
    lite = guard.evaluate(TRACE)
    eta = lite.thresholds.support
    supports = [s.support for s in lite.spans]
    nearest = min(range(2), key=lambda i: abs(supports[i] - eta))
    gold = {text: True for text in SPANS}
    with standin_guard_and_judge(
        guard, gold, band=[0.0, 1.0], answer_band=[0.0, 0.0], max_calls_per_trace=1
    ) as (g, judge):
        evaluation = g.evaluate(TRACE)
        assert len(judge.calls) == 1
    spans = evaluation.spans
    assert spans[nearest].support_source == "judge"
    assert spans[1 - nearest].judge_skipped == "trace_cap"
    assert calls_by_use(evaluation)["span"] == 1
    with standin_guard_and_judge(guard, gold, band=[0.0, 1.0], answer_band=[0.0, 0.0]) as (
        g,
        judge,
    ):
        g.evaluate(TRACE)
        assert len(judge.calls) == 2  # no cap by default


def test_the_cap_counts_the_answer_question_too(guard):
    gold = {text: True for text in SPANS} | {TRACE["response"]: True}
    with standin_guard_and_judge(
        guard, gold, band=[0.0, 1.0], answer_band=[0.0, 1.0], max_calls_per_trace=2
    ) as (g, judge):
        evaluation = g.evaluate(TRACE)
        assert len(judge.calls) == 2
    used = calls_by_use(evaluation)
    assert used["span"] + used["answer"] == 2


def test_budgets_are_shared_by_the_first_pass_and_split_between_workers():
    config = Config(judge={"max_calls_per_minute": 60, "max_tokens_per_day": 10_000})
    after = after_first_pass(config, Counter({"span": 3, "tokens in": 2_500, "tokens out": 500}))
    assert after.judge.max_tokens_per_day == 7_000
    assert after_first_pass(config, Counter()).judge == config.judge
    share = per_worker(config.judge, 4)
    assert (share.max_calls_per_minute, share.max_tokens_per_day) == (15, 2_500)
    assert per_worker(JudgeConfig(max_calls_per_minute=2), 4).max_calls_per_minute == 1
    assert per_worker(config.judge, 1) == config.judge


def test_the_summary_counts_calls_by_use_and_the_first_pass_tokens():
    summary = RunSummary()
    summary.add_first_pass(Counter({"sample": 147, "tokens in": 30_000, "tokens out": 2_000}))
    row = summary.judge_row()
    assert row is not None
    assert "147 calls (first pass 147)" in row[1]
    assert "30,000 tokens in, 2,000 out" in row[1]


def test_prometheus_shows_calls_by_use(guard):
    from prometheus_client import CollectorRegistry, generate_latest

    from ragguard.exporters.prometheus import PrometheusExporter
    from ragguard.schema import Trace

    gold = {text: True for text in SPANS}
    with standin_guard_and_judge(guard, gold, band=[0.0, 1.0], answer_band=[0.0, 0.0]) as (
        g,
        _,
    ):
        evaluation = g.evaluate(TRACE)
    registry = CollectorRegistry()
    PrometheusExporter(registry).export([Finished(Trace.model_validate(TRACE), evaluation)])
    text = generate_latest(registry).decode()
    assert 'ragguard_judge_calls_by_use_total{pipeline="default",use="span"} 2.0' in text
    assert 'use="answer"} 0.0' in text
