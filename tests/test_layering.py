"""The package's layering: every module imports on its own (no module depends on another
having been imported first, as an import cycle does), and typed errors keep their fields
across a pickle, as they cross the live worker's process boundary."""

from __future__ import annotations

import pickle
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


def test_the_data_model_imports_no_scoring_or_runtime_module() -> None:
    code = IMPORT_ALONE.format(path=str(PACKAGE), module="ragguard.schema") + (
        "print(sorted(m for m in sys.modules if m.startswith('ragguard.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == str(
        [
            "ragguard.errors",
            "ragguard.schema",
            "ragguard.schema.fields",
            "ragguard.schema.inline",
        ]
    )


def test_live_stats_imports_no_other_ragguard_module() -> None:
    code = IMPORT_ALONE.format(path=str(PACKAGE), module="ragguard.runtime.stats") + (
        "print(sorted(m for m in sys.modules if m.startswith('ragguard.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == str(["ragguard.live", "ragguard.runtime.stats"])


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
