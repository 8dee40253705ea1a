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

    monkeypatch.setattr(ragguard.guard, "Guard", guard)


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
    monkeypatch.setattr(ragguard.guard, "Guard", lambda config=None: guard)
    assert main(["evaluate", str(traces)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert [json.loads(line)["trace_id"] for line in lines] == ["t1", "t2"]
    assert "ragguard evaluation summary" in captured.err
