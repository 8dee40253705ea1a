"""A package's public names, imported on first use (PEP 562).

The root facade and every package ``__init__`` that must stay light (``import ragguard.cli``
loads no evaluator; the exporters read ``ragguard.live``'s counters without the runtime) name
their public API in ``__all__`` and import each name under ``if TYPE_CHECKING:``, so type
checkers and readers see where it lives; ``lazy_exports`` reads those same import statements
and imports a name's module the first time the name is asked for. One list of names and
homes, not two, and one mechanism: a root module, so that every layer may use it.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _homes(path: str, package: str) -> dict[str, str]:
    """Name -> module, from the ``from M import N`` statements of the ``TYPE_CHECKING``
    block of the package's ``__init__``."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    homes: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    base = statement.module
                    if statement.level:  # relative to the package
                        base = f"{package}.{base}"
                    for alias in statement.names:
                        homes[alias.asname or alias.name] = base
    return homes


def lazy_exports(
    package: str, path: str, public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (its ``__init__`` at ``path``):
    each name of ``public`` (its ``__all__``) is imported from its module on first use, then
    kept in the package (a name the package defines or imports at once needs no home). A name
    of ``public`` with neither is a mistake, raised at import."""
    homes = _homes(path, package)
    missing = sorted(set(public) - set(homes) - set(vars(sys.modules[package])))
    if missing:
        raise ImportError(f"{package}.__all__ names {missing} without a home under TYPE_CHECKING")

    def __getattr__(name: str) -> Any:
        if name not in public:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(homes[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *public})

    return __getattr__, __dir__
