"""Packages keep their insides: a module imports another top-level package only through a
package folder's ``__init__`` (``from ragguard.scoring.checks import check``, never
``from ragguard.scoring.checks.antecedents import ...``) and only names that folder lists in
``__all__``. Within one top-level package (``scoring/lite`` reading ``scoring/lexical``)
anything goes; the root facade and the root modules (``errors``, ``_version``,
``_exports``) are exempt. Every import counts: in functions and under ``TYPE_CHECKING`` too.
Read from the syntax tree, so nothing is imported."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import ragguard

PACKAGE = Path(ragguard.__file__).parent
FOLDERS = {
    ".".join(("ragguard", *path.parent.relative_to(PACKAGE).parts))
    for path in PACKAGE.rglob("__init__.py")
}
EXEMPT = {"ragguard.errors", "ragguard._version", "ragguard._exports"}


def _top(module: str) -> str:
    """``ragguard.scoring.checks.dates`` -> ``ragguard.scoring``."""
    return ".".join(module.split(".")[:2])


@cache
def exported(folder: str) -> frozenset[str]:
    """The names a package folder's ``__init__`` lists in ``__all__``."""
    path = PACKAGE.joinpath(*folder.split(".")[1:], "__init__.py")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                assert node.value is not None
                return frozenset(ast.literal_eval(node.value))
    return frozenset()


def past_interfaces(path: Path, module: str) -> tuple[int, list[str]]:
    """(the number of cross-package import statements, those that reach past an interface)
    of one module."""
    own, crossing, wrong = _top(module), 0, []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ragguard.") and _top(alias.name) != own:
                    crossing += 1
                    if _top(alias.name) not in EXEMPT:
                        wrong.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and not node.level:
            target = node.module or ""
            if not target.startswith("ragguard.") or _top(target) in {own, *EXEMPT}:
                continue
            crossing += 1
            names = [alias.name for alias in node.names]
            if target not in FOLDERS or set(names) - exported(target):
                wrong.append(f"{node.lineno}: from {target} import {', '.join(names)}")
    return crossing, wrong


def survey() -> tuple[int, list[str]]:
    """Every module below the root: the cross-package import statements, and those that
    reach past an interface, each as ``path:line: statement``."""
    crossing, wrong = 0, []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent == PACKAGE:  # the facade and the root modules
            continue
        module = ".".join(("ragguard", *path.relative_to(PACKAGE).with_suffix("").parts))
        count, found = past_interfaces(path, module.removesuffix(".__init__"))
        crossing += count
        wrong += [f"{path.relative_to(PACKAGE.parent)}:{line}" for line in found]
    return crossing, wrong


def test_no_import_reaches_past_a_package_interface() -> None:
    crossing, wrong = survey()
    assert crossing > 100  # the survey sees the package's imports
    assert wrong == []


def test_a_reach_past_an_interface_is_found(tmp_path: Path) -> None:
    source = tmp_path / "spot.py"
    source.write_text(
        "from ragguard.scoring.checks.antecedents import answer_readings\n"
        "from ragguard.runtime import Cache\n"
        "from ragguard.runtime import NotExported\n"
        "from ragguard.live.thread import flush\n"
        "from ragguard.errors import MediaError\n"
        "def later():\n"
        "    import ragguard.schema.inline\n",
        encoding="utf-8",
    )
    assert past_interfaces(source, "ragguard.live.spot") == (
        4,
        [
            "1: from ragguard.scoring.checks.antecedents import answer_readings",
            "3: from ragguard.runtime import NotExported",
            "7: import ragguard.schema.inline",
        ],
    )
