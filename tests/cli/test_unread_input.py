"""A gate, a JUnit file or an exit status never passes on input that was not read or not
scored (issue 45): each input the reliability probe found, run as the real command.

- a CSV row larger than the old field limit is read, and the rows after a bad one are too;
- an unterminated quote is reported with its line, not merged into one row;
- a JSON number of more than 4,300 digits skips its line, in every command that reads lines;
- answers whose claims no loaded model can score (Japanese, images with no image model)
  get ``hallucination: null`` and make a gated run exit 2 unless ``--allow-unscored``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from junitparser import Error, JUnitXml, Skipped

from ragguard.cli import EXIT_ERROR, EXIT_GATE, EXIT_OK, EXIT_SKIPPED
from tests.support.calibration_fixtures import labelled_rows, write_jsonl
from tests.support.cli_process import run_ragguard as ragguard
from tests.support.csv_files import stray_quote_csv

PARIS = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France."
GOOD = {
    "trace_id": "paris",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": PARIS}],
    "response": "The Eiffel Tower is in Paris.",
}
BIG_NUMBER = '{"trace_id": "big", "query": "q", "response": "r", "n": ' + "9" * 5000 + "}"
JAPANESE = {
    "query": "エッフェル塔はどこにありますか？",
    "items": [
        {"id": "d1", "text": "エッフェル塔はフランスのパリにある塔です。高さは330メートルです。"}
    ],
    "response": "エッフェル塔はロンドンにあります。高さは500メートルです。",
}


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def deepeval_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["input", "actual_output", "retrieval_context"])
        writer.writerows(rows)
    return path


def evaluate_with_junit(path: Path, *options: str):
    """``ragguard evaluate`` of ``path`` with ``options``, writing ``out.jsonl`` and
    ``junit.xml`` beside it: (the finished process, the output, the JUnit report)."""
    out, junit = path.parent / "out.jsonl", path.parent / "junit.xml"
    done = ragguard("evaluate", str(path), "-o", str(out), "--junit", str(junit), *options)
    return done, out, junit


def unread_input_error(junit: Path) -> Error:
    """The JUnit error of the gates' check that every line was read and every claim scored."""
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(junit))}
    checks = {case.name: case for case in suites["ragguard gates"]}
    (error,) = checks["every line read and every claim scored"].result
    assert isinstance(error, Error)
    return error


def test_a_csv_row_past_the_old_field_limit_is_read_and_so_is_every_row_after_it(tmp_path):
    """Five 30 KB passages (150 KB, past csv's 131,072-character default): on 394702e the
    row was skipped and the 48 rows after it never read, and the gate passed."""
    rows = [["Where is the tower?", "The tower is in Paris.", "The tower is in Paris."]] * 50
    passages = [("The tower is in Paris. " * 1400)[:30_000] for _ in range(5)]
    rows = [rows[0], ["Where is the tower?", "The tower is in Paris.", ";".join(passages)]]
    rows += [
        [f"Where is tower {i}?", f"Tower {i} is in Paris.", f"Tower {i} is in Paris."]
        for i in range(48)
    ]
    path = deepeval_csv(tmp_path / "cases.csv", rows)
    done, out, junit = evaluate_with_junit(
        path, "--format", "deepeval", "--fail-over", "hallucination_rate=0.5"
    )
    assert done.returncode == EXIT_OK, done.stderr
    evaluations = lines(out)
    assert len(evaluations) == 50 and "skipped" not in done.stderr
    assert len(evaluations[1]["items"]) == 5
    assert next(iter(JUnitXml.fromfile(str(junit)))).tests == 50


def test_an_unterminated_quote_is_reported_with_its_line_not_merged(tmp_path):
    path = tmp_path / "cases.csv"
    good = ["Where is the tower?", "The tower is in Paris.", "The tower is in Paris."]
    deepeval_csv(path, [good] * 2)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('Where?,"The tower is in Paris.,The tower is in Paris.\n')  # never closed
        handle.writelines(
            f"Where is tower {i}?,Tower {i} is in Paris.,Tower {i} is in Paris.\n"
            for i in range(20)
        )
    out = tmp_path / "out.jsonl"
    done = ragguard("evaluate", str(path), "--format", "deepeval", "-o", str(out))
    assert done.returncode == EXIT_SKIPPED
    assert "line 4" in done.stderr and "never closed" in done.stderr
    assert len(lines(out)) == 22  # the rows after it read on their own
    gated = ragguard(
        "evaluate", str(path), "--format", "deepeval", "-o", str(out),
        "--fail-over", "hallucination_rate=1",
    )  # fmt: skip
    assert gated.returncode == EXIT_ERROR and "--allow-skipped" in gated.stderr


def _traces(tmp_path: Path, first: str = json.dumps(GOOD)) -> Path:
    path = tmp_path / "traces.jsonl"
    path.write_text(f"{first}\n{BIG_NUMBER}\n{json.dumps({**GOOD, 'trace_id': 'again'})}\n")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["evaluate"],
        ["evaluate", "--workers", "2"],
        ["replay"],
    ],
)
def test_a_4300_digit_number_skips_its_line_and_the_run_goes_on(tmp_path, command):
    """On 394702e: ``ragguard: error: Exceeds the limit (4300 digits)``, exit 2, nothing
    written."""
    out = tmp_path / "out.jsonl"
    done = ragguard(command[0], str(_traces(tmp_path)), *command[1:], "-o", str(out))
    assert done.returncode == EXIT_SKIPPED, done.stderr
    assert "line 2" in done.stderr and "4300" in done.stderr
    assert [e["trace_id"] for e in lines(out)] == ["paris", "again"]


def test_a_4300_digit_number_in_a_ragas_file_skips_its_line(tmp_path):
    row = {"user_input": "Where?", "retrieved_contexts": [PARIS], "response": "In Paris."}
    path = tmp_path / "ragas.jsonl"
    big = '{"user_input": "Where?", "response": "In Paris.", "n": ' + "1" * 5000 + "}"
    path.write_text(f"{json.dumps(row)}\n{big}\n")
    out = tmp_path / "out.jsonl"
    done = ragguard("evaluate", str(path), "--format", "ragas", "-o", str(out))
    assert done.returncode == EXIT_SKIPPED and "line 2" in done.stderr
    assert len(lines(out)) == 1


def test_a_4300_digit_number_in_labels_skips_its_line_in_calibrate(tmp_path):
    labelled = write_jsonl(tmp_path / "labelled.jsonl", labelled_rows(120))
    with labelled.open("a") as handle:
        handle.write(BIG_NUMBER + "\n")
    out = tmp_path / "calibrated.toml"
    done = ragguard("calibrate", str(labelled), "-o", str(out))
    assert done.returncode == EXIT_SKIPPED, done.stderr
    assert "line 121" in done.stderr and out.exists()


def test_answers_no_model_can_score_give_no_verdict_and_no_passing_gate(tmp_path):
    """Five Japanese answers that contradict their passages, and an image with no image
    model: on 394702e ``hallucination`` was false and the gate passed with exit 0."""
    rows = [{**JAPANESE, "trace_id": f"ja{i}"} for i in range(5)]
    rows.append(
        {
            "trace_id": "image",
            "query": "What is in the picture?",
            "items": [{"id": "i1", "image": str(tmp_path / "missing.png")}],
            "response": "The picture shows a red bus in London.",
        }
    )
    path = write_jsonl(tmp_path / "t.jsonl", rows)
    done, out, junit = evaluate_with_junit(path, "--fail-over", "hallucination_rate=0.1")
    assert done.returncode == EXIT_ERROR
    assert "6 claims in 6 traces could not be scored" in done.stderr
    assert [e["metrics"]["hallucination"] for e in lines(out)] == [None] * 6
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(junit))}
    cases = list(suites["t.jsonl"])
    assert all(isinstance(case.result[0], Skipped) for case in cases) and len(cases) == 6
    assert "--allow-unscored" in unread_input_error(junit).message


def test_unscored_claims_beside_scored_ones_need_allow_unscored(tmp_path):
    rows = [GOOD, {**JAPANESE, "trace_id": "ja"}]
    path = write_jsonl(tmp_path / "t.jsonl", rows)
    out = tmp_path / "out.jsonl"
    gate = ["--fail-over", "hallucination_rate=0.1"]
    done = ragguard("evaluate", str(path), "-o", str(out), *gate)
    assert done.returncode == EXIT_ERROR and "1 claim in 1 trace could not be scored" in done.stderr
    allowed = ragguard("evaluate", str(path), "-o", str(out), *gate, "--allow-unscored")
    assert allowed.returncode == EXIT_OK, allowed.stderr
    assert ragguard("evaluate", str(path), "-o", str(out)).returncode == EXIT_OK  # no gate
    failing = ragguard(
        "evaluate",
        str(path),
        "-o",
        str(out),
        "--allow-unscored",
        "--fail-under",
        "support_rate=1.1",
    )
    assert failing.returncode == EXIT_GATE


def test_a_stray_quote_that_swallows_rows_fails_the_gate_and_the_rows_are_read(tmp_path):
    """A quote opens row 2's ``expected_output`` and ``55"`` at the end of the last row
    closes it (issue 57): on 2462735 the rows between vanished into one cell, the run
    exited 0 and the JUnit check "every line read and every claim scored" passed."""
    path = stray_quote_csv(tmp_path / "cases.csv", 12)
    done, out, junit = evaluate_with_junit(
        path, "--format", "deepeval", "--fail-over", "hallucination_rate=1"
    )
    assert done.returncode == EXIT_ERROR, done.stderr
    assert "line 2" in done.stderr and "stray quote" in done.stderr
    assert len(lines(out)) == 11  # every row but the one the quote opens on
    assert "--allow-skipped" in unread_input_error(junit).message


def test_multi_line_ragas_cells_pass_the_gate_without_a_report(tmp_path):
    """Contexts and answers over several lines, with commas and doubled quotes inside, as
    pandas writes them: every row read, nothing reported, the gate passes."""
    rows = [
        [
            f"Where is tower {i}?",
            str([f'Tower {i}, "the iron one",\nstands in Paris.', "Paris, France, Europe, Earth"]),
            f'Tower {i} is in Paris, "France".\nIt is iron.',
            "In Paris.",
        ]
        for i in range(6)
    ]
    path = tmp_path / "ragas.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["user_input", "retrieved_contexts", "response", "reference"])
        writer.writerows(rows)
    out = tmp_path / "out.jsonl"
    done = ragguard(
        "evaluate", str(path), "--format", "ragas", "-o", str(out),
        "--fail-over", "hallucination_rate=1",
    )  # fmt: skip
    assert done.returncode == EXIT_OK, done.stderr
    assert "skipped" not in done.stderr and "stray" not in done.stderr
    evaluations = lines(out)
    assert len(evaluations) == 6 and all(len(e["items"]) == 2 for e in evaluations)
