"""The stable API: each package's ``__all__`` lists exactly its public names (as httpx
checks its own), and the root's is the documented one."""

from __future__ import annotations

import importlib
import types

import pytest

import ragguard

PACKAGES = [
    "ragguard",
    "ragguard.config",
    "ragguard.exporters",
    "ragguard.language",
    "ragguard.spans",
]


def _public(module: types.ModuleType) -> list[str]:
    """Names a reader of the module sees: not private, not a submodule."""
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"  # from __future__
    )


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    for public in module.__all__:  # the root imports its names on first use
        getattr(module, public)
    assert sorted(module.__all__) == _public(module)


def test_the_root_api_is_the_stable_one() -> None:
    """A change here is a change of the public API: the CHANGELOG says so."""
    assert ragguard.__all__ == [
        "Config",
        "Evaluation",
        "EvaluationError",
        "Evaluator",
        "Guard",
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
