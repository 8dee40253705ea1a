"""Faults and bad input (issue 13): no bad line stops a run, nothing is lost silently, every
limit is a config setting, output files survive failed runs, metadata stays out of OTel
spans by default, and model-load errors name the file and the config key."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import ragguard.evaluation.guard
from ragguard import Config, EvaluationError, Guard, ModelLoadError, TraceValidationError
from ragguard.cli import EXIT_ERROR, EXIT_OK, EXIT_SKIPPED, main
from ragguard.evaluation.evaluator import Evaluator
from ragguard.exporters.base import Finished
from ragguard.exporters.otel import OtelExporter
from ragguard.runtime.jsonl import read_traces
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.hub.transformers_backends import NLISupportScorer
from ragguard.scoring.wiring.factory import build_support
from tests.support.exporters_fixtures import made_up

PARIS = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889."


def trace(trace_id: str, **fields: object) -> dict[str, object]:
    data: dict[str, object] = {
        "trace_id": trace_id,
        "query": "Where is the Eiffel Tower?",
        "items": [{"id": "d1", "text": PARIS}],
        "response": "The Eiffel Tower is in Paris [1].",
    }
    return data | fields


def line(data: object) -> bytes:
    return json.dumps(data).encode() + b"\n"


@pytest.fixture
def cli(guard, monkeypatch):
    """``main`` with every Guard it builds sharing the session's loaded text encoder (the
    config, heads and everything else are built for real from the command's --config)."""

    def shared(config=None):
        resolved = Config.coerce(config)
        evaluator = Evaluator(resolved, embedder=guard.models.embedder)
        return Guard(resolved, evaluator=evaluator)

    monkeypatch.setattr(ragguard.evaluation.guard, "Guard", shared)
    return main


def outputs(path: Path) -> list[str]:
    return [json.loads(text)["trace_id"] for text in path.read_text().splitlines()]


# 1. one bad line never ends the run


def test_an_invalid_utf8_line_is_skipped_by_number_and_every_valid_trace_is_written(
    cli, tmp_path, capsys
):
    traces, out = tmp_path / "traces.jsonl", tmp_path / "out.jsonl"
    rows = [line(trace(f"t{n}")) for n in range(40)]
    rows.insert(25, b'{"trace_id": "bad", "query": "\xff\xfe"}\n')
    traces.write_bytes(b"".join(rows))
    status = cli(["evaluate", str(traces), "-o", str(out), "--batch-size", "16"])
    err = capsys.readouterr().err
    assert status == EXIT_SKIPPED
    assert outputs(out) == [f"t{n}" for n in range(40)]  # the batch around line 26 survived
    assert "line 26" in err and "UTF-8" in err and "Traceback" not in err


def test_json_nested_100000_deep_is_a_skipped_line_not_a_traceback(cli, tmp_path, capsys):
    traces, out = tmp_path / "traces.jsonl", tmp_path / "out.jsonl"
    deep = b'{"trace_id": "deep", "query": "q", "response": "r", "x": ' + b"[" * 100_000
    traces.write_bytes(line(trace("a")) + deep + b"\n" + line(trace("b")))
    assert cli(["evaluate", str(traces), "-o", str(out)]) == EXIT_SKIPPED
    assert outputs(out) == ["a", "b"]
    assert "line 2" in capsys.readouterr().err


def test_exit_status_is_zero_only_when_every_line_was_evaluated(cli, tmp_path):
    traces = tmp_path / "traces.jsonl"
    traces.write_bytes(line(trace("a")) + b"\n" + line(trace("b")))  # a blank line is no trace
    assert cli(["evaluate", str(traces)]) == EXIT_OK
    traces.write_bytes(line(trace("a")) + b"not json\n")
    assert cli(["evaluate", str(traces)]) == EXIT_SKIPPED
    traces.write_bytes(b"not json\n")
    assert cli(["evaluate", str(traces)]) == EXIT_SKIPPED


def test_an_unexpected_error_is_one_line_and_exit_2_not_a_traceback(tmp_path, monkeypatch, capsys):
    def broken(config=None):
        raise RuntimeError("a bug")

    monkeypatch.setattr(ragguard.evaluation, "Guard", broken)
    traces = tmp_path / "traces.jsonl"
    traces.write_bytes(line(trace("a")))
    assert main(["evaluate", str(traces)]) == EXIT_ERROR
    assert capsys.readouterr().err == "ragguard: internal error: RuntimeError: a bug\n"
    monkeypatch.setenv("RAGGUARD_DEBUG", "1")
    with pytest.raises(RuntimeError, match="a bug"):
        main(["evaluate", str(traces)])


def test_a_trace_whose_model_call_raises_fails_alone(guard):
    """A fault inside a batched model call costs only the trace that causes it."""

    class Poisoned:
        def __init__(self, scorer):
            self.scorer, self.threshold = scorer, scorer.threshold

        def relevance(self, queries, evidence):
            if "poison" in queries:
                raise RuntimeError("CUDA error: device-side assert triggered")
            return self.scorer.relevance(queries, evidence)

    evaluator = Evaluator(
        guard.config,
        embedder=guard.models.embedder,
        relevance=Poisoned(guard.models.relevance_scorer),
    )
    rows = [trace("a"), trace("p", query="poison"), trace("b")]
    outcomes = list(Guard(guard.config, evaluator=evaluator).evaluate_stream(rows))
    assert [type(o).__name__ for o in outcomes] == ["Evaluation", "EvaluationError", "Evaluation"]
    assert isinstance(outcomes[1], EvaluationError) and outcomes[1].trace_id == "p"
    assert "CUDA error" in str(outcomes[1])


# 2. size limits


def test_traces_past_a_limit_get_an_error_naming_the_field_and_the_batch_goes_on(guard):
    big = {"k": "x" * 70_000}
    deep: dict[str, object] = {}
    node = deep
    for _ in range(20):
        node["a"] = {}
        node = node["a"]  # type: ignore[assignment]
    rows = [
        trace("items", items=[{"id": f"d{n}", "text": "x"} for n in range(10_000)]),
        trace("response", response="Paris. " * 150_000),
        trace("query", query="where " * 200_000),
        trace("text", items=[{"id": "d1", "text": "y" * 200_000}]),
        trace("depth", items=[{"id": "d1", "text": PARIS, "metadata": deep}]),
        trace("size", items=[{"id": "d1", "text": PARIS, "metadata": big}]),
        trace("extra", extra=deep),
        trace("ok"),
    ]
    outcomes = list(guard.evaluate_stream(rows))
    errors = {o.trace_id: o for o in outcomes if isinstance(o, TraceValidationError)}
    assert {key: error.field for key, error in errors.items()} == {
        "items": "items",
        "response": "response",
        "query": "query",
        "text": "items[0].text",
        "depth": "items[0].metadata",
        "size": "items[0].metadata",
        "extra": "extra",
    }
    assert "limits.max_items = 200" in str(errors["items"])
    assert "limits.max_metadata_depth = 8" in str(errors["depth"])
    assert outcomes[-1].trace_id == "ok" and not isinstance(outcomes[-1], Exception)


def test_limits_are_config_settings(guard, cli, tmp_path, capsys):
    config = tmp_path / "ragguard.toml"
    config.write_text("[limits]\nmax_items = 1\nmax_line_bytes = 2000\n")
    traces = tmp_path / "traces.jsonl"
    two = [{"id": "d1", "text": PARIS}, {"id": "d2", "text": PARIS}]
    traces.write_bytes(
        line(trace("a")) + line(trace("two", items=two)) + line(trace("long", pad="z" * 5000))
    )
    assert cli(["evaluate", str(traces), "-c", str(config)]) == EXIT_SKIPPED
    err = capsys.readouterr().err
    assert "line 2: trace 'two': items: 2 items, more than limits.max_items = 1" in err
    assert "line 3: <line>: longer than limits.max_line_bytes = 2000" in err


def test_an_overlong_line_is_never_held_whole(tmp_path):
    path = tmp_path / "traces.jsonl"
    path.write_bytes(line(trace("a")) + b"x" * 3_000_000 + b"\n" + line(trace("b")))
    read = list(read_traces(path, max_line_bytes=1000))
    assert [n for n, _ in read] == [1, 2, 3]
    assert isinstance(read[1][1], TraceValidationError) and read[1][1].line == 2
    assert [r.trace_id for _, r in read if not isinstance(r, Exception)] == ["a", "b"]


# 3. silent acceptance


@pytest.mark.parametrize("marker", ["[-1]", "[0]", "[dX]", "[doc_N]"])
def test_malformed_citation_markers_name_no_item(guard, marker):
    data = trace("m", response=f"The Eiffel Tower is in Paris {marker}.")
    strict = Guard(
        Config(unknown_citations="error"),
        evaluator=Evaluator(Config(unknown_citations="error"), embedder=guard.models.embedder),
    )
    with pytest.raises(TraceValidationError, match="names no retrieved item") as err:
        strict.evaluate(data)
    assert err.value.field == "response"
    (span,) = guard.evaluate(data).spans  # the default flags it
    assert span.text == "The Eiffel Tower is in Paris."  # the marker is not a claim
    assert span.unknown_citations == (marker.strip("[]"),) and span.citation_support == 0.0
    assert span.supported is True


def test_a_response_span_that_is_not_in_the_response_is_bad_input(guard):
    data = trace("s", response="Paris is big. It is old.", response_spans=["Paris is big.", "Lyon"])
    with pytest.raises(TraceValidationError, match=r"entry 1 \('Lyon'\) is not in the response"):
        guard.evaluate(data)
    with pytest.raises(TraceValidationError) as err:
        guard.evaluate(data)
    assert err.value.field == "response_spans"


def test_a_repeated_trace_id_is_reported_and_skipped(cli, tmp_path, capsys):
    traces, out = tmp_path / "traces.jsonl", tmp_path / "out.jsonl"
    traces.write_bytes(line(trace("a")) + line(trace("b")) + line(trace("a")))
    assert cli(["evaluate", str(traces), "-o", str(out)]) == EXIT_SKIPPED
    assert outputs(out) == ["a", "b"]
    assert "line 3, trace 'a': trace_id: repeats the trace_id of line 1" in capsys.readouterr().err


# 4. output files


def test_a_failed_model_load_leaves_the_existing_output_as_it_was(cli, tmp_path, capsys):
    traces, out = tmp_path / "traces.jsonl", tmp_path / "out.jsonl"
    traces.write_bytes(line(trace("a")))
    out.write_text("earlier results\n")
    config = tmp_path / "bad.toml"
    config.write_text(f'[support]\nmodel = "{tmp_path / "missing-head.json"}"\n')
    assert cli(["evaluate", str(traces), "-o", str(out), "-c", str(config)]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "support.model" in err and "missing-head.json" in err
    assert out.read_text() == "earlier results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml", "out.jsonl", "traces.jsonl"]


def test_the_output_replaces_the_old_file_only_when_the_run_ends(cli, tmp_path):
    traces, out = tmp_path / "traces.jsonl", tmp_path / "out.jsonl"
    traces.write_bytes(line(trace("a")))
    out.write_text("earlier results\n")
    assert cli(["evaluate", str(traces), "-o", str(out)]) == EXIT_OK
    assert outputs(out) == ["a"]


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
def test_output_equal_to_input_is_refused_and_the_input_kept(cli, tmp_path, capsys, how):
    traces = tmp_path / "traces.jsonl"
    traces.write_bytes(line(trace("a")))
    out = traces
    if how != "same path":
        out = tmp_path / "alias.jsonl"
        (out.symlink_to if how == "symlink" else out.hardlink_to)(traces)
    assert cli(["evaluate", str(traces), "-o", str(out)]) == EXIT_ERROR
    assert "is the input" in capsys.readouterr().err
    assert traces.read_bytes() == line(trace("a"))
    golden = tmp_path / "golden.jsonl"
    golden.write_bytes(line(trace("g")))
    assert cli(["benchmark", str(golden), "-o", str(golden)]) == EXIT_ERROR
    assert golden.read_bytes() == line(trace("g"))
    for flag in ("--out", "--report"):  # replay would append to the log it reads
        assert cli(["replay", str(traces), flag, str(out)]) == EXIT_ERROR
        assert traces.read_bytes() == line(trace("a"))


# 12. OTel metadata privacy


def test_document_metadata_stays_out_of_otel_spans_unless_allowed(memory):
    provider, spans = memory
    trace_, evaluation = made_up()
    private = {"caption": "Alice at home", "author": "alice@example.com", "path": "/home/alice"}
    trace_.items[0].metadata.update(private | {"source": "wiki"})

    def exported(**options: object) -> dict[str, object]:
        spans.clear()
        OtelExporter(tracer_provider=provider, **options).export([Finished(trace_, evaluation)])
        (retrieval,) = [s for s in spans.get_finished_spans() if s.name == "retrieval"]
        values = " ".join(str(v) for v in retrieval.attributes.values())
        assert ("alice" in values) == (options.get("include_content") is True)
        return json.loads(retrieval.attributes["retrieval.documents.0.document.metadata"])

    assert set(exported()) == {"ragguard.relevance", "ragguard.relevant", "ragguard.modality"}
    assert exported(metadata_keys=["source"])["source"] == "wiki"
    assert "caption" not in exported(metadata_keys=["source"])
    assert private.items() <= exported(include_content=True).items()


# 13. model-load errors name the file and the config key


@pytest.mark.parametrize(
    ("content", "reason"),
    [(None, "No such file"), ("{not json", "not a head file"), ('{"name": "x"}', "not a head")],
)
def test_a_bad_lite_head_file_is_a_model_load_error(embedder, tmp_path, content, reason):
    path = tmp_path / "head.json"
    if content is not None:
        path.write_text(content)
    config = Config.model_validate({"support": {"model": str(path)}})
    with pytest.raises(ModelLoadError, match=reason) as err:
        build_support(config.support, embedder)
    assert (err.value.key, err.value.source) == ("support.model", str(path))
    assert str(err.value).startswith(f"support.model ('{path}'): ")


def test_hub_model_and_embedder_load_errors_name_the_key(tmp_path):
    missing = str(tmp_path / "no-model")
    with pytest.raises(ModelLoadError) as nli:
        NLISupportScorer(missing)._load()
    assert (nli.value.key, nli.value.source) == ("support.model", missing)
    with pytest.raises(ModelLoadError) as embedding:
        TextEmbedder(missing).encode(["x"])
    assert (embedding.value.key, embedding.value.source) == ("embedding_model", missing)
    assert missing in str(embedding.value)


def test_model_load_errors_pickle_with_their_fields():
    error = ModelLoadError("bad", key="image.model", source="/m")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.key, copy.source, str(copy)) == ("image.model", "/m", str(error))
