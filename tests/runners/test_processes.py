"""``--workers N``: processes with their own models give the one-process results, in order."""

from ragguard.cli import main
from tests.cli.test_evaluate import write_traces
from tests.support.parallel_fixtures import read_jsonl, same_evaluations


def test_two_workers_give_the_one_process_results_in_order(tmp_path, capsys):
    traces, one, two = tmp_path / "t.jsonl", tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    write_traces(traces)
    # write_traces has a bad line: exit 1, every other trace written
    assert main(["evaluate", str(traces), "-o", str(one), "--batch-size", "1"]) == 1
    assert "measured, one trace per batch" in capsys.readouterr().out
    assert (
        main(["evaluate", str(traces), "-o", str(two), "--batch-size", "1", "--workers", "2"]) == 1
    )
    captured = capsys.readouterr()
    assert "2 worker processes" in captured.out and "line 2" in captured.err
    assert [r["trace_id"] for r in read_jsonl(two)] == ["ok-1", "ok-2"]
    same_evaluations(read_jsonl(two), read_jsonl(one))
