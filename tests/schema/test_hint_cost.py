"""The did-you-mean hints of a trace line cost a bounded amount of work whatever its keys
(issue 45: a 3 MB key took 159 s on 394702e, 100,000 short keys 44.6 s)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragguard.errors import TraceValidationError
from ragguard.schema import Trace, fields

ROOT = Path(__file__).resolve().parents[2]
TRACE = {"trace_id": "a", "query": "Where?", "response": "In Paris.", "items": []}
CELLS = 250_000
"""Edit-distance cells one line may cost (the budget is 200,000: about 0.2 s)."""


@pytest.fixture
def cells(monkeypatch):
    """Counts the cells of every edit distance computed."""
    spent = [0]
    measured = fields.edit_distance

    def counting(a: str, b: str) -> int:
        spent[0] += (len(a) + 1) * (len(b) + 1)
        return measured(a, b)

    monkeypatch.setattr(fields, "edit_distance", counting)
    return spent


@pytest.mark.parametrize(
    "extra",
    [
        {"k" * 3_000_000: 1},
        {f"key{i}": i for i in range(100_000)},
        {"qeury": "Where?", **{f"key{i}": i for i in range(100_000)}},
    ],
    ids=["3 MB key", "100,000 keys", "100,000 keys and a missing field"],
)
def test_one_line_costs_a_bounded_number_of_cells(cells, extra):
    data = {**TRACE, **extra}
    if "qeury" in extra:
        del data["query"]
    with contextlib.suppress(TraceValidationError):
        Trace.parse(data)
    assert cells[0] <= CELLS


def test_a_near_miss_is_still_named(cells):
    with pytest.raises(TraceValidationError, match="did you mean `items`"):
        Trace.parse({**{k: v for k, v in TRACE.items() if k != "items"}, "itmes": []})


def test_the_command_reads_such_lines_in_seconds(tmp_path):
    path = tmp_path / "t.jsonl"
    many = {f"key{i}": i for i in range(100_000)}
    lines = [{**TRACE, "k" * 3_000_000: 1}, {**TRACE, "trace_id": "b", **many}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "ragguard.cli", "evaluate", str(path), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,  # 394702e: about 200 s on an idle machine
    )
    assert done.returncode == 0, done.stderr
