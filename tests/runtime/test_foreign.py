"""RAGAS, DeepEval, Phoenix and LangSmith exports read as traces: the examples of
docs/formats.md evaluate as written, ids are deterministic, and the reference answer
reaches the reference metrics."""

import json

import pytest

from ragguard.cli import main
from ragguard.errors import TraceValidationError
from ragguard.runtime.foreign import read_foreign
from tests.support.cli_process import run_ragguard
from tests.support.docs_blocks import ROOT, blocks

PAGE = ROOT / "docs" / "formats.md"


def example(language: str, contains: str = "") -> str:
    """The page's one ``language`` example holding ``contains`` (the first of its kind)."""
    return next(code for _, code in blocks(PAGE, language) if contains in code)


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


@pytest.mark.parametrize(
    ("form", "language", "contains", "name"),
    [
        ("ragas", "jsonl", '"question"', "classic.jsonl"),
        ("phoenix", "csv", "input,output,reference", "phoenix.csv"),
        ("langsmith", "jsonl", '"inputs"', "langsmith.jsonl"),
    ],
)
def test_each_documented_export_evaluates_as_written(tmp_path, form, language, contains, name):
    """The classic RAGAS names, Phoenix and LangSmith: the page's examples, through the real
    command; every claim is checked against the passages read from the user's columns."""
    path = tmp_path / name
    path.write_text(example(language, contains))
    done = run_ragguard("evaluate", str(path), "--format", form)
    assert done.returncode == 0, done.stderr
    (evaluation,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert evaluation["trace_id"].startswith(f"{form}-")
    assert evaluation["items"] and evaluation["spans"][0]["supported"] is True
    assert "warning" not in done.stderr


def test_ragas_classic_ground_truths_become_the_reference_answer(tmp_path):
    path = tmp_path / "classic.jsonl"
    path.write_text(example("jsonl", '"question"'))
    ((_, trace),) = list(read_foreign(path, "ragas"))
    assert trace.reference.answer == "It was completed in 1889."
    assert trace.items[0].text.startswith("The Eiffel Tower is")


def test_errors_name_the_users_column_and_line_with_the_nearest_name(tmp_path):
    path = tmp_path / "ragas.jsonl"
    rows = [
        {"user_input": "Where?", "retrieved_contexts": ["Rome."], "respons": "In Rome."},
        {"user_input": 7, "retrieved_contexts": ["Rome."], "response": "In Rome."},
        {"question": "Where?", "contexts": ["Rome."], "answer": "Rome.", "retrieved_context": []},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows * 2))
    done = run_ragguard("evaluate", str(path), "--format", "ragas")
    assert done.returncode == 1
    err = done.stderr
    assert "line 1: response: no `response` or `answer` column; the row has `respons`" in err
    assert "did you mean `response`?" in err
    assert "line 2: user_input: Input should be a valid string (read as ragguard's `query`)" in err
    unknown = "column `retrieved_context` is not read; did you mean `retrieved_contexts`?"
    assert err.count(unknown) == 1 and err.count("column `respons` is not read") == 1
    assert len(done.stdout.splitlines()) == 2  # the classic rows are evaluated


def test_a_broken_list_cell_is_refused_not_read_as_one_passage(tmp_path):
    path = tmp_path / "ragas.csv"
    path.write_text(
        "user_input,retrieved_contexts,response\n"
        '"Where?","[\'Rome is in Italy.\', \'It","In Rome."\n'
    )
    ((_, error),) = list(read_foreign(path, "ragas"))
    assert isinstance(error, TraceValidationError)
    assert error.field == "retrieved_contexts" and "not a readable one" in error.message


def test_a_json_array_export_is_read(tmp_path):
    path = tmp_path / "cases.json"
    row = {"input": "Where?", "actual_output": "In Rome.", "retrieval_context": ["Rome."]}
    path.write_text(json.dumps([row, {**row, "input": "Which city?"}]))
    assert [t.query for _, t in read_foreign(path, "deepeval")] == ["Where?", "Which city?"]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("data.csv", "user_input,response\nq,r\n", "is a CSV file"),
        ("data.parquet", "PAR1", "is a Parquet file"),
        ("data.json", '[{"user_input": "q"}]', "holds one JSON array"),
    ],
)
def test_a_file_that_is_not_jsonl_names_the_format_flag(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    done = run_ragguard("evaluate", str(path))
    assert done.returncode == 2 and message in done.stderr
    assert "--format ragas|deepeval|phoenix|langsmith" in done.stderr
    assert "not valid JSON" not in done.stderr


def test_a_jsonl_file_named_json_is_read_as_ever(tmp_path):
    path = tmp_path / "traces.json"
    path.write_text((ROOT / "examples" / "traces.jsonl").read_text().splitlines()[0] + "\n")
    done = run_ragguard("evaluate", str(path))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("workers", [[], ["--workers", "2"]])
def test_standard_input_is_read_with_a_dash(workers):
    lines = (ROOT / "examples" / "traces.jsonl").read_text().splitlines()[:3]
    done = run_ragguard("evaluate", "-", *workers, stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    ids = [json.loads(line)["trace_id"] for line in done.stdout.splitlines()]
    assert ids == [json.loads(line)["trace_id"] for line in lines]


def test_a_csv_export_on_standard_input(tmp_path):
    done = run_ragguard(
        "evaluate", "-", "--format", "phoenix", stdin=example("csv", "input,output")
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["trace_id"].startswith("phoenix-")


def test_ray_refuses_standard_input():
    done = run_ragguard("evaluate", "-", "--runner", "ray", stdin="")
    assert done.returncode == 2
    assert "--runner ray" in done.stderr and "cannot read standard input" in done.stderr
