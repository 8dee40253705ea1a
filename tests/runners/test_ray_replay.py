"""``--runner ray`` on a real local Ray instance (2 CPUs): a replay gives, trace for trace,
the single-process evaluations, resumes past ids already written, and a killed actor's batch
is retried, not lost."""

import json
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest
import ray

from ragguard.cli import main
from tests.support.parallel_fixtures import read_jsonl, same_evaluations

FACTS = [
    ("Paris", "Paris is the capital of France.", "France"),
    ("Berlin", "Berlin is the capital of Germany.", "Germany"),
    ("Rome", "Rome is the capital of Italy.", "Italy"),
    ("Madrid", "Madrid is the capital of Spain.", "Spain"),
    ("Lisbon", "Lisbon is the capital of Portugal.", "Portugal"),
    ("Vienna", "Vienna is the capital of Austria.", "Austria"),
]
TRACES = 240


def _record(n: int) -> dict:
    city, fact, country = FACTS[n % len(FACTS)]
    _, other, _ = FACTS[(n * 5 + 1) % len(FACTS)]
    wrong = FACTS[(n + 2) % len(FACTS)][2]
    claim = country if n % 3 else wrong
    return {
        "trace_id": f"r{n}",
        "query": f"Which country is {city} the capital of?",
        "items": [{"id": "a", "text": fact}, {"id": "b", "text": other}],
        "response": f"{city} is the capital of {claim} [1].",
        "logged_at": f"2026-01-01T{n % 24:02d}:00:00+00:00",
    }


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("ray") / "live.jsonl"
    path.write_text("".join(json.dumps(_record(n)) + "\n" for n in range(TRACES)))
    return path


@pytest.fixture(scope="module")
def local(log) -> list[dict]:
    """The single-process replay: what Ray must reproduce."""
    out = log.with_name("local.jsonl")
    assert main(["replay", str(log), "--out", str(out), "--batch-size", "20"]) == 0
    return read_jsonl(out)


@pytest.fixture(scope="module")
def cluster():
    from ragguard.runners.ray import runtime_env

    ray.init(num_cpus=2, runtime_env=runtime_env(), include_dashboard=False)
    yield
    ray.shutdown()


def _ray_replay(log: Path, out: Path, *extra: str) -> int:
    args = ["replay", str(log), "--out", str(out), "--runner", "ray", "--workers", "2"]
    return main([*args, "--batch-size", "20", *extra])


def test_ray_replay_matches_one_process_and_resumes(log, local, cluster, tmp_path, capsys):
    out, report = tmp_path / "ray.jsonl", tmp_path / "report.html"
    done = 100  # an earlier run got this far: those ids are skipped, the rest replayed
    out.write_text("".join(json.dumps(e) + "\n" for e in local[:done]))
    capsys.readouterr()
    assert _ray_replay(log, out, "--report", str(report)) == 0
    same_evaluations(read_jsonl(out), local)
    printed = capsys.readouterr().out
    assert re.search(rf"traces evaluated +{TRACES - done}\n", printed)
    assert f"resumed: skipped {done} traces" in printed
    assert "2 Ray actors" in printed and "traces/s" in printed
    assert "ragguard replay report" in report.read_text()


def _actor_pids() -> list[int]:
    """Processes of this machine running the evaluation actors (named by Ray's proctitle)."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if b"EvaluateActor" in command:
            pids.append(int(entry.name))
    return pids


def test_a_killed_actors_batch_is_retried_not_lost(log, local, cluster, tmp_path):
    out = tmp_path / "ray.jsonl"
    result: list[int] = []
    # batches of 2: many batches are still to come when the first result is written
    run = threading.Thread(target=lambda: result.append(_ray_replay(log, out, "--batch-size", "2")))
    run.start()
    deadline = time.monotonic() + 300
    while not (out.exists() and out.read_text()) and time.monotonic() < deadline:
        time.sleep(0.005)  # the whole run can take well under a second
    written = len(out.read_text().splitlines())
    pids = _actor_pids()
    assert pids and written < TRACES, "no actor left to kill mid-run"
    os.kill(pids[0], signal.SIGKILL)
    run.join(timeout=600)
    assert result == [0]
    same_evaluations(read_jsonl(out), local)


def test_the_actors_share_one_judge_budget(cluster, tmp_path):
    """Each of N actors spends 1/N of ``max_tokens_per_day``, as ``--workers`` processes do:
    together they make no more calls than one process with the whole budget."""
    from benchmarks.accuracy_judge import standin_judge

    log = tmp_path / "distinct.jsonl"  # a claim of its own per trace: no cached verdicts
    records = [_record(n) | {"response": f"Paris was founded in {300 + n}."} for n in range(80)]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    with standin_judge({"Paris": True}, flip=0.0) as server:  # every question counted
        config = tmp_path / "ragguard.toml"
        config.write_text(
            "[judge]\n"
            f'backend = "openai"\nbase_url = "{server.base_url}"\nmodel = "standin"\n'
            'api_key_env = "RAGGUARD_TEST_NO_KEY"\nband = [0.0, 1.0]\n'
            "max_tokens_per_day = 8000\n"  # about 700 counted tokens a call: about 11 calls
        )
        one = ["replay", str(log), "--out", str(tmp_path / "one.jsonl"), "--config", str(config)]
        assert main([*one, "--batch-size", "20"]) == 0
        alone = len(server.judge.calls)
        server.judge.calls.clear()
        assert _ray_replay(log, tmp_path / "ray.jsonl", "--config", str(config)) == 0
        together = len(server.judge.calls)
    assert 4 <= alone < 80  # the budget allows several calls and stops them well before all
    assert 0 < together <= alone


def test_without_ray_the_flag_names_the_extra(log, monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "ray", None)
    monkeypatch.delitem(__import__("sys").modules, "ragguard.runners.ray", raising=False)
    # the package keeps a lazily exported name once asked for: forget it too
    monkeypatch.delattr(__import__("ragguard.runners").runners, "RayRun", raising=False)
    assert main(["replay", str(log), "--runner", "ray"]) == 2
    assert "pip install 'ragguard-eval[ray]'" in capsys.readouterr().err
