"""Reading a language data file's tables: words lower-cased in composed form, numbers by
word, and whole tables into a dataclass whose fields name the entries it may hold."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping
from dataclasses import MISSING, Field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Shape = TypeVar("Shape", bound="DataclassInstance")


def words(value: Any) -> tuple[str, ...]:
    """A list, or a string of space-separated words, lower-cased and in composed form."""
    items = value.split() if isinstance(value, str) else list(value or ())
    return tuple(unicodedata.normalize("NFC", str(w)).lower() for w in items)


def table(value: Any) -> Mapping[str, float]:
    return MappingProxyType(
        {unicodedata.normalize("NFC", k).lower(): float(v) for k, v in (value or {}).items()}
    )


def pairs(value: Any) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(pair.split()) for pair in words(value))


def _as_default(default: Any, value: Any) -> Any:
    """``value`` read as the kind of ``default``: words (lower case, NFC) into a frozenset or
    a tuple, numbers by word into a mapping, a flag, or a string."""
    if isinstance(default, frozenset):
        return frozenset(words(value))
    if isinstance(default, tuple):
        return words(value)
    if isinstance(default, Mapping):
        return table(value)
    return type(default)(value)


def _default(spec: Field[Any]) -> Any:
    if spec.default_factory is not MISSING:
        return spec.default_factory()
    return spec.default


def read_table(table: Mapping[str, Any], shape: type[Shape], where: str = "") -> Shape:
    """A data file's table read into ``shape``, a dataclass whose fields all have defaults:
    each entry read as its field's default is (``_as_default``); a missing entry keeps it.
    An entry the shape has no field for is a typo: ValueError names it and the nearest."""
    known = {f.name: f for f in fields(shape)}
    for key in table:
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ValueError(f"{where or shape.__name__}: unknown entry {key!r}{hint}")
    values = {}
    for key, value in table.items():
        spec = known[key]
        values[key] = _as_default(_default(spec), value)
    return shape(**values)
