"""The README's code runs as written, so an example can never rot: every Python block in
order, in one fresh interpreter (as a reader pastes them into one session), and every TOML
block parsed as a config file."""

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ragguard.config import Config
from ragguard.train.datasets import read_labels

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(language):
    """(line number, code) of every ``language`` block of the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 2, match.group(2))
        for match in FENCE.finditer(text)
        if match.group(1) == language
    ]


RUNNER = textwrap.dedent(
    """
    import json, sys
    namespace = {"__name__": "__main__"}
    for line, code in json.load(sys.stdin):
        # padded so that a traceback names the README's own line numbers
        exec(compile("\\n" * (line - 1) + code, "README.md", "exec"), namespace)
    """
)


def test_every_python_block_runs_in_order():
    code = blocks("python")
    assert len(code) >= 8
    offline = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    run = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(code),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **offline, "PYTHONPATH": str(ROOT)},  # this checkout's ragguard
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]


TOML = blocks("toml")


@pytest.mark.parametrize("toml", [code for _, code in TOML], ids=[f"line {n}" for n, _ in TOML])
def test_every_toml_block_is_a_config_file(tmp_path, toml):
    path = tmp_path / "ragguard.toml"
    path.write_text(toml)
    assert Config.from_file(path) != Config()  # valid, and each block sets something


def test_the_labels_example_is_what_train_reads(tmp_path):
    (example,) = [code for _, code in blocks("json") if '"claim"' in code and '"label"' in code]
    path = tmp_path / "my_labels.jsonl"
    path.write_text(example)
    assert [pair.label for pair in read_labels(path, "support")] == [1, 0]
