"""English's word lists moved from Python to ``ragguard/language/data/en.toml``: every list
loads as it was (the snapshot was taken from the Python lists before the move), so the
shipped heads and the checks read the same words."""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ragguard.language import SUPPORTED, lexicon, section
from ragguard.language.shapes import SuperlativeCues
from ragguard.language.wordlists import read_table

SNAPSHOT = Path(__file__).parent / "data" / "english_lists_before_en_toml.json"


def _plain(value: Any) -> Any:
    """The snapshot's form: a value with its collection type named."""
    if isinstance(value, frozenset | set):
        return {"frozenset": sorted((_plain(v) for v in value), key=json.dumps)}
    if isinstance(value, tuple):
        return {"tuple": [_plain(v) for v in value]}
    if isinstance(value, Mapping):
        return {"mapping": {str(k): _plain(v) for k, v in value.items()}}
    return value


_EXPECTED: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
_ADDED_SINCE: dict[str, tuple[str, ...]] = {
    # bounds only the number checks read, no head: "no fewer than 1,200" bounds from below
    "ragguard.scoring.lexical.vocabulary.AT_LEAST_WORDS": ("no fewer than", "no less than"),
}
"""Words added to a list on purpose after the move, by list; the rest loads as it was."""


@pytest.mark.parametrize("name", sorted(_EXPECTED))
def test_each_english_list_loads_as_it_was_in_python(name: str) -> None:
    module, _, attribute = name.rpartition(".")
    loaded = getattr(importlib.import_module(module), attribute)
    added = _ADDED_SINCE.get(name, ())
    assert all(word in loaded for word in added)
    if added:
        loaded = tuple(word for word in loaded if word not in added)
    assert _plain(loaded) == _EXPECTED[name]


def test_the_snapshot_covers_every_list_of_the_vocabulary_modules() -> None:
    for module in ("ragguard.scoring.lexical.vocabulary", "ragguard.spans.cues"):
        names = {
            n
            for n, v in vars(importlib.import_module(module)).items()
            if n.isupper() and n[0] != "_" and n != "FALLBACK"
            if isinstance(v, str | tuple | frozenset | Mapping)
        }
        assert {f"{module}.{n}" for n in names} <= set(_EXPECTED)


@dataclass(frozen=True, slots=True)
class _Ranking:
    words: frozenset[str] = frozenset()
    endings: tuple[str, ...] = ()


@pytest.mark.parametrize("code", SUPPORTED)
def test_a_checks_own_table_reads_as_the_lexicon_types_it(code: str) -> None:
    found = lexicon(code)
    assert found is not None
    assert section(code, "superlatives", SuperlativeCues) == found.superlatives


def test_a_table_entry_with_no_field_is_named_with_the_nearest() -> None:
    with pytest.raises(ValueError, match="unknown entry 'ending'; did you mean 'endings'"):
        read_table({"words": ["only"], "ending": ["est"]}, _Ranking)
    assert read_table({"words": ["Only"]}, _Ranking) == _Ranking(frozenset({"only"}))
    assert section("ru", "superlatives", _Ranking) == _Ranking()
