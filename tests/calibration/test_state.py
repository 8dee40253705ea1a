"""``[calibration] source = "judge"``: a hash-drawn sample of spans goes to the judge, the
threshold and band are refitted on its verdicts, the state survives restarts and is shared
by processes, a batch run calibrates itself, and the rate is corrected by the sample; the
state file is untrusted (ownership and mode, schema, no forged fit, verdicts keyed by the
text they judged). The
logic runs against a stand-in judge that is right 80% of the time; the wiring against the
real llama.cpp server."""

import hashlib
import json
import logging
import multiprocessing

import pytest

from benchmarks.accuracy_judge import standin_judge
from ragguard import Config
from ragguard.calibration.state import CalibrationStore, in_calibration_sample, sample_key
from ragguard.cli import EXIT_OK, main
from ragguard.config import CalibrationConfig
from ragguard.exporters.base import Finished
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
        calls = list(server.judge.support_calls)
    assert code == EXIT_OK
    captured = capsys.readouterr()
    results = [json.loads(line) for line in out.read_text().splitlines()]
    sampled = [r for r in results if r["spans"][0]["calibration_sample"]]
    assert 0.2 * len(ROWS) < len(sampled) < 0.4 * len(ROWS)
    # every sampled span carries the judge's verdict, asked once over both passes; it
    # decides the span unless it would overrule a fired contradiction check (may_overrule)
    spans = [r["spans"][0] for r in sampled]
    assert all(s["judge"]["verdict"] is not None for s in spans)
    decided = [s["support_source"] == "judge" or s["judge_skipped"] == "check_fired" for s in spans]
    assert all(decided) and sum(s["support_source"] == "judge" for s in spans) > len(spans) / 2
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


def _key(trace_id: str, text: str = "claim") -> str:
    return sample_key(trace_id, 0, hashlib.sha256(text.encode()).hexdigest())


def _add_samples(path: str, start: int) -> None:
    store = _store(path)
    for i in range(start, start + 40, 4):
        store.add([(_key(f"t{i + j}"), (i + j) / 200, (i + j) % 3 != 0) for j in range(4)])


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
    assert again.thresholds.support == again.calibration.threshold


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
    calibration = CalibrationStatus(
        source="judge",
        fitted=True,
        threshold=0.61,
        band=(0.55, 0.7),
        n_samples=120,
        agreement=0.8,
        drift=0.31,
        drifted=True,
    )
    evaluation = evaluation.model_copy(update={"calibration": calibration})
    registry = CollectorRegistry()
    PrometheusExporter(registry, pipeline="qa").export([Finished(Trace.parse(trace), evaluation)])

    def gauge(quantity: str) -> float | None:
        return registry.get_sample_value(
            "ragguard_calibration", {"pipeline": "qa", "quantity": quantity}
        )

    assert (gauge("threshold"), gauge("band_low"), gauge("band_high")) == (0.61, 0.55, 0.7)
    assert (gauge("samples"), gauge("agreement"), gauge("drift")) == (120, 0.8, 0.31)
    rate = registry.get_sample_value(
        "ragguard_unsupported_span_rate", {"pipeline": "qa", "estimate": "lite"}
    )
    assert rate == float(evaluation.spans[0].support < evaluation.thresholds.support)

    provider, spans = memory
    OtelExporter(tracer_provider=provider).export([Finished(Trace.parse(trace), evaluation)])
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


def _state(path, samples, fitted=None, fingerprint: str = "f") -> None:
    pipeline = {"fingerprint": fingerprint, "samples": samples, "fitted": fitted}
    path.write_text(json.dumps({"version": 2, "pipelines": {"qa": pipeline}}))
    path.chmod(0o600)


SAMPLES = [[_key(f"t{i}"), i / 60, i % 2 == 0 or i > 40] for i in range(60)]


def test_a_reused_trace_id_with_another_answer_gets_a_fresh_judge_call(guard, tmp_path) -> None:
    """Day 2's traces reuse day 1's ids with other answers: the sample is drawn by the ids
    (the same spans), but day 1's stored verdicts decide none of day 2's text."""
    day1 = labelled_rows(120, seed=3)
    other = [r for r in labelled_rows(400, seed=9) if r["response"] not in gold(day1)]
    day2 = [
        {**row, "trace_id": first["trace_id"]} for first, row in zip(day1, other[:120], strict=True)
    ]
    state = tmp_path / "state.json"
    with standin_judge(gold(day1) | gold(day2), flip=0.0) as server:
        config = Config.model_validate(
            judge_settings(server.base_url, state_file=str(state), sample_rate=0.5)
        )
        judged_guard(guard, config).evaluate_many(unlabelled(day1))
        asked_on_day1 = len(server.judge.calls)
        second = judged_guard(guard, config).evaluate_many(unlabelled(day2))
        asked_on_day2 = server.judge.calls[asked_on_day1:]
    sampled = [e.spans[0] for e in second if e.spans[0].calibration_sample]
    assert len(sampled) > 30
    assert all(span.text in asked_on_day2 for span in sampled)  # each one asked afresh
    truth = gold(day2)
    assert all(span.supported == truth[span.text] for span in sampled)  # the judge is right


def test_a_forged_fit_in_the_state_file_is_refitted_from_the_samples(tmp_path) -> None:
    forged = {
        "source": "judge",
        "threshold": 0.0,
        "band": [0.0, 0.0],
        "n_labels": 10**12,
        "n_supported": 10**12,
        "fingerprint": "f",
    }
    path = tmp_path / "state.json"
    _state(path, SAMPLES, forged)
    store = _store(str(path))
    honest = _store(str(tmp_path / "fresh.json"))
    honest.add([tuple(s) for s in SAMPLES])
    assert store.fitted is not None and store.fitted.n_labels == len(SAMPLES)
    assert store.threshold == honest.threshold and store.band == honest.band
    _state(path, SAMPLES[:5], forged)  # too few samples for any fit: the defaults stand
    few = _store(str(path))
    assert few.fitted is None and (few.threshold, few.band) == (0.5, (0.4, 0.6))


def test_a_state_file_others_can_write_is_not_read(tmp_path, caplog) -> None:
    path = tmp_path / "state.json"
    _state(path, SAMPLES)
    assert _store(str(path)).n_samples == len(SAMPLES)  # private: read
    path.chmod(0o666)
    with caplog.at_level(logging.WARNING, logger="ragguard"):
        store = _store(str(path))
    assert store.n_samples == 0 and store.fitted is None
    assert str(path) in caplog.text
    path.chmod(0o600)
    shared = tmp_path / "shared"
    shared.mkdir()
    _state(shared / "state.json", SAMPLES)
    shared.chmod(0o777)  # a folder others can write: neither read nor written
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ragguard"):
        store = _store(str(shared / "state.json"))
        store.add([(_key("new"), 0.5, True)])
    assert store.n_samples == 1
    assert len(json.loads((shared / "state.json").read_text())["pipelines"]["qa"]["samples"]) == 60
    assert "not private" in caplog.text


def test_a_missing_state_folder_is_made_private_and_used(tmp_path) -> None:
    path = tmp_path / "new" / "state.json"
    _store(str(path)).add([(_key("t1"), 0.5, True)])
    assert (path.parent.stat().st_mode & 0o777) == 0o700 and (path.stat().st_mode & 0o777) == 0o600
    assert _store(str(path)).n_samples == 1


@pytest.mark.parametrize(
    "pipeline",
    [
        {"fingerprint": "f", "samples": None},
        {"fingerprint": "f", "samples": [["t1#0", 0.5, True]]},  # a version-1 key
        {"fingerprint": "f", "samples": [[_key("t1"), "0.5", True]]},
        {"fingerprint": "f", "samples": [[_key("t1"), 7.0, True]]},
        {"fingerprint": "f", "samples": [[_key("t1"), 0.5, 1]]},
        {"fingerprint": "f", "samples": {"a": 1}},
        {"fingerprint": 5, "samples": []},
        [],
    ],
)
def test_a_state_file_of_the_wrong_shape_is_named_and_calibration_starts_afresh(
    tmp_path, caplog, pipeline
) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 2, "pipelines": {"qa": pipeline}}))
    with caplog.at_level(logging.WARNING, logger="ragguard"):
        store = _store(str(path))
        store.add([(_key(f"n{i}"), i / 20, i % 2 == 0) for i in range(12)])
    assert store.n_samples == 12 and store.fitted is not None
    assert str(path) in caplog.text and "starting afresh" in caplog.text
    assert len(json.loads(path.read_text())["pipelines"]["qa"]["samples"]) == 12


class _CountingDict(dict):
    pops = 0

    def pop(self, *args):
        _CountingDict.pops += 1
        return super().pop(*args)


def test_trimming_the_sample_is_one_pass_not_a_pop_per_excess_sample(tmp_path) -> None:
    store = CalibrationStore(
        CalibrationConfig(source="judge", min_samples=10, max_samples=100),
        pipeline="qa",
        fingerprint="f",
        default_threshold=0.5,
        default_band=(0.4, 0.6),
    )
    store._samples = _CountingDict((_key(f"t{i}"), (i / 50_000, i % 2 == 0)) for i in range(50_000))
    store.add([(_key("last"), 0.5, True)])
    assert store.n_samples == 100 and store.verdict(_key("last")) is True
    assert store.verdict(_key("t49999")) is False and store.verdict(_key("t0")) is None
    assert _CountingDict.pops <= 1  # the new sample's own (a re-asked key moves to the end)


TRACE_LIKE_WARMUP = {
    "trace_id": "real",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris."}],
    "response": "The Eiffel Tower is in Paris [1].",
}


def test_the_warm_up_trace_is_not_sent_to_the_judge_nor_stored(tmp_path) -> None:
    """Guard.warmup passes a synthetic trace through the models; on 394702e its span was
    drawn into the calibration sample, judged and kept in the state file."""
    from ragguard import Guard

    state = tmp_path / "calibration.json"
    claims = {"The Eiffel Tower is in Paris [1].": True, "The Eiffel Tower is in Paris.": True}
    with standin_judge(gold(ROWS) | claims, flip=0.0) as server:
        settings = judge_settings(server.base_url, state_file=str(state), sample_rate=1.0)
        guard = Guard(Config.model_validate(settings))
        guard.warmup()
        assert list(server.judge.calls) == []
        store = guard.models.judge.calibration
        assert store is not None and store.n_samples == 0
        guard.evaluate(TRACE_LIKE_WARMUP)  # a real trace of the same text is judged
        assert store.n_samples == 1
