"""What a new user meets in the first hour of the command line: mistakes reported before
any work with the file and the fix named, the evaluations on stdout when no file is given,
one spelling of the output flag everywhere, and the version."""

import json

import pytest

import ragguard
from ragguard.cli import main
from ragguard.config import Config
from ragguard.errors import ConfigError

TRACE = {
    "trace_id": "t1",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is in Paris."}],
    "response": "The Eiffel Tower is in Paris [1].",
}


@pytest.fixture
def traces(tmp_path):
    path = tmp_path / "traces.jsonl"
    path.write_text(json.dumps(TRACE) + "\n" + json.dumps({**TRACE, "trace_id": "t2"}) + "\n")
    return path


@pytest.fixture
def never_loads(monkeypatch):
    """Fail the test if a command gets as far as building a Guard: the mistake must be
    caught before any work."""

    def guard(*args, **kwargs):
        raise AssertionError("the command started its work")

    monkeypatch.setattr(ragguard.evaluation.guard, "Guard", guard)


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"ragguard {ragguard.__version__}\n"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[suport]\nthreshold = 0.5\n", "unknown section `suport`; did you mean `support`?"),
        ("[support]\nthreshhold = 0.5\n", "did you mean `support.threshold`?"),
        ("batchsize = 2\n", "unknown setting `batchsize`; did you mean `batch_size`?"),
        ("[support]\nthreshold = 2\n", "support.threshold: Input should be less than"),
        ("[support]\nthreshold = 0.5.\n", "not valid TOML"),
    ],
)
def test_config_errors_name_the_file_and_the_fix(tmp_path, toml, message, capsys, traces):
    path = tmp_path / "my.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as error:
        Config.from_file(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)
    assert "errors.pydantic.dev" not in str(error.value)
    assert main(["evaluate", str(traces), "-c", str(path), "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and message in err and err.count("\n") == 1


def test_directories_where_files_belong_are_named_as_such(tmp_path, traces, capsys, never_loads):
    folder = tmp_path / "folder"
    folder.mkdir()
    out = str(tmp_path / "out.jsonl")
    assert main(["evaluate", str(traces), "--config", str(folder), "-o", out]) == 2
    assert f"{folder} is a directory: a config is a TOML or JSON file" in capsys.readouterr().err
    assert main(["evaluate", str(folder), "-o", out]) == 2
    assert "evaluate takes a JSONL file of traces" in capsys.readouterr().err
    assert main(["replay", str(folder)]) == 2
    assert f"{folder} is a directory: name the log files in it" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["evaluate", "replay", "benchmark"])
def test_an_output_that_is_a_folder_is_refused_before_the_work(
    tmp_path, traces, capsys, never_loads, command
):
    folder = tmp_path / "results"
    folder.mkdir()
    assert main([command, str(traces), "-o", str(folder)]) == 2
    assert "is a directory; name a file in it" in capsys.readouterr().err
    assert main([command, str(traces), "-o", str(tmp_path / "no" / "out.jsonl")]) == 2
    assert "in a folder that does not exist" in capsys.readouterr().err


def test_train_checks_its_output_before_training(tmp_path, capsys):
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"claim": "a", "evidence": "a", "label": 1}\n')
    assert main(["train", "support", "--labels", str(labels), "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["-o", "--output", "--out"])
@pytest.mark.parametrize("command", ["evaluate", "replay", "benchmark", "train"])
def test_every_output_flag_spelling_works_on_every_command(command, flag):
    args = [command, "in.jsonl", flag, "x.jsonl"]
    if command == "train":
        args = ["train", "support", "--labels", "in.jsonl", flag, "x.jsonl"]
    parsed = ragguard.cli.build_parser().parse_args(args)
    assert "x.jsonl" in (getattr(parsed, "output", None), getattr(parsed, "out", None))


def test_evaluate_without_output_writes_jsonl_to_stdout_and_the_summary_to_stderr(
    guard, monkeypatch, traces, capsys
):
    monkeypatch.setattr(ragguard.evaluation.guard, "Guard", lambda config=None: guard)
    assert main(["evaluate", str(traces)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert [json.loads(line)["trace_id"] for line in lines] == ["t1", "t2"]
    assert "ragguard evaluation summary" in captured.err


@pytest.fixture
def shared_models(guard, monkeypatch):
    """Every Guard a command builds uses the session's loaded text encoder; its config,
    heads and judge are built for real from --config."""
    from ragguard.evaluation.evaluator import Evaluator

    def shared(config=None):
        resolved = Config.coerce(config)
        evaluator = Evaluator(resolved, embedder=guard.models.embedder)
        return ragguard.Guard(resolved, evaluator=evaluator)

    monkeypatch.setattr(ragguard.evaluation.guard, "Guard", shared)


def test_a_judge_that_never_answers_is_reported_not_silent(tmp_path, traces, capsys, shared_models):
    import socket

    with socket.socket() as probe:  # a loopback port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "judge.toml"
    config.write_text(
        "[judge]\n"
        'backend = "openai"\n'
        f'base_url = "http://127.0.0.1:{port}/v1"\n'
        'api_key_env = "RAGGUARD_TEST_NO_KEY"\n'
        "band = [0.0, 1.0]\n"
        "retries = 0\n"
        "timeout_s = 2\n"
    )
    out = tmp_path / "out.jsonl"
    assert main(["evaluate", str(traces), "-c", str(config), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "ragguard: warning: the judge answered none of the 2 spans" in captured.err
    judge_line = next(line for line in captured.out.splitlines() if line.startswith("judge"))
    assert "0 judged / 2 skipped (unavailable 2)" in judge_line
    assert "judge's wait is in the judge line" in captured.out


def test_evaluate_resumes_and_refuses_an_output_another_config_wrote(
    tmp_path, traces, capsys, shared_models
):
    out = tmp_path / "out.jsonl"
    first = tmp_path / "first.jsonl"
    first.write_text(traces.read_text().splitlines()[0] + "\n")
    assert main(["evaluate", str(first), "-o", str(out)]) == 0
    assert main(["evaluate", str(traces), "-o", str(out), "--resume"]) == 0
    assert "resumed: skipped 1 traces already evaluated" in capsys.readouterr().out
    ids = [json.loads(line)["trace_id"] for line in out.read_text().splitlines()]
    assert ids == ["t1", "t2"]  # t1 kept, t2 appended, nothing twice

    strict = tmp_path / "strict.toml"
    strict.write_text("[support]\nthreshold = 0.9\n")
    before = out.read_bytes()
    assert main(["evaluate", str(traces), "-o", str(out), "--resume", "-c", str(strict)]) == 2
    err = capsys.readouterr().err
    assert "was written with another config" in err and "resuming would mix" in err
    assert out.read_bytes() == before


def test_replay_refuses_to_resume_an_output_another_config_wrote(tmp_path, capsys, shared_models):
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({**TRACE, "logged_at": "2026-01-01T00:00:00+00:00"}) + "\n")
    out = tmp_path / "replayed.jsonl"
    assert main(["replay", str(log), "-o", str(out)]) == 0
    strict = tmp_path / "strict.toml"
    strict.write_text("[support]\nthreshold = 0.9\n")
    capsys.readouterr()
    assert main(["replay", str(log), "-o", str(out), "-c", str(strict)]) == 2
    assert "was written with another config" in capsys.readouterr().err
    assert main(["replay", str(log), "-o", str(out)]) == 0  # the same config resumes
    assert "resumed: skipped 1 traces" in capsys.readouterr().out


def test_train_warns_about_few_or_one_sided_labels_before_training(tmp_path, capsys):
    from collections import Counter

    from ragguard.cli.train import eta_warning, label_warnings

    assert label_warnings(Counter({1: 300, 0: 300}), None) == []
    assert label_warnings(Counter({1: 5, 0: 5}), "DIR") == []  # the training sets join them
    few, one_sided = label_warnings(Counter({1: 230, 0: 10}), None)
    assert "only 230 pairs labelled 1 and 10 labelled 0" in few
    assert "one-sided (230 of 240 are 1)" in one_sided
    assert eta_warning(0.5) is None
    assert "0.968 is extreme" in eta_warning(0.968)
    assert "0.020 is extreme" in eta_warning(0.02)

    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"claim": "a", "evidence": "a", "label": 1}\n' * 3)
    main(["train", "support", "--labels", str(labels), "-o", str(tmp_path / "head.json")])
    err = capsys.readouterr().err
    assert "only 3 pairs labelled 1 and 0 labelled 0" in err and "one-sided" in err


def test_a_closed_stdout_stops_evaluate_quietly_as_unix_tools_do(tmp_path):
    """`ragguard evaluate traces.jsonl | head -n 1`: the first line, then exit 141 with
    nothing on stderr, not a Broken pipe error."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "ragguard.cli", "evaluate", "examples/traces.jsonl"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with subprocess.Popen(
        command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        first = process.stdout.readline()
        process.stdout.close()
        err = process.stderr.read().decode()
        assert process.wait(timeout=300) == 141
    assert json.loads(first)["trace_id"] == "factcheck-gpt-000"
    assert "Broken pipe" not in err and "error" not in err


def test_near_miss_keys_beside_valid_ones_are_reported_and_item_mistakes_named(tmp_path):
    """`item` or `label` next to `items` is reported once and the line evaluated; an item
    with `content` for `text`, or given as a string, is skipped with the fix named."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rows = [
        {**TRACE, "item": {"id": "x"}, "label": "ok"},
        {**TRACE, "trace_id": "t2", "items": [{"id": "d1", "content": "In Paris."}]},
        {**TRACE, "trace_id": "t3", "items": ["The Eiffel Tower is in Paris."]},
        {**TRACE, "trace_id": "t4", "itmes": TRACE["items"], "items": None},
    ]
    rows[3].pop("items")
    path = tmp_path / "traces.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = subprocess.run(
        [sys.executable, "-m", "ragguard.cli", "evaluate", str(path)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
    )
    assert done.returncode == 1
    assert [json.loads(line)["trace_id"] for line in done.stdout.splitlines()] == ["t1"]
    err = done.stderr
    assert "line 1: `item` is not a trace field and is not read; did you mean `items`?" in err
    assert "line 1: `label` is not a trace field and is not read; did you mean `labels`?" in err
    assert "line 2, trace 't2': items[0].content: is not an item field; did you mean `text`?" in err
    assert "line 3, trace 't3': items[0]: is a string; an item is an object" in err
    assert "line 4, trace 't4': itmes: is not a trace field; did you mean `items`?" in err
