"""Sizes: no module of ragguard over ``MAX_MODULE_LINES`` lines and no function over
``MAX_FUNCTION_LINES`` (its ``def`` to its last line, decorators left out), except the
declarative tables named in ``DECLARATIVE``, each of which ``docs/architecture.md`` names
too. Read from the syntax tree, so nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import ragguard

PACKAGE = Path(ragguard.__file__).parent
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60
DECLARATIVE: frozenset[str] = frozenset()
"""``module:function`` (``ragguard/cli/x.py:add_to``) of each function that only declares a
table and may be longer; none today."""


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    """(qualified name, lines) of every function, methods and nested functions too."""
    found = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = prefix + node.name
            if not isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                found.append((name, node.end_lineno - node.lineno + 1))
            found += _functions(node, name + ".")
        else:
            found += _functions(node, prefix)
    return found


def _sources() -> list[tuple[str, str]]:
    return [
        (path.relative_to(PACKAGE.parent).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def test_no_module_is_over_the_limit() -> None:
    long = [
        f"{where}: {lines} lines"
        for where, text in _sources()
        if (lines := len(text.splitlines())) > MAX_MODULE_LINES
    ]
    assert not long, f"split these by job (at most {MAX_MODULE_LINES} lines): {long}"


def test_no_function_is_over_the_limit_but_the_declarative_tables() -> None:
    long = [
        f"{where}:{name}: {lines} lines"
        for where, text in _sources()
        for name, lines in _functions(ast.parse(text))
        if lines > MAX_FUNCTION_LINES and f"{where}:{name}" not in DECLARATIVE
    ]
    assert not long, f"split these into named helpers (at most {MAX_FUNCTION_LINES}): {long}"


def test_the_architecture_page_names_the_limits_and_each_exempt_table() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8")
    assert "`tests/test_sizes.py`" in page
    assert f"{MAX_MODULE_LINES} lines" in page and f"{MAX_FUNCTION_LINES} lines" in page
    assert [name for name in DECLARATIVE if f"`{name}`" not in page] == []


def test_the_line_count_reads_a_function_from_its_def_to_its_end() -> None:
    source = "@decorator\ndef f():\n    x = 1\n\n    return x\n\n"
    source += "class C:\n    def m(self):\n        pass\n"
    assert _functions(ast.parse(source)) == [("f", 4), ("C.m", 2)]
