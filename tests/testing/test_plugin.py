"""The pytest plugin, in real pytest runs (subprocesses): loaded, it costs a run that does
not use it nothing (no evaluator imported, the cache settings never read); used, its fixture
and ``--ragguard-report`` work. The entry point that loads it is declared in pyproject."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES_DUMP = """
import sys
from pathlib import Path

def pytest_sessionfinish(session):
    Path("modules.txt").write_text("\\n".join(sorted(sys.modules)))
"""


def pytest_run(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest in ``folder`` with this checkout's plugin, and no other plugin auto-loaded
    (an installed ragguard's entry point would register the same module twice)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "HF_HUB_OFFLINE": "1",
        **env,
    }
    command = [sys.executable, "-m", "pytest", "-p", "ragguard.testing.plugin", "-q", *args]
    return subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_a_run_that_does_not_use_it_imports_no_evaluator_and_reads_no_cache_setting(tmp_path):
    (tmp_path / "conftest.py").write_text(MODULES_DUMP)
    (tmp_path / "test_plain.py").write_text("def test_arithmetic():\n    assert 1 + 1 == 2\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    done = pytest_run(tmp_path, "--help")
    assert "--ragguard-report" in done.stdout  # the plugin is loaded ...
    done = pytest_run(tmp_path, RAGGUARD_CACHE_MAX_BYTES="not a number")  # read, it raises
    assert done.returncode == 0, done.stdout + done.stderr
    modules = set((tmp_path / "modules.txt").read_text().split())
    assert "ragguard.testing.plugin" in modules  # ... and costs nothing
    heavy = {"ragguard.runtime.caches", "ragguard.evaluation.evaluator", "ragguard.config"}
    assert not heavy & modules
    assert not {m for m in modules if m.split(".")[0] in {"onnxruntime", "torch", "numpy"}}


def test_a_run_that_uses_it_shares_one_guard_and_reports_every_assertion(tmp_path):
    (tmp_path / "test_answers.py").write_text(
        """
import pytest
from ragguard.testing import assert_relevant, assert_supported, session_guard

HEIGHT = "The Eiffel Tower is 330 metres tall."

def test_supported(ragguard_guard):
    assert ragguard_guard is session_guard()  # the assertions' guard: models load once
    assert_supported("The Eiffel Tower is 330 metres tall.", [HEIGHT], query="How tall?")

def test_relevant():
    assert_relevant("The Eiffel Tower is 330 metres tall.", query="How tall is the tower?")

def test_wrong_height():
    assert_supported("The Eiffel Tower is 500 metres tall.", [HEIGHT], query="How tall?")
"""
    )
    report = tmp_path / "ragguard.jsonl"
    done = pytest_run(tmp_path, "--ragguard-report", str(report))
    assert done.returncode == 1, done.stdout + done.stderr  # the wrong height fails
    assert "1 failed, 2 passed" in done.stdout
    assert "number: '500' vs '330' in c1" in done.stdout  # the reason, in pytest's report
    assert "_settle" not in done.stdout and "ragguard/testing/asserts.py" not in done.stdout
    assert 'assert_supported("The Eiffel Tower is 500' in done.stdout  # the user's own line
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(r["test"], r["assertion"], r["passed"]) for r in records] == [
        ("test_answers.py::test_supported", "assert_supported", True),
        ("test_answers.py::test_relevant", "assert_relevant", True),
        ("test_answers.py::test_wrong_height", "assert_supported", False),
    ]
    assert records[2]["evaluation"]["spans"][0]["reasons"][0]["check"] == "number"


def test_the_entry_point_names_the_plugin_module():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["pytest11"] == {"ragguard": "ragguard.testing.plugin"}
    assert "junitparser" in " ".join(project["project"]["optional-dependencies"]["dev"])


def test_parallel_workers_write_one_whole_line_per_assertion(tmp_path):
    """``pytest -n 2 --ragguard-report``: on 394702e each worker opened the file with "w"
    (6 valid and 6 corrupt lines for 40 assertions)."""
    (tmp_path / "test_many.py").write_text(
        """
import pytest
from ragguard.testing import assert_supported

HEIGHT = "The Eiffel Tower is 330 metres tall. " + "It stands in Paris. " * 300

@pytest.mark.parametrize("n", range(40))
def test_height(n):
    assert_supported("The Eiffel Tower is 330 metres tall.", HEIGHT, query=f"How tall? {n}")
"""
    )
    report = tmp_path / "ragguard.jsonl"
    report.write_text("a stale line from an earlier run\n")
    done = pytest_run(tmp_path, "-p", "xdist.plugin", "-n", "2", "--ragguard-report", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert sorted(r["test"] for r in records) == sorted(
        f"test_many.py::test_height[{n}]" for n in range(40)
    )
    assert all(r["passed"] and len(r["evaluation"]["items"]) == 1 for r in records)
