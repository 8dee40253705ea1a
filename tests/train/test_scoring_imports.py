"""``ragguard.train`` orchestrates: it reads the training sets and writes heads and cards, and
takes the scorers, features and fitting recipe from the scoring rooms' public names only, so
a room can reorganise its modules without breaking training."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import ragguard

PACKAGE = Path(ragguard.__file__).parent


def _scoring_imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every import from ``ragguard.scoring`` in the file, function
    bodies included; a plain ``import ragguard.scoring...`` gives no names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ragguard.scoring"):
            found.append((node.lineno, node.module or "", [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, a.name, [])
                for a in node.names
                if a.name.startswith("ragguard.scoring")
            ]
    return found


def test_train_imports_from_scoring_only_what_a_room_exports() -> None:
    wrong = []
    for path in sorted((PACKAGE / "train").rglob("*.py")):
        for line, module, names in _scoring_imports(path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line}"
            imported = importlib.import_module(module)
            exported = getattr(imported, "__all__", None)
            if not hasattr(imported, "__path__") or exported is None:
                wrong.append(f"{where}: {module} is not a scoring package with __all__")
                continue
            wrong += [
                f"{where}: {module}.{n} is not in its __all__" for n in names if n not in exported
            ]
            if not names:
                wrong.append(f"{where}: import {module} (import its names instead)")
    assert wrong == []


def test_the_check_finds_a_private_import(tmp_path: Path) -> None:
    """The check above reads what it should: a module path and an unexported name are found."""
    source = tmp_path / "bad.py"
    source.write_text(
        "from ragguard.scoring.lite.heads import Head\n"
        "def f():\n    from ragguard.scoring.lite import _nothing\n",
        encoding="utf-8",
    )
    found = _scoring_imports(source)
    assert [(m, n) for _, m, n in found] == [
        ("ragguard.scoring.lite.heads", ["Head"]),
        ("ragguard.scoring.lite", ["_nothing"]),
    ]
    lite = importlib.import_module("ragguard.scoring.lite")
    assert not hasattr(importlib.import_module("ragguard.scoring.lite.heads"), "__path__")
    assert "_nothing" not in lite.__all__


def test_every_scoring_room_exports_names_that_exist() -> None:
    rooms = sorted(p.parent for p in (PACKAGE / "scoring").rglob("__init__.py"))
    assert {p.name for p in rooms} >= {
        "checks",
        "encoders",
        "hub",
        "interface",
        "lexical",
        "lite",
        "wiring",
    }
    for room in rooms:
        name = ".".join(("ragguard", *room.relative_to(PACKAGE).parts))
        module = importlib.import_module(name)
        assert isinstance(module.__all__, list), name
        assert [n for n in module.__all__ if not hasattr(module, n)] == [], name
