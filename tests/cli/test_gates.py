"""Release gates on ``evaluate`` and ``replay``: exit 3 after every output is written when a
gate fails; 2 wins (a stopped run), 3 wins over 1 (skipped lines); a gate the run cannot
compute is an error at start; the JUnit report parsed by a JUnit reader (junitparser)."""

import json
import re

import pytest
from junitparser import Error, Failure, JUnitXml

from ragguard.cli import EXIT_ERROR, EXIT_GATE, EXIT_OK, EXIT_SKIPPED, main
from ragguard.metrics.summary import MEANS

PARIS = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889."
HEIGHT = "The Eiffel Tower is 330 metres tall."
TRACES = [
    {
        "trace_id": "paris",
        "query": "Where is the Eiffel Tower?",
        "items": [{"id": "d1", "text": PARIS}],
        "response": "The Eiffel Tower is in Paris [1].",
    },
    {
        "trace_id": "height",
        "query": "How tall is the Eiffel Tower?",
        "items": [{"id": "d1", "text": HEIGHT}],
        "response": "The Eiffel Tower is 500 metres tall [1].",
    },
    {
        "trace_id": "bananas <&> \u0007",
        "query": "Where is the Eiffel Tower?",
        "items": [{"id": "d1", "text": PARIS}],
        "response": "Bananas are rich in potassium and grow in the tropics.",
    },
]
BAD_LINE = {"trace_id": "no-query", "items": [], "response": "x"}


def write(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_a_failing_gate_exits_3_after_the_outputs_and_names_gate_value_and_bound(tmp_path, capsys):
    traces, out, junit = (
        write(tmp_path / "t.jsonl", TRACES),
        tmp_path / "r.jsonl",
        tmp_path / "j.xml",
    )
    argv = ["evaluate", traces, "-o", str(out), "--junit", str(junit)]
    argv += ["--fail-over", "hallucination_rate=0.5", "--fail-under", "relevant_at_k=0.1"]
    assert main(argv) == EXIT_GATE
    assert len(out.read_text().splitlines()) == 3 and junit.exists()  # every output written
    printed = capsys.readouterr().out
    summary_value = printed.split(MEANS["hallucination_rate"])[1].split()[0]
    assert re.search(rf"hallucination_rate <= 0.5 +FAILED \({summary_value} > 0.5\)", printed)
    assert "relevant_at_k >= 0.1" in printed.split("gates")[1]


def test_a_passing_gate_keeps_the_usual_status(tmp_path, capsys):
    traces = write(tmp_path / "t.jsonl", TRACES)
    gate = ["--fail-over", "hallucination_rate=1", "--fail-over", "unsupported_span_rate=1"]
    assert main(["evaluate", traces, "-o", str(tmp_path / "r.jsonl"), *gate]) == EXIT_OK
    assert re.search(r"hallucination_rate <= 1 +pass \(0\.\d+\)", capsys.readouterr().out)


def test_skipped_lines_stop_a_gate_passing_unless_allowed(tmp_path, capsys):
    """A gate never passes on input the run did not read: 2, whatever the gate says; with
    --allow-skipped a failed gate wins over skipped lines and a passing one does not."""
    traces = write(tmp_path / "t.jsonl", [*TRACES, BAD_LINE])
    out = str(tmp_path / "r.jsonl")
    for bound in ("0.1", "1"):
        gate = ["--fail-over", f"hallucination_rate={bound}"]
        assert main(["evaluate", traces, "-o", out, *gate]) == EXIT_ERROR
        assert "1 line skipped (bad input; --allow-skipped" in capsys.readouterr().err
    allow = ["--allow-skipped", "--fail-over"]
    assert main(["evaluate", traces, "-o", out, *allow, "hallucination_rate=0.1"]) == 3
    assert main(["evaluate", traces, "-o", out, *allow, "hallucination_rate=1"]) == 1
    assert main(["evaluate", traces, "-o", out]) == EXIT_SKIPPED == 1  # no gate: as before


def test_a_stopped_run_exits_2_whatever_the_gates(tmp_path, capsys):
    traces = write(tmp_path / "t.jsonl", TRACES)
    config = tmp_path / "bad.toml"
    config.write_text('[support]\nbackend = "nli"\nmodel = "/nonexistent/model"\n')
    out = tmp_path / "r.jsonl"
    gate = ["--fail-over", "hallucination_rate=0"]
    assert main(["evaluate", traces, "-c", str(config), "-o", str(out), *gate]) == EXIT_ERROR
    assert "no such file" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize(
    ("gate", "message"),
    [
        (["--fail-over", "halucination_rate=0.2"], "did you mean 'hallucination_rate'"),
        (["--fail-over", "unsupported_span_rate.high=0.2"], "draws none"),
        (["--fail-under", "citation_precision=0.5"], "no answer cites an item"),
        (["--fail-under", "mean_relevance=0.5"], "no trace has retrieved items"),
    ],
)
def test_a_gate_the_run_cannot_compute_is_an_error_at_start(tmp_path, capsys, gate, message):
    """Refused before any model loads or any output is written, not passed."""
    uncited = [{**TRACES[0], "items": [], "response": "The Eiffel Tower is in Paris."}]
    traces, out = write(tmp_path / "t.jsonl", uncited), tmp_path / "r.jsonl"
    assert main(["evaluate", traces, "-o", str(out), *gate]) == EXIT_ERROR
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_junit_has_a_testcase_per_trace_and_gate_read_by_a_junit_reader(tmp_path):
    traces = write(tmp_path / "t.jsonl", [*TRACES, BAD_LINE])
    junit = tmp_path / "junit.xml"
    argv = ["evaluate", traces, "-o", str(tmp_path / "r.jsonl"), "--junit", str(junit)]
    argv += ["--fail-over", "hallucination_rate=0.1", "--fail-under", "mean_relevance=0"]
    assert main([*argv, "--allow-skipped"]) == EXIT_GATE
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(junit))}
    traces_suite, gates = suites["t.jsonl"], suites["ragguard gates"]
    cases = {case.name: case for case in traces_suite}
    assert set(cases) == {"paris", "height", "bananas <&> \ufffd", "line 4"}
    assert traces_suite.tests == 4 and traces_suite.errors == 1
    assert cases["paris"].is_passed
    (failure,) = cases["height"].result
    assert isinstance(failure, Failure) and failure.message == "1 unsupported claim"
    assert "'The Eiffel Tower is 500 metres tall.'" in failure.text
    assert "number: '500' vs '330' in d1" in failure.text  # the claim's reason
    (off,) = cases["bananas <&> \ufffd"].result
    assert "does not address the query" in off.text and "answer off the question" in off.message
    (error,) = cases["line 4"].result
    assert isinstance(error, Error) and "query" in error.message
    gate_cases = {case.name: case for case in gates}
    read = "every line read and every claim scored"
    assert set(gate_cases) == {"hallucination_rate <= 0.1", "mean_relevance >= 0", read}
    assert gate_cases[read].is_passed  # allowed
    assert gate_cases["mean_relevance >= 0"].is_passed
    (gate_failure,) = gate_cases["hallucination_rate <= 0.1"].result
    assert gate_failure.message.startswith("FAILED (0.")


def test_replay_gates_and_junit(tmp_path, capsys):
    log = write(tmp_path / "live.jsonl", TRACES)
    junit, out = tmp_path / "junit.xml", tmp_path / "replayed.jsonl"
    argv = ["replay", log, "-o", str(out), "--junit", str(junit)]
    assert main([*argv, "--fail-under", "answer_relevance=0.99"]) == EXIT_GATE
    assert re.search(r"answer_relevance >= 0.99 +FAILED", capsys.readouterr().out)
    assert sum(1 for _ in next(iter(JUnitXml.fromfile(str(junit))))) == 3


def test_a_bound_no_judge_sample_corrected_is_an_error_after_the_outputs(tmp_path, capsys):
    """A config that draws a judge sample passes the start check; a judge that never
    answers leaves the rate uncorrected, and the gate on its bound is no pass: exit 2."""
    traces, out, junit = (
        write(tmp_path / "t.jsonl", TRACES),
        tmp_path / "r.jsonl",
        tmp_path / "j.xml",
    )
    config = tmp_path / "judge.toml"
    config.write_text(
        '[judge]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\ntimeout_s = 1\n'
        'retries = 0\n\n[calibration]\nsource = "judge"\n'
    )
    argv = ["evaluate", traces, "-c", str(config), "-o", str(out), "--junit", str(junit)]
    assert main([*argv, "--fail-over", "unsupported_span_rate.high=0.9"]) == EXIT_ERROR
    assert len(out.read_text().splitlines()) == 3
    gate, read = next(
        suite for suite in JUnitXml.fromfile(str(junit)) if suite.name == "ragguard gates"
    )
    assert read.name == "every line read and every claim scored" and read.is_passed
    (error,) = gate.result
    assert isinstance(error, Error) and "no judge-labelled sample" in error.message
    assert (
        "cannot be checked: no judge-labelled sample corrected the rate" in capsys.readouterr().err
    )


def test_junit_names_a_foreign_row_by_its_query_and_keeps_its_id(tmp_path):
    """A RAGAS row's id is a hash: its testcase is named by the query, the id in brackets
    (``compare`` pairs results on the id, which stays as it was)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rows = [{"user_input": t["query"], "retrieved_contexts": [t["items"][0]["text"]],
             "response": t["response"]} for t in TRACES[:2]]  # fmt: skip
    traces = write(tmp_path / "ragas.jsonl", rows)
    junit, out = tmp_path / "junit.xml", tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "ragguard.cli", "evaluate", traces, "--format", "ragas"]
    done = subprocess.run(
        [*command, "-o", str(out), "--junit", str(junit)],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    ids = [json.loads(line)["trace_id"] for line in out.read_text().splitlines()]
    suite = next(s for s in JUnitXml.fromfile(str(junit)) if s.name == "ragas.jsonl")
    names = [case.name for case in suite]
    assert names == [f"{t['query']} [{i}]" for t, i in zip(TRACES[:2], ids, strict=True)]
    assert all(i.startswith("ragas-") for i in ids)
