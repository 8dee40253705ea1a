"""Which column of another tool's export holds which part of a trace (``data/formats.toml``),
and the hints that speak the user's column names: the nearest accepted name for a missing
or misspelt column, each unknown column once per file, and ragguard's own errors retold
with the column the value came from."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from ragguard.errors import TraceValidationError
from ragguard.runtime.caches import memoized
from ragguard.schema import near_field

Part = Literal["query", "contexts", "response", "reference"]
PARTS: tuple[Part, ...] = ("query", "contexts", "response", "reference")
FIELD_OF: dict[Part, str] = {
    "query": "query",
    "contexts": "items",
    "response": "response",
    "reference": "reference",
}
"""The ``Trace`` field each part fills (pydantic's errors name these)."""


@dataclass(frozen=True)
class Columns:
    """One tool's column names for each part (its current name first), the columns it
    writes that ragguard does not need, and how its CSV export joins a list of passages."""

    names: Mapping[Part, tuple[str, ...]]
    ignored: tuple[str, ...]
    delimiter: str | None
    """A CSV cell not written as a list is split on this (None: the cell is one passage)."""

    def accepted(self) -> list[str]:
        return [name for part in PARTS for name in self.names[part]]


@memoized(entries=1)
def formats() -> dict[str, Columns]:
    """The foreign formats, by ``--format`` name, from ``data/formats.toml``."""
    text = resources.files("ragguard.runtime").joinpath("data", "formats.toml").read_text()
    table = tomllib.loads(text)
    return {
        name: Columns(
            names={part: tuple(spec[part]) for part in PARTS},
            ignored=tuple(spec["ignored"]),
            delimiter=spec["delimiter"] or None,
        )
        for name, spec in table.items()
    }


def lookup(row: Mapping[str, Any], name: str) -> tuple[bool, Any]:
    """(found, value) of column ``name``: a key of the row (a CSV header may be dotted), else
    a dotted path into object columns (``inputs.question``)."""
    if name in row:
        return True, row[name]
    value: Any = row
    for key in name.split("."):
        if not isinstance(value, Mapping) or key not in value:
            return False, None
        value = value[key]
    return True, value


def find(row: Mapping[str, Any], columns: Columns, part: Part) -> tuple[str, Any] | None:
    """The first of ``part``'s accepted columns the row has, with its value."""
    for name in columns.names[part]:
        found, value = lookup(row, name)
        if found:
            return name, value
    return None


def row_keys(row: Mapping[str, Any]) -> list[str]:
    """The row's column names, object columns' keys as dotted names (``inputs.question``)."""
    keys: list[str] = []
    for key, value in row.items():
        if isinstance(value, Mapping) and value and all(isinstance(k, str) for k in value):
            keys += [f"{key}.{inner}" for inner in value]
        else:
            keys.append(str(key))
    return keys


def missing_column(form: str, part: Part, columns: Columns, row: Mapping[str, Any]) -> str:
    """Why a required part is missing, in the user's words: the accepted names, and the
    row's nearest column when one is close."""
    names = columns.names[part]
    accepted = " or ".join(f"`{n}`" for n in names)
    keys = [k for k in row_keys(row) if k not in columns.accepted()]
    close = next((k for k in keys if near_field(k, names) is not None), None)
    if close is not None:
        meant = near_field(close, names)
        return f"no {accepted} column; the row has `{close}`: did you mean `{meant}`?"
    found = ", ".join(f"`{k}`" for k in row_keys(row)) or "none"
    return f"no {accepted} column ({form}'s {part}; the row's columns: {found})"


def unknown_columns(row: Mapping[str, Any], columns: Columns) -> list[str]:
    """A line per column the format does not read, with the accepted name it is nearest."""
    accepted = columns.accepted()
    known = {*accepted, *columns.ignored}
    tops = {name.split(".")[0] for name in known}
    lines = []
    for key in row_keys(row):
        if key in known or (key in tops and "." not in key):
            continue
        if "." in key and key.split(".")[0] not in tops:
            key = key.split(".")[0]
            if key in known or key in tops:
                continue
        close = near_field(key, accepted)
        hint = f"; did you mean `{close}`?" if close else ""
        lines.append(f"column `{key}` is not read{hint}")
    return list(dict.fromkeys(lines))


_REPORTED: set[tuple[str, str]] = set()
"""The warnings already shown: a file is read more than once a run (gates, the run)."""


def report_once(where: str, lines: Iterable[str]) -> None:
    """Each line on stderr, once per file and process."""
    for line in lines:
        if (where, line) not in _REPORTED:
            _REPORTED.add((where, line))
            print(f"ragguard: warning: {where}: {line}", file=sys.stderr)


def in_user_words(error: TraceValidationError, used: Mapping[Part, str]) -> TraceValidationError:
    """``error`` (naming ragguard's fields) retold with the user's column it came from."""
    for part, column in used.items():
        field = FIELD_OF[part]
        if error.field == field or error.field.startswith((f"{field}[", f"{field}.")):
            rest = error.field[len(field) :]
            if part == "contexts" and rest.startswith("["):
                rest = rest.split("]")[0] + "]"
            message = f"{error.message} (read as ragguard's `{error.field}`)"
            return TraceValidationError(column + rest, message, line=error.line)
    return error
