"""A wrapped LangChain chain with ``[judge]`` set: the background worker sends only the
in-band span to a real llama.cpp server, and the result reaches ``on_evaluation``, the
Prometheus metrics and an OTel client span with the GenAI attributes; the replay report
shows lite-vs-judge agreement. Behaviour only: the tiny model's verdicts mean nothing."""

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from prometheus_client import CollectorRegistry

import ragguard
from ragguard.exporters.prometheus import PrometheusExporter
from ragguard.judge.cascade import agreement
from ragguard.replay.report import ReportBuilder
from ragguard.runtime.log_record import LoggedTrace
from ragguard.schema import JudgeVerdict
from tests.support.exporters_fixtures import made_up, wrapped_chain
from tests.support.frozen_evaluations import with_spans
from tests.support.judge_fixtures import band_around, judge_config, judged_guard, spy
from tests.support.live_fixtures import QUESTIONS
from tests.support.llama_server import MODEL

ANSWER = "The Eiffel Tower is in Paris. It was moved to Madrid in 1975."


def test_a_wrapped_chain_judges_in_band_spans_and_exports_them(guard, judge_server):
    chain, _, plain = wrapped_chain(guard, [ANSWER], worker="thread")
    chain.invoke(QUESTIONS["paris"])
    assert ragguard.flush(120) and len(plain) == 1
    in_band = plain[0].spans[1]

    judged = judged_guard(guard, judge_config(judge_server, band=band_around(in_band.support)))
    asked = spy(judged)
    calls = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(calls))
    judged.models.judge.client.endpoint.tracer_provider = provider
    registry = CollectorRegistry()
    exporter = PrometheusExporter(registry, "qa", live_stats=lambda: ragguard.stats())
    chain, monitor, evaluations = wrapped_chain(judged, [ANSWER], exporters=[exporter])
    assert chain.invoke(QUESTIONS["paris"]) == ANSWER
    assert ragguard.flush(300) and len(evaluations) == 1 and monitor.stats.failed == 0

    assert len(asked) == 1 and 'name="sentence">\nIt was moved to Madrid in 1975.\n' in asked[0]
    kept, decided = evaluations[0].spans
    assert kept.support_source == "lite" and decided.support_source == "judge"
    judge = decided.judge
    assert judge.model == MODEL and decided.supported is judge.verdict

    def sample(name, **labels):
        return registry.get_sample_value(name, {"pipeline": "qa", **labels})

    assert sample("ragguard_judge_calls_total", outcome="answered") == 1
    assert sample("ragguard_judge_tokens_total", direction="input") == judge.input_tokens
    assert sample("ragguard_judge_tokens_total", direction="output") == judge.output_tokens
    assert sample("ragguard_judge_latency_seconds_count") == 1
    assert sample("ragguard_judge_budget_tokens_remaining") == judge.tokens_left_today

    (call,) = calls.get_finished_spans()
    assert call.name == f"chat {MODEL}" and call.kind == SpanKind.CLIENT
    attributes = dict(call.attributes)
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.request.model"] == MODEL
    assert attributes["gen_ai.usage.input_tokens"] == judge.input_tokens
    assert attributes["gen_ai.usage.output_tokens"] == judge.output_tokens
    assert attributes["server.address"] == "127.0.0.1"

    lite_verdict = decided.support >= evaluations[0].thresholds.support
    assert agreement(evaluations[0]) == (1, int(lite_verdict == judge.verdict))


def test_the_replay_report_shows_lite_judge_agreement():
    trace, live = made_up()
    # lite said supported (0.95), then unsupported (0.1); the judge says supported to both
    judged = {
        "support_source": "judge",
        "supported": True,
        "judge": JudgeVerdict(verdict=True, rationale="", model=MODEL),
    }
    replay = with_spans(live, {0: judged, 1: judged})
    assert agreement(replay) == (2, 1)
    report = ReportBuilder()
    report.add(LoggedTrace("log", 1, trace, live, None), replay)
    html = report.render(title="judge", meta={})
    assert "<th>spans decided by the judge</th><td>0</td><td>2</td>" in html
    assert "<th>lite-judge agreement</th><td>n/a</td><td>50.0%</td>" in html


def test_guard_mode_leaves_the_judge_off_the_request_path():
    judge = {"backend": "openai", "base_url": "http://127.0.0.1:9/v1"}
    background = ragguard.Monitor({"judge": judge}, worker="thread")
    guarded = ragguard.Monitor({"judge": judge}, mode="guard", worker="thread")
    assert background.guard.models.judge is not None
    assert guarded.guard.models.judge is None
