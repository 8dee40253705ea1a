"""One mixed traces file (good lines, bad JSON, metadata nested 900 deep, a repeated
trace_id, a line past ``limits.max_line_bytes``) gives the same output, the same reported
lines and the same exit status in one process, with ``--workers 2`` and on Ray."""

import contextlib
import io
import json

import pytest
import ray

from ragguard.cli import main
from tests.cli.test_evaluate import PARIS
from tests.support.parallel_fixtures import read_jsonl, same_evaluations

MAX_LINE_BYTES = 20_000


def _trace(trace_id, response="The Eiffel Tower is in Paris [1].", **extra):
    return {
        "trace_id": trace_id,
        "query": "Where is the Eiffel Tower?",
        "items": [{"id": "d1", "text": PARIS}],
        "response": response,
        **extra,
    }


def _nested(depth):
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def write_mixed(path):
    lines = [
        json.dumps(_trace("ok-1")),
        '{"trace_id": "broken", ',
        json.dumps(_trace("deep", meta=_nested(900))),
        json.dumps(_trace("ok-2", "It was finished in 1889.")),
        json.dumps(_trace("ok-1", "A repeat of the first id.")),
        json.dumps(_trace("long", "Paris. " * 5000)),
        json.dumps(_trace("ok-3", "The tower is in Paris.")),
    ]
    path.write_text("\n".join(lines) + "\n")
    assert len(lines[2]) < MAX_LINE_BYTES < len(lines[5])


EXPECTED_ERRORS = {
    2: "not valid JSON",
    3: "more than limits.max_metadata_depth",
    5: "repeats the trace_id of line 1",
    6: f"longer than limits.max_line_bytes = {MAX_LINE_BYTES}",
}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mixed")
    write_mixed(folder / "mixed.jsonl")
    (folder / "limits.toml").write_text(f"[limits]\nmax_line_bytes = {MAX_LINE_BYTES}\n")
    return folder


def _run(mixed, out, *extra):
    """(exit status, stderr) of ``evaluate`` on the mixed file."""
    args = [
        "evaluate",
        str(mixed / "mixed.jsonl"),
        "-o",
        str(out),
        "-c",
        str(mixed / "limits.toml"),
    ]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main([*args, "--batch-size", "2", *extra])
    return code, err.getvalue()


def _reported(err):
    """Skipped line number -> the line reporting it."""
    return {
        int(line.split("line ")[1].split(":")[0].split(",")[0]): line
        for line in err.splitlines()
        if line.startswith("skipped line ")
    }


def _check(code, err, out):
    assert code == 1  # lines were skipped, every other trace written
    assert [r["trace_id"] for r in read_jsonl(out)] == ["ok-1", "ok-2", "ok-3"]
    reported = _reported(err)
    assert sorted(reported) == sorted(EXPECTED_ERRORS)
    for line, expected in EXPECTED_ERRORS.items():
        assert expected in reported[line]


@pytest.fixture(scope="module")
def one_process(mixed):
    out = mixed / "one.jsonl"
    code, err = _run(mixed, out)
    return code, err, out


def test_one_process(one_process):
    _check(*one_process)


def test_two_workers_skip_a_line_that_would_not_pickle(mixed, one_process):
    code, err = _run(mixed, mixed / "two.jsonl", "--workers", "2")
    _check(code, err, mixed / "two.jsonl")
    same_evaluations(read_jsonl(mixed / "two.jsonl"), read_jsonl(one_process[2]))


def test_ray(mixed, one_process):
    from ragguard.runners.ray import runtime_env

    ray.init(num_cpus=2, runtime_env=runtime_env(), include_dashboard=False)
    try:
        code, err = _run(mixed, mixed / "ray.jsonl", "--runner", "ray", "--workers", "2")
    finally:
        ray.shutdown()
    _check(code, err, mixed / "ray.jsonl")
    same_evaluations(read_jsonl(mixed / "ray.jsonl"), read_jsonl(one_process[2]))
