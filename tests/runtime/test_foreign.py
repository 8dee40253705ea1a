"""RAGAS and DeepEval exports read as traces: the examples of docs/formats.md evaluate as
written, ids are deterministic, and the reference answer reaches the reference metrics."""

import json

import pytest

from ragguard.cli import main
from ragguard.errors import TraceValidationError
from ragguard.runtime.foreign import read_foreign
from tests.support.docs_blocks import ROOT, blocks

PAGE = ROOT / "docs" / "formats.md"


def example(language: str) -> str:
    ((_, code),) = blocks(PAGE, language)
    return code


def run_evaluate(path, form, capsys):
    assert main(["evaluate", str(path), "--format", form]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_ragas_example_evaluates_as_written(tmp_path, capsys):
    path = tmp_path / "ragas.jsonl"
    path.write_text(example("jsonl"))
    (evaluation,) = run_evaluate(path, "ragas", capsys)
    assert evaluation["trace_id"].startswith("ragas-") and len(evaluation["trace_id"]) == 22
    (span,) = evaluation["spans"]
    assert span["supported"] is False
    assert [r["check"] for r in span["reasons"]][:1] in (["date"], ["number"])
    assert run_evaluate(path, "ragas", capsys)[0]["trace_id"] == evaluation["trace_id"]


def test_the_deepeval_csv_example_evaluates_as_written(tmp_path, capsys):
    path = tmp_path / "deepeval.csv"
    path.write_text(example("csv"))
    (evaluation,) = run_evaluate(path, "deepeval", capsys)
    assert [i["id"] for i in evaluation["items"]] == ["c1", "c2"]
    assert evaluation["spans"][0]["supported"] is True


def test_repeated_content_gets_its_line_and_a_reference_becomes_the_reference_answer(tmp_path):
    row = {"input": "Where?", "actual_output": "In Rome.", "retrieval_context": ["Rome."]}
    path = tmp_path / "cases.jsonl"
    path.write_text(
        "\n".join(json.dumps(r) for r in (row, row, {**row, "expected_output": "Rome"}))
    )
    traces = [t for _, t in read_foreign(path, "deepeval")]
    ids = [t.trace_id for t in traces]
    assert ids[1] == f"{ids[0]}-line2" and ids[2] != ids[0]
    assert traces[2].reference is not None and traces[2].reference.answer == "Rome"


def test_pandas_list_cells_and_missing_columns(tmp_path):
    path = tmp_path / "ragas.csv"
    path.write_text(
        "user_input,retrieved_contexts,response\n"
        '"Where?","[\'Rome is in Italy.\', \'It has the Colosseum.\']","In Rome."\n'
        '"Where?","[]","In Rome."\n'
        '"Where?","[\'x\']",\n'
    )
    first, empty, missing = [t for _, t in read_foreign(path, "ragas")]
    assert [i.text for i in first.items] == ["Rome is in Italy.", "It has the Colosseum."]
    assert empty.has_context and empty.items == []
    assert isinstance(missing, TraceValidationError) and missing.line == 4
    assert missing.field == "response"


def test_the_reference_answer_feeds_the_reference_metrics(tmp_path, capsys):
    path, out = tmp_path / "ragas.jsonl", tmp_path / "scores.jsonl"
    path.write_text(example("jsonl"))
    assert main(["benchmark", str(path), "--format", "ragas", "-o", str(out)]) == 0
    (scores,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert scores["mirage"]["info_precision_reference"] is not None


@pytest.mark.parametrize("form", ["ragas", "deepeval"])
def test_a_ragguard_trace_given_as_a_foreign_format_names_the_missing_columns(tmp_path, form):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({"trace_id": "t", "query": "q", "response": "r"}) + "\n")
    ((_, error),) = list(read_foreign(path, form))
    assert isinstance(error, TraceValidationError) and "the row's columns" in error.message
