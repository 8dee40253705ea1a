"""``[calibration] source = "judge"``: a hash-drawn sample of spans goes to the judge, the
threshold and band are refitted on its verdicts, the state survives restarts and is shared
by processes, a batch run calibrates itself, and the rate is corrected by the sample. The
logic runs against a stand-in judge that is right 80% of the time; the wiring against the
real llama.cpp server."""

import json
import multiprocessing

from benchmarks.standin_judge import standin_judge
from ragguard import Config
from ragguard.calibration.state import CalibrationStore, in_calibration_sample
from ragguard.cli import EXIT_OK, main
from ragguard.config import CalibrationConfig
from tests.support.calibration_fixtures import gold, labelled_rows, unlabelled, write_jsonl
from tests.support.judge_fixtures import judged_guard
from tests.support.llama_server import MODEL

ROWS = labelled_rows(240, seed=3)


def judge_settings(base_url: str, **calibration) -> dict:
    return {
        "judge": {
            "backend": "openai",
            "base_url": base_url,
            "model": "standin",
            "api_key_env": "RAGGUARD_TEST_NO_KEY",
            "max_calls_per_minute": None,
            "timeout_s": 30,
        },
        "calibration": {"source": "judge", "sample_rate": 0.3, "min_samples": 30, **calibration},
    }


def test_the_sample_is_drawn_by_trace_and_span_not_by_claim() -> None:
    drawn = [in_calibration_sample(f"t{i}", 0, 0.2) for i in range(5000)]
    assert 0.18 < sum(drawn) / len(drawn) < 0.22
    # the same claim in two traces is drawn independently: the key holds no text
    assert in_calibration_sample("t1", 0, 0.2) == in_calibration_sample("t1", 0, 0.2)
    assert not in_calibration_sample("t1", 0, 0.0)


def test_a_batch_run_calibrates_itself_and_corrects_the_rate(tmp_path, capsys) -> None:
    traces = write_jsonl(tmp_path / "traces.jsonl", unlabelled(ROWS))
    state = tmp_path / "calibration.json"
    with standin_judge(gold(ROWS), flip=0.2) as server:
        config = tmp_path / "judge.toml"
        settings = judge_settings(server.base_url, state_file=str(state))
        config.write_text(json.dumps(settings))
        config = config.rename(tmp_path / "judge.json")
        out = tmp_path / "out.jsonl"
        code = main(["evaluate", str(traces), "-c", str(config), "-o", str(out)])
        calls = list(server.judge.calls)
    assert code == EXIT_OK
    captured = capsys.readouterr()
    results = [json.loads(line) for line in out.read_text().splitlines()]
    sampled = [r for r in results if r["spans"][0]["calibration_sample"]]
    assert 0.2 * len(ROWS) < len(sampled) < 0.4 * len(ROWS)
    # every sampled span carries the judge's verdict, asked once over both passes
    assert all(r["spans"][0]["support_source"] == "judge" for r in sampled)
    sampled_claims = [r["spans"][0]["text"] for r in sampled]
    assert all(calls.count(claim) == 1 for claim in sampled_claims)
    status = results[-1]["calibration"]
    assert status["source"] == "judge" and status["fitted"]
    assert status["n_samples"] == len(sampled)
    assert results[-1]["thresholds"]["support"] == status["threshold"]
    stored = json.loads(state.read_text())["pipelines"]["default"]
    assert len(stored["samples"]) == len(sampled)
    assert stored["fitted"]["threshold"] == status["threshold"]
    assert "calibration" in captured.out and "judge: threshold" in captured.out
    assert f"corrected by {len(sampled)} judge-labelled spans" in captured.out


def _store(path: str, fingerprint: str = "f") -> CalibrationStore:
    """One pipeline's store on the shared state file, fitted on model ``fingerprint``."""
    return CalibrationStore(
        CalibrationConfig(source="judge", state_file=path, min_samples=10),
        pipeline="qa",
        fingerprint=fingerprint,
        default_threshold=0.5,
        default_band=(0.4, 0.6),
    )


def _add_samples(path: str, start: int) -> None:
    store = _store(path)
    for i in range(start, start + 40, 4):
        store.add([(f"t{i + j}#0", (i + j) / 200, (i + j) % 3 != 0) for j in range(4)])


def test_processes_share_the_state_file_without_losing_a_verdict(tmp_path) -> None:
    path = str(tmp_path / "state.json")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_add_samples, args=(path, s)) for s in (0, 40, 80)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    store = _store(path)
    assert store.n_samples == 120  # three writers, 40 verdicts each, none lost
    assert store.fitted is not None and store.fitted.n_labels >= 110
    # another model's sample is not reused
    other = _store(path, "g")
    assert other.n_samples == 0 and other.fitted is None


def test_live_refits_as_verdicts_arrive_and_survives_a_restart(guard, tmp_path) -> None:
    state = tmp_path / "state.json"
    with standin_judge(gold(ROWS), flip=0.2) as server:
        config = Config.model_validate(
            judge_settings(server.base_url, state_file=str(state), sample_rate=0.5)
        )
        first = judged_guard(guard, config)
        before = first.evaluate_many(unlabelled(ROWS[:40]))
        assert not before[-1].calibration.fitted  # fewer than min_samples verdicts so far
        after = first.evaluate_many(unlabelled(ROWS[40:160]))
        assert after[-1].calibration.fitted
        n = after[-1].calibration.n_samples
        restarted = judged_guard(guard, config)
        again = restarted.evaluate(unlabelled(ROWS[160:161])[0])
    assert again.calibration.fitted and again.calibration.n_samples >= n
    assert again.thresholds["support"] == again.calibration.threshold


def test_the_real_server_labels_the_sample(guard, judge_server, tmp_path) -> None:
    """Wiring only: SmolLM2-135M's verdicts are no quality claim."""
    settings = {
        "judge": {
            "backend": "openai",
            "base_url": judge_server.base_url,
            "model": MODEL,
            "max_output_tokens": 48,
            "timeout_s": 120,
            "band": [0.0, 0.0],
        },
        "calibration": {
            "source": "judge",
            "sample_rate": 1.0,
            "min_samples": 10,
            "state_file": str(tmp_path / "state.json"),
        },
    }
    judged = judged_guard(guard, Config.model_validate(settings))
    evaluations = judged.evaluate_many(unlabelled(ROWS[:3]))
    spans = [e.spans[0] for e in evaluations]
    assert all(s.calibration_sample for s in spans)
    assert all(s.judge is not None and s.judge.model == MODEL for s in spans)
    answered = [s for s in spans if s.judge.verdict is not None]
    state = tmp_path / "state.json"
    if answered:  # the state file records exactly the verdicts the server gave
        stored = json.loads(state.read_text())["pipelines"]["default"]
        assert len(stored["samples"]) == len(answered)
    else:
        assert not state.exists()


def test_prometheus_and_otel_carry_the_calibration(guard, memory) -> None:
    from prometheus_client import CollectorRegistry

    from ragguard.exporters.otel import OtelExporter
    from ragguard.exporters.prometheus import PrometheusExporter
    from ragguard.schema import CalibrationStatus, Trace

    trace = unlabelled(ROWS[:1])[0]
    evaluation = guard.evaluate(trace)
    evaluation.calibration = CalibrationStatus(
        source="judge",
        fitted=True,
        threshold=0.61,
        band=(0.55, 0.7),
        n_samples=120,
        agreement=0.8,
        drift=0.31,
        drifted=True,
    )
    registry = CollectorRegistry()
    PrometheusExporter(registry, pipeline="qa").export(Trace.parse(trace), evaluation)

    def gauge(quantity: str) -> float | None:
        return registry.get_sample_value(
            "ragguard_calibration", {"pipeline": "qa", "quantity": quantity}
        )

    assert (gauge("threshold"), gauge("band_low"), gauge("band_high")) == (0.61, 0.55, 0.7)
    assert (gauge("samples"), gauge("agreement"), gauge("drift")) == (120, 0.8, 0.31)
    rate = registry.get_sample_value(
        "ragguard_unsupported_span_rate", {"pipeline": "qa", "estimate": "lite"}
    )
    assert rate == float(evaluation.spans[0].support < evaluation.thresholds["support"])

    provider, spans = memory
    OtelExporter(tracer_provider=provider).export(Trace.parse(trace), evaluation)
    (span,) = [s for s in spans.get_finished_spans() if s.name == "ragguard.evaluation"]
    assert span.attributes["ragguard.calibration.threshold"] == 0.61
    assert span.attributes["ragguard.calibration.drift"] == 0.31
    assert span.attributes["ragguard.calibration.source"] == "judge"


def test_judge_bench_reads_the_labelled_format(tmp_path, capsys) -> None:
    rows = ROWS[:30]
    labelled = write_jsonl(tmp_path / "mine.jsonl", rows)
    with standin_judge(gold(rows), flip=0.0) as server:
        config = tmp_path / "judge.json"
        config.write_text(json.dumps({"judge": judge_settings(server.base_url)["judge"]}))
        code = main(["judge-bench", "-c", str(config), "--labels", str(labelled)])
        calls = len(server.judge.calls)
    assert code == EXIT_OK
    table = capsys.readouterr().out
    assert "mine.jsonl" in table and calls == len(rows)  # each labelled span asked once


def test_the_summary_warns_when_the_scores_drift() -> None:
    from ragguard.metrics.summary import describe_status
    from ragguard.schema import CalibrationStatus

    status = CalibrationStatus(
        source="file", fitted=True, threshold=0.6, n_samples=200, drift=0.35, drifted=True
    )
    text = describe_status(status)
    assert "threshold 0.600 on 200 labels" in text and "drift 0.350" in text
    assert "WARNING" in text and "recalibrate" in text
