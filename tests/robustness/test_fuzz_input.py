"""Property-based fuzzing (hypothesis, a bounded number of examples) of the trace reader and
of ``ragguard evaluate`` on random bytes and random JSON: every line is either a trace or an
error with its line number, the command never raises, exits 0 or 1, and writes exactly the
valid traces."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragguard.evaluation.guard
from ragguard import Config, Guard, Trace, TraceValidationError
from ragguard.cli import EXIT_OK, EXIT_SKIPPED, main
from ragguard.evaluation.evaluator import Evaluator
from ragguard.runtime.jsonl import read_traces

FUZZ = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
words = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40)
traces = st.fixed_dictionaries(
    {
        "trace_id": words,
        "query": words,
        "items": st.lists(
            st.fixed_dictionaries({"id": words, "text": words, "metadata": json_values}),
            max_size=3,
        ),
        "response": st.text(max_size=80),
    },
    optional={"response_spans": st.lists(st.text(max_size=10), max_size=3)},
)
lines = st.lists(
    st.one_of(
        st.binary(max_size=60).map(lambda raw: raw.replace(b"\n", b" ")),
        json_values.map(lambda value: json.dumps(value).encode()),
        traces.map(lambda value: json.dumps(value).encode()),
    ),
    max_size=8,
)


def write(folder: Path, rows: list[bytes]) -> Path:
    path = folder / "traces.jsonl"
    path.write_bytes(b"".join(row + b"\n" for row in rows))
    return path


@FUZZ
@given(rows=lines)
def test_the_reader_gives_a_trace_or_a_numbered_error_per_line(rows):
    with tempfile.TemporaryDirectory() as folder:
        read = list(read_traces(write(Path(folder), rows)))
    expected = [n for n, row in enumerate(rows, start=1) if row.strip()]
    assert [n for n, _ in read] == expected
    for number, entry in read:
        assert isinstance(entry, Trace) or (
            isinstance(entry, TraceValidationError) and entry.line == number
        )


@contextlib.contextmanager
def sharing(guard: Guard) -> Any:
    """``main``'s Guard built with the session's loaded encoder (the rest built for real)."""

    def shared(config: object = None) -> Guard:
        resolved = Config.coerce(config)  # type: ignore[arg-type]
        return Guard(resolved, evaluator=Evaluator(resolved, embedder=guard.models.embedder))

    with mock.patch.object(ragguard.evaluation.guard, "Guard", shared):
        yield


@FUZZ
@given(rows=lines)
def test_evaluate_never_raises_and_writes_exactly_the_valid_traces(guard, rows, capsys):
    with tempfile.TemporaryDirectory() as folder, sharing(guard):
        traces_path = write(Path(folder), rows)
        out = Path(folder) / "out.jsonl"
        status = main(["evaluate", str(traces_path), "-o", str(out), "--batch-size", "4"])
        written = out.read_bytes().splitlines()  # JSONL lines end at b"\n" only (not U+0085)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    skipped = err.count("skipped line")
    assert status == (EXIT_SKIPPED if skipped else EXIT_OK)
    assert len(written) + skipped == sum(1 for row in rows if row.strip())
