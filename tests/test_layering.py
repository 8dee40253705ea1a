"""The package's layering: every module imports on its own (no module depends on another
having been imported first, as an import cycle does), and typed errors keep their fields
across a pickle, as they cross the live worker's process boundary."""

from __future__ import annotations

import ast
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ragguard
from ragguard.errors import MediaError, ModelLoadError, TraceValidationError

PACKAGE = Path(ragguard.__file__).parent
MODULES = sorted(
    ".".join(("ragguard", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(
        ".__init__"
    )
    for path in PACKAGE.rglob("*.py")
)

# the root facade imports the whole package first, which would hide an order-dependent
# import: stand an empty package in for it, then import the one module
IMPORT_ALONE = """
import importlib, sys, types
root = types.ModuleType("ragguard")
root.__path__ = [{path!r}]
sys.modules["ragguard"] = root
importlib.import_module({module!r})
"""


@pytest.mark.parametrize("module", [m for m in MODULES if m != "ragguard"])
def test_every_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    code = IMPORT_ALONE.format(path=str(PACKAGE), module=module)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def layers() -> dict[str, int]:
    """Package -> layer, from the layer table of docs/architecture.md (bottom first)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text[text.index("<!-- layers:") :].split("\n\n")[0]
    placed: dict[str, int] = {}
    for row in table.splitlines()[3:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for name in re.findall(r"`([\w.]+)`", cells[1]):
            placed[name] = int(cells[0])
    return placed


def _package(module: str) -> str:
    """``ragguard.scoring.checks.dates`` -> ``scoring``; root modules stand for themselves,
    and the facade (``ragguard``) for its own layer."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "ragguard"


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every ragguard import that runs (not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ragguard"):
            if node.module == "ragguard":
                found += [(node.lineno, f"ragguard.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("ragguard")]
    return found


def test_every_package_has_a_layer() -> None:
    placed = layers()
    packages = {_package(m) for m in MODULES} - {"__init__"}
    assert sorted(packages - set(placed)) == []
    assert sorted(set(placed) - packages) == []


def test_imports_point_down_the_layers() -> None:
    """No module imports from a package of its own layer or above (its own package aside)."""
    placed = layers()
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(("ragguard", *path.relative_to(PACKAGE).with_suffix("").parts))
        own = (
            _package(module.removesuffix(".__init__"))
            if path.name != "__init__.py" or path.parent != PACKAGE
            else "ragguard"
        )
        for line, imported in _imports(path):
            other = _package(imported)
            if other != own and placed[other] >= placed[own]:
                where = f"{path.relative_to(PACKAGE.parent)}:{line}"
                wrong.append(f"{where}: {own} ({placed[own]}) imports {imported} ({placed[other]})")
    assert wrong == []


def test_the_contract_imports_nothing_above_it() -> None:
    code = IMPORT_ALONE.format(path=str(PACKAGE), module="ragguard.schema") + (
        "print(sorted(m for m in sys.modules if m.startswith('ragguard.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    loaded = eval(done.stdout.strip())  # a printed list of module names
    # the root modules (layer 1) aside: errors, and the lazy exports of an __init__
    assert {_package(m) for m in loaded} - {"_exports"} == {"errors", "schema"}


@pytest.mark.parametrize(
    "error",
    [
        TraceValidationError("items[2].id", "must not be empty", trace_id="t1", line=7),
        MediaError("image", "cannot read '/nope.png'"),
        ModelLoadError("support.model: no such file"),
    ],
)
def test_typed_errors_pickle_with_their_fields(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert vars(copy) == vars(error)
    assert str(copy) == str(error)
