"""The stable API: every package's ``__all__`` lists exactly its public names (as httpx
checks its own), the root's is the documented one, and the README, the docs' code and the
examples import only names a package exports."""

from __future__ import annotations

import ast
import importlib
import re
import types
from pathlib import Path

import pytest

import ragguard

ROOT = Path(ragguard.__file__).parent
PACKAGES = sorted(
    ".".join(("ragguard", *path.parent.relative_to(ROOT).parts))
    for path in ROOT.rglob("__init__.py")
)
REPO = ROOT.parent
USER_CODE = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
EXAMPLES = sorted((REPO / "examples").glob("*.py"))


def _offered(module: types.ModuleType) -> set[str]:
    """The public names a package's ``__init__`` defines, or imports under
    ``TYPE_CHECKING`` from its own modules to import on first use: what it offers. A name
    it imports at once is a tool it uses unless ``__all__`` lists it."""
    package = module.__name__
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    lazy = [n for node in tree.body if isinstance(node, ast.If) for n in node.body]
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    for node in lazy:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"{package}."):
            names |= {a.asname or a.name for a in node.names}
    return {name for name in names if not name.startswith("_")}


def test_every_package_is_found() -> None:
    assert {"ragguard", "ragguard.schema", "ragguard.scoring.checks"} <= set(PACKAGES)


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    assert isinstance(module.__all__, list)
    assert len(module.__all__) == len(set(module.__all__))
    for public in module.__all__:  # several packages import their names on first use
        assert not public.startswith("_")
        assert not isinstance(getattr(module, public), types.ModuleType)
    if module is ragguard:  # the facade offers nothing but its API
        public = [
            n
            for n, value in vars(module).items()
            if not n.startswith("_")
            and not isinstance(value, types.ModuleType)
            and n != "annotations"  # from __future__
        ]
        assert sorted(module.__all__) == sorted(public)
    assert sorted(_offered(module) - set(module.__all__)) == []


@pytest.mark.parametrize("name", PACKAGES)
def test_no_public_name_is_hidden_by_a_submodule(name: str) -> None:
    """A module named ``stats`` beside ``stats()`` the counters would hide them once
    imported: a public name must mean one thing."""
    module = importlib.import_module(name)
    folder = Path(module.__file__ or "").parent
    submodules = {p.stem for p in folder.glob("*.py")} | {
        p.parent.name for p in folder.glob("*/__init__.py")
    }
    for submodule in sorted(set(module.__all__) & submodules):
        importlib.import_module(f"{name}.{submodule}")
    hidden = [n for n in module.__all__ if isinstance(getattr(module, n), types.ModuleType)]
    assert hidden == []


def _code(path: Path) -> list[str]:
    """The Python a reader copies: a whole example, or the code blocks of a page."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return [text]
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def deep_imports(path: Path) -> list[str]:
    """Each ragguard import of ``path`` that names something no package exports."""
    wrong = []
    for block in _code(path):
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.Import):
                wrong += [
                    f"import {a.name}"
                    for a in node.names
                    if a.name.startswith("ragguard.")  # a module path: import the package
                ]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == (
                "ragguard"
            ):
                module = importlib.import_module(node.module or "")
                exported = getattr(module, "__all__", []) if hasattr(module, "__path__") else []
                wrong += [
                    f"from {node.module} import {a.name}"
                    for a in node.names
                    if a.name not in exported
                ]
    return wrong


@pytest.mark.parametrize("path", USER_CODE + EXAMPLES, ids=lambda p: p.name)
def test_readme_docs_and_examples_import_only_exported_names(path: Path) -> None:
    assert deep_imports(path) == []


def test_a_deep_import_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nfrom ragguard.judge.budget import per_worker\n"
        "from ragguard.judge import per_worker\nimport ragguard.runtime.jsonl\n```\n"
    )
    assert deep_imports(page) == [
        "from ragguard.judge.budget import per_worker",
        "import ragguard.runtime.jsonl",
    ]


def test_the_root_api_is_the_stable_one() -> None:
    """A change here is a change of the public API: the CHANGELOG says so."""
    assert ragguard.__all__ == [
        "Config",
        "Evaluation",
        "EvaluationError",
        "Evaluator",
        "Guard",
        "GuardResult",
        "Item",
        "ItemEvaluation",
        "LimitsConfig",
        "LiveConfig",
        "LiveStats",
        "MediaConfig",
        "MediaError",
        "Metrics",
        "ModelLoadError",
        "Monitor",
        "RagguardError",
        "RelevanceConfig",
        "Reranker",
        "SpanConfig",
        "SpanEvaluation",
        "SupportConfig",
        "Trace",
        "TraceValidationError",
        "UnsupportedAnswerError",
        "flush",
        "shared_guard",
        "stats",
        "with_score_cache",
        "wrap",
    ]
    assert ragguard.__version__
