"""A local judge model that cannot load: the command fails (exit 2) as for a lite model, the
error names the cause, and a failed load is tried again after a backoff."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from ragguard import Config
from ragguard.config import JudgeConfig
from ragguard.errors import ModelLoadError
from ragguard.judge import gguf, local
from tests.support.judge_fixtures import judged_guard
from tests.support.llama_server import gguf_path
from tests.support.serve_clients import get, metrics_text, running_app, sample, wait_for

REPO = Path(__file__).resolve().parents[2]
ROW = {
    "trace_id": "t1",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is in Paris, France."}],
    "response": "The Eiffel Tower is in Paris [1].",
}


def _evaluate(tmp_path: Path, model: Path) -> subprocess.CompletedProcess[str]:
    traces, out, config = tmp_path / "t.jsonl", tmp_path / "out.jsonl", tmp_path / "c.toml"
    traces.write_text(json.dumps(ROW) + "\n")
    config.write_text(f'[judge]\nbackend = "local"\nmodel = "{model}"\nthreads = 1\n')
    command = [sys.executable, "-m", "ragguard.cli", "evaluate", str(traces), "-c", str(config)]
    command += ["-o", str(out), "--fail-over", "hallucination_rate=0.5"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert not out.exists()
    return done


def test_evaluate_exits_2_when_the_judge_model_is_missing(tmp_path):
    done = _evaluate(tmp_path, tmp_path / "missing.gguf")
    assert done.returncode == 2, done.stderr
    assert "judge" in done.stderr


def test_evaluate_exits_2_when_the_judge_model_is_not_a_gguf(tmp_path):
    pytest.importorskip("xllamacpp")
    fake = tmp_path / "fake.gguf"
    fake.write_bytes(b"PK\x03\x04 not a model" * 100)
    done = _evaluate(tmp_path, fake)
    assert done.returncode == 2, done.stderr
    assert "not a GGUF file" in done.stderr


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ModelLoadError, match="no GGUF file at"):
        gguf.check_model(tmp_path / "missing.gguf")


def test_a_file_without_the_magic_bytes_is_not_a_gguf(tmp_path):
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"\x00" * 4096)
    with pytest.raises(ModelLoadError, match="not a GGUF file"):
        gguf.check_model(fake)


@pytest.mark.parametrize("keep", [24, 200_000, -1000])
def test_a_truncated_gguf_is_named(tmp_path, keep):
    """Cut in the fixed header, in the metadata, and in the tensor data."""
    data = gguf_path().read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[:keep])
    with pytest.raises(ModelLoadError, match="truncated"):
        gguf.check_model(cut)


def test_the_whole_test_model_checks_and_lists_its_control_tokens():
    header = gguf.check_model(gguf_path())
    assert header.data_end == header.size
    tokens = gguf.special_tokens(header)
    assert {"<|im_start|>", "<|im_end|>", "<|endoftext|>"} <= set(tokens)


def test_a_taken_port_is_named(tmp_path):
    pytest.importorskip("xllamacpp")
    config = JudgeConfig(backend="local", model=str(gguf_path()), threads=1, n_ctx=512)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(ModelLoadError, match=f"port {port} taken"):
            local._start(config, port=port)


def test_a_failed_load_is_tried_again_after_a_backoff(tmp_path):
    pytest.importorskip("xllamacpp")
    model = tmp_path / "later.gguf"
    config = JudgeConfig(backend="local", model=str(model), threads=1)
    now = [0.0]
    for _ in range(2):  # within the backoff: the same error, no new attempt
        with pytest.raises(ModelLoadError, match="no GGUF file"):
            local.server(config, clock=lambda: now[0])
    assert local.load_attempts(config) == 1
    now[0] = 1.5  # past the first 1 s: tried again, and the next wait doubles
    with pytest.raises(ModelLoadError):
        local.server(config, clock=lambda: now[0])
    assert local.load_attempts(config) == 2
    failure = local._servers[(config.model, config.threads, config.n_ctx)]
    assert isinstance(failure, local.LoadFailure) and failure.retry_at == pytest.approx(3.5)


def test_serve_retries_a_judge_model_that_failed_to_load(tmp_path, guard):
    """The model's file appears after ``serve`` started: it becomes ready, no restart."""
    pytest.importorskip("xllamacpp")
    model = tmp_path / "copied-later.gguf"
    judge = {"backend": "local", "model": str(model), "threads": 1, "n_ctx": 512}
    with running_app(tmp_path, judged_guard(guard, Config(judge=judge))) as app:
        ready = f"http://127.0.0.1:{app.ports['metrics']}/readyz"
        wait_for(lambda: app.load_failures >= 1, 120)
        assert get(ready)[0] == 503
        failures = sample(metrics_text(app), "ragguard_serve_model_load_failures_total")
        assert failures >= 1
        model.symlink_to(gguf_path())
        wait_for(lambda: get(ready)[0] == 200, 300)
    assert app.load_failures >= 1
