"""The CLI's failure behaviour: output files get the mode ``open()`` would give, SIGTERM
cleans up like Ctrl-C, and ``replay`` exits 1 after skipping lines (``limits.max_line_bytes``
included), as ``evaluate`` does."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragguard.cli import main
from ragguard.cli._common import Terminated, sigterm_raises
from ragguard.exporters.base import Finished
from ragguard.exporters.tracelog import TraceLog
from ragguard.runtime.jsonl import as_trace
from tests.cli.test_evaluate import write_traces

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_a_new_output_file_follows_the_umask(tmp_path, guard, umask_022):
    traces, out = tmp_path / "t.jsonl", tmp_path / "out.jsonl"
    write_traces(traces)
    main(["evaluate", str(traces), "-o", str(out)])
    assert out.stat().st_mode & 0o777 == 0o644


def test_an_existing_output_file_keeps_its_mode(tmp_path, guard, umask_022):
    traces, out = tmp_path / "t.jsonl", tmp_path / "out.jsonl"
    write_traces(traces)
    out.write_text("old\n")
    os.chmod(out, 0o640)
    main(["evaluate", str(traces), "-o", str(out)])
    assert out.stat().st_mode & 0o777 == 0o640 and "ok-1" in out.read_text()


def test_sigterm_removes_the_temporary_output_and_leaves_the_old_file(tmp_path):
    traces, out = tmp_path / "t.jsonl", tmp_path / "out.jsonl"
    row = {
        "query": "Where is the Eiffel Tower?",
        "items": [{"id": "d1", "text": "The Eiffel Tower is in Paris, France."}],
        "response": "The Eiffel Tower is in Paris [1]. It opened in 1889.",
    }
    traces.write_text("".join(json.dumps({**row, "trace_id": f"t{n}"}) + "\n" for n in range(5000)))
    out.write_text("the previous results\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "ragguard.cli", "evaluate", str(traces), "-o", str(out)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob(".out.jsonl.*.tmp")):
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(1.0)  # evaluating now
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 143 and b"terminated" in err
    assert not list(tmp_path.glob("*.tmp")) and out.read_text() == "the previous results\n"


def test_sigterm_wrapped_by_a_library_still_terminates():
    """A library that runs our Python code (pydantic's serializer) may turn the
    ``Terminated`` raised there into an error of its own: the run still ends as terminated,
    not as an error (exit 143, not 2)."""

    def serialize():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises here
        except BaseException as error:
            raise ValueError(f"Error serializing to JSON: {error!r}") from None

    with pytest.raises(Terminated), sigterm_raises():
        serialize()


def test_an_error_without_sigterm_stays_an_error():
    with pytest.raises(ValueError), sigterm_raises():
        raise ValueError("bad input")


def _log(path, guard, extra_lines=()):
    log = TraceLog(path, fsync="never")
    traces = [as_trace({**t, "trace_id": f"r{n}"}, n) for n, t in enumerate(_rows())]
    for trace, evaluation in zip(traces, guard.evaluate_many(traces), strict=True):
        log.export([Finished(trace, evaluation)])
    log.shutdown()
    with path.open("a") as handle:
        handle.writelines(extra_lines)


def _rows():
    text = "The Eiffel Tower is in Paris, France."
    return [
        {"query": "Where?", "items": [{"id": "d1", "text": text}], "response": "In Paris [1]."}
    ] * 2


def test_replay_exits_1_after_skipping_a_bad_line(tmp_path, guard, capsys):
    log, out = tmp_path / "live.jsonl", tmp_path / "out.jsonl"
    _log(log, guard, ['{"trace_id": "broken", \n'])
    assert main(["replay", str(log), "-o", str(out)]) == 1
    assert "live.jsonl line 3" in capsys.readouterr().err
    assert len(out.read_text().splitlines()) == 2


def test_replay_applies_max_line_bytes_to_logs(tmp_path, guard, capsys):
    log, out, config = tmp_path / "live.jsonl", tmp_path / "out.jsonl", tmp_path / "c.toml"
    _log(log, guard)
    config.write_text("[limits]\nmax_line_bytes = 500\n")  # each logged record is longer
    assert main(["replay", str(log), "-o", str(out), "-c", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.count("longer than limits.max_line_bytes = 500") == 2
