"""Other evaluation tools' dataset exports read as traces: RAGAS, DeepEval, Phoenix and
LangSmith, JSONL or CSV (the columns: ``columns.py``).

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
from pathlib import Path
from typing import Any, Literal

from ragguard.errors import RagguardError, TraceValidationError
from ragguard.runtime.columns import (
    PARTS,
    Columns,
    Part,
    find,
    formats,
    in_user_words,
    missing_column,
    report_once,
    unknown_columns,
)
from ragguard.runtime.csvrows import read_csv
from ragguard.runtime.jsonl import DEFAULT_MAX_LINE_BYTES, as_trace, read_jsonl, read_traces
from ragguard.schema import Trace, stray_keys

Format = Literal["ragguard", "ragas", "deepeval", "phoenix", "langsmith"]
FORMATS: tuple[Format, ...] = ("ragguard", "ragas", "deepeval", "phoenix", "langsmith")


def read_input(
    path: str | Path, form: Format = "ragguard", *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """A traces file in ragguard's format or in another tool's (``--format``)."""
    if form == "ragguard":
        hint = format_hint(path)
        if hint is not None:
            raise RagguardError(hint)
        return _reported(path, read_traces(path, max_line_bytes=max_line_bytes))
    return read_foreign(path, form, max_line_bytes=max_line_bytes)


def format_hint(path: str | Path) -> str | None:
    """Why a file given without ``--format`` is not ragguard's JSONL, naming the flag: a
    ``.csv`` or ``.parquet`` file, or a ``.json`` file holding one array (None: read it)."""
    path = Path(path)
    suffix = path.suffix.lower()
    flag = f"pass --format {'|'.join(FORMATS[1:])} for another tool's export (docs/formats.md)"
    if suffix == ".csv":
        return f"{path} is a CSV file, and ragguard's own format is JSONL: {flag}"
    if suffix == ".parquet":
        return (
            f"{path} is a Parquet file, which ragguard does not read: write it as JSONL "
            f"(pandas: df.to_json('data.jsonl', orient='records', lines=True)), then {flag}"
        )
    if suffix == ".json" and path.is_file():
        with path.open("rb") as handle:
            start = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
        if start.startswith(b"["):
            return (
                f"{path} holds one JSON array, and ragguard reads JSONL (one trace per line; "
                f"jq -c '.[]' converts it); {flag}, which reads an array too"
            )
    return None


def _reported(
    path: str | Path, lines: Iterator[tuple[int, Trace | TraceValidationError]]
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """ragguard's own traces, each near-miss key beside a valid one (``item`` next to
    ``items``) reported once per file: kept, not a reason to skip the line."""
    for number, entry in lines:
        if isinstance(entry, Trace) and entry.model_extra:
            given = {**dict.fromkeys(entry.model_fields_set), **entry.model_extra}
            found = stray_keys(given, Trace.model_fields)
            report_once(str(path), (f"line {number}: `{k}` {m}" for k, m in found))
        yield number, entry


def read_foreign(
    path: str | Path, form: Format, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, Trace | TraceValidationError]]:
    """(line number, Trace or that row's error) per row of another tool's export: a
    ``.csv`` file (a header row, then one row per sample; ``runtime.csvrows``), else a
    ``.json`` array or JSONL. Columns the format does not read are reported once per file,
    with the accepted name they are nearest."""
    columns = formats()[form]
    ids = _Ids(form)
    csv_cells = Path(path).suffix.lower() == ".csv"
    array = None if csv_cells else _json_array(Path(path))
    source = (
        read_csv(path, max_line_bytes)
        if csv_cells
        else array
        if array is not None
        else read_jsonl(path, max_line_bytes=max_line_bytes)
    )
    for number, row in source:
        if isinstance(row, TraceValidationError):
            yield number, row
            continue
        report_once(f"{path} ({form})", unknown_columns(row, columns))
        used: dict[Part, str] = {}
        try:
            data = to_trace_data(row, columns, csv_cell=csv_cells, form=form, used=used)
        except TraceValidationError as error:
            yield number, TraceValidationError(error.field, error.message, line=number)
            continue
        data["trace_id"] = ids.next(data, number)
        trace = as_trace(data, number)
        yield (
            number,
            in_user_words(trace, used) if isinstance(trace, TraceValidationError) else trace,
        )


def to_trace_data(
    row: dict[str, Any],
    columns: Columns,
    *,
    csv_cell: bool,
    form: str = "",
    used: dict[Part, str] | None = None,
) -> dict[str, Any]:
    """A row in ragguard's trace format (no ``trace_id`` yet); ``used`` gets the user's
    column for each part. A row without the passages column has no context; an empty list
    says nothing was retrieved."""
    used = {} if used is None else used
    found = {part: find(row, columns, part) for part in PARTS}
    for part in ("query", "response"):
        hit = found[part]
        if hit is None or hit[1] in (None, ""):
            name = hit[0] if hit else columns.names[part][0]
            message = "is empty" if hit else missing_column(form, part, columns, row)
            raise TraceValidationError(name, message)
    for part, hit in found.items():
        if hit is not None:
            used[part] = hit[0]
    query, response = found["query"], found["response"]
    assert query is not None and response is not None
    data: dict[str, Any] = {"query": query[1], "response": response[1]}
    contexts = found["contexts"]
    if contexts is not None and contexts[1] is not None:
        passages = _passages(contexts[1], contexts[0], columns, csv_cell)
        data["items"] = [{"id": f"c{i}", "text": text} for i, text in enumerate(passages, 1)]
    reference = found["reference"]
    if reference is not None and reference[1]:
        answer = reference[1]
        if isinstance(answer, str) and csv_cell and answer.lstrip().startswith("["):
            answer = _cell_list(answer, reference[0], None)
        if isinstance(answer, list):  # RAGAS < 0.2 ``ground_truths``: a list, the first counts
            answer = next((a for a in answer if isinstance(a, str) and a.strip()), None)
        if answer:
            data["reference"] = {"answer": answer}
    return data


def _passages(value: Any, column: str, columns: Columns, csv_cell: bool) -> list[str]:
    if csv_cell and isinstance(value, str):
        value = _cell_list(value, column, columns.delimiter)
        if isinstance(value, str) and value.lstrip().startswith(("['", '["')):
            raise TraceValidationError(column, "looks like a list but is not a readable one")
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list):  # LangChain documents: their text is ``page_content``
        value = [v.get("page_content", v) if isinstance(v, dict) else v for v in value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TraceValidationError(column, "must be a list of strings")
    return [v for v in value if v.strip()]


def _cell_list(cell: str, column: str, delimiter: str | None) -> list[str] | str:
    """A CSV cell holding a list: JSON, or the Python literal pandas writes for a list
    column (``['a', 'b']``); else the cell split on the tool's delimiter."""
    text = cell.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            return json.loads(text)
        except RecursionError:
            raise TraceValidationError(column, "a list nested too deeply") from None
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
    return cell.split(delimiter) if delimiter else cell


def _json_array(path: Path) -> Iterator[tuple[int, Any]] | None:
    """The rows of a ``.json`` file that holds one array (DeepEval's ``save_as("json")``),
    numbered from 1; None for any other file (read as JSONL)."""
    if path.suffix.lower() != ".json" or format_hint(path) is None:
        return None
    try:
        rows = json.loads(path.read_text(encoding="utf-8-sig"))
    except (ValueError, RecursionError) as error:
        return iter([(1, TraceValidationError("<json>", f"not valid JSON: {error}", line=1))])
    return (
        (
            n,
            row
            if isinstance(row, dict)
            else TraceValidationError("<json>", "not an object", line=n),
        )
        for n, row in enumerate(rows, 1)
    )


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
