import json
import re

from ragguard.cli import main

PARIS = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889."


def write_traces(path):
    rows = [
        {
            "trace_id": "ok-1",
            "query": "Where is the Eiffel Tower?",
            "items": [{"id": "d1", "text": PARIS}],
            "response": "The Eiffel Tower is in Paris [1].",
        },
        {"trace_id": "no-query", "items": [], "response": "x"},
        {
            "trace_id": "ok-2",
            "query": "When was it finished?",
            "items": [{"id": "d1", "text": PARIS}],
            "response": "It was finished in 1889. I cannot say more from the documents.",
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def test_evaluate_streams_results_skips_bad_lines_and_prints_a_summary(tmp_path, capsys, guard):
    traces, out = tmp_path / "traces.jsonl", tmp_path / "results.jsonl"
    write_traces(traces)
    assert main(["evaluate", str(traces), "-o", str(out)]) == 1  # a line was skipped
    results = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["trace_id"] for r in results] == ["ok-1", "ok-2"]
    assert results[0]["spans"][0]["citations"] == ["d1"]
    assert {"items", "spans", "metrics", "timing_ms"} <= results[0].keys()
    captured = capsys.readouterr()
    assert "line 2" in captured.err and "query" in captured.err
    assert "traces evaluated" in captured.out
    assert re.search(r"traces skipped \(bad input\) +1\n", captured.out)
    # model loading on its own line; per-trace time labelled as what it is
    assert "model load" in captured.out and "not counted below" in captured.out
    assert "amortised: batch time / traces in it, batches of up to 2" in captured.out
    assert "Loading weights" not in captured.err  # transformers' bar, as the models loaded


def test_the_summary_counts_items_and_spans_no_model_could_score(tmp_path, capsys):
    """An image with no image model and no caption: nothing is scored, and the summary
    says so instead of reporting a claim neither supported nor unsupported, recall 0."""
    traces, out = tmp_path / "traces.jsonl", tmp_path / "results.jsonl"
    image_only = {
        "trace_id": "chart",
        "query": "What does the chart show?",
        "items": [{"id": "c1", "image": "https://example.org/chart.png"}],
        "response": "The chart shows rising sales [1].",
    }
    traces.write_text(json.dumps(image_only) + "\n")
    assert main(["evaluate", str(traces), "-o", str(out)]) == 0
    (result,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert result["metrics"]["citation_recall"] is None
    assert result["metrics"]["citation_precision"] is None
    summary = capsys.readouterr().out
    assert "0 supported / 0 not / 1 unscored" in summary
    assert "0 scored / 1 unscored (image 1)" in summary
    assert re.search(r"citation recall \(mean per trace\) +n/a\n", summary)


def test_missing_input_file_is_a_clean_error(tmp_path, capsys):
    assert main(["evaluate", str(tmp_path / "nope.jsonl")]) == 2
    assert "ragguard: error" in capsys.readouterr().err
