"""Other evaluation tools' dataset exports read as traces: RAGAS and DeepEval, JSONL or CSV.

Their rows carry no trace id, so each gets one from its content (the same file gives the
same ids on every run, so two runs over it pair up in ``compare``); a row whose content
repeats an earlier one's also gets its line number. A reference answer becomes the trace's
``reference.answer``, which the reference metrics read (``ragguard benchmark``).
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragguard.errors import TraceValidationError
from ragguard.runtime.csvrows import read_csv
from ragguard.runtime.jsonl import DEFAULT_MAX_LINE_BYTES, as_trace, read_jsonl, read_traces
from ragguard.schema import Trace

Format = Literal["ragguard", "ragas", "deepeval"]
FORMATS: tuple[Format, ...] = ("ragguard", "ragas", "deepeval")


@dataclass(frozen=True)
class Columns:
    """Where one tool puts a trace's parts, and how its CSV export joins a list of passages."""

    query: str
    contexts: str
    response: str
    reference: str
    delimiter: str | None
    """A CSV cell not written as a list is split on this (None: the cell is one passage)."""


COLUMNS: dict[str, Columns] = {
    "ragas": Columns("user_input", "retrieved_contexts", "response", "reference", None),
    "deepeval": Columns("input", "retrieval_context", "actual_output", "expected_output", ";"),
}
"""RAGAS ``EvaluationDataset`` (SingleTurnSample) and DeepEval ``LLMTestCase`` field names;
DeepEval's CSV reader splits its context columns on ``;`` by default."""


def read_input(
    path: str | Path, form: Format = "ragguard", *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """A traces file in ragguard's format or in another tool's (``--format``)."""
    if form == "ragguard":
        return read_traces(path, max_line_bytes=max_line_bytes)
    return read_foreign(path, form, max_line_bytes=max_line_bytes)


def read_foreign(
    path: str | Path, form: Format, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """(line number, Trace or that row's error) per row of a RAGAS or DeepEval export:
    a ``.csv`` file (a header row, then one row per sample; ``runtime.csvrows``), else JSONL."""
    columns = COLUMNS[form]
    ids = _Ids(form)
    csv_cells = Path(path).suffix.lower() == ".csv"
    source = (read_csv if csv_cells else _read_jsonl)(path, max_line_bytes)
    for number, row in source:
        if isinstance(row, TraceValidationError):
            yield number, row
            continue
        try:
            data = to_trace_data(row, columns, csv_cell=csv_cells)
        except TraceValidationError as error:
            yield number, TraceValidationError(error.field, error.message, line=number)
            continue
        data["trace_id"] = ids.next(data, number)
        yield number, as_trace(data, number)


def to_trace_data(row: dict[str, Any], columns: Columns, *, csv_cell: bool) -> dict[str, Any]:
    """A row in ragguard's trace format (no ``trace_id`` yet). A row without the passages
    column has no context; an empty list says nothing was retrieved."""
    missing = [c for c in (columns.query, columns.response) if not row.get(c)]
    if missing:
        found = ", ".join(f"`{k}`" for k in row) or "none"
        raise TraceValidationError(
            missing[0], f"missing {' and '.join(missing)} (the row's columns: {found})"
        )
    data: dict[str, Any] = {"query": row[columns.query], "response": row[columns.response]}
    if columns.contexts in row and row[columns.contexts] is not None:
        passages = _passages(row[columns.contexts], columns, csv_cell)
        data["items"] = [{"id": f"c{i}", "text": text} for i, text in enumerate(passages, 1)]
    if row.get(columns.reference):
        data["reference"] = {"answer": row[columns.reference]}
    return data


def _passages(value: Any, columns: Columns, csv_cell: bool) -> list[str]:
    if csv_cell and isinstance(value, str):
        value = _cell_list(value, columns)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TraceValidationError(columns.contexts, "must be a list of strings")
    return [v for v in value if v.strip()]


def _cell_list(cell: str, columns: Columns) -> list[str] | str:
    """A CSV cell holding a list: JSON, or the Python literal pandas writes for a list
    column (``['a', 'b']``); else the cell split on the tool's delimiter."""
    text = cell.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            return json.loads(text)
        except RecursionError:
            raise TraceValidationError(columns.contexts, "a list nested too deeply") from None
        except ValueError:
            pass
        try:
            literal = ast.literal_eval(text)  # literals only: never runs code
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            literal = None
        if isinstance(literal, list):
            return literal
    if not text:
        return []
    return cell.split(columns.delimiter) if columns.delimiter else cell


def _read_jsonl(
    path: str | Path, max_line_bytes: int
) -> Iterator[tuple[int, dict[str, Any] | TraceValidationError]]:
    return read_jsonl(path, max_line_bytes=max_line_bytes)


class _Ids:
    """Deterministic trace ids: a hash of the row's content; the line number is added where
    that content was seen before in the file."""

    def __init__(self, form: str) -> None:
        self.form = form
        self.seen: set[int] = set()  # the digests as ints: a 1M-row file holds 1M of them

    def next(self, data: dict[str, Any], line: int) -> str:
        content = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
        digest = hashlib.sha256(content).hexdigest()[:16]
        key = int(digest, 16)
        if key in self.seen:
            return f"{self.form}-{digest}-line{line}"
        self.seen.add(key)
        return f"{self.form}-{digest}"
