"""The pytest plugin (entry point ``pytest11``): a session-scoped ``ragguard_guard``
fixture, ``--ragguard-report FILE`` (every assertion's evaluation as JSONL) and
``--ragguard-config FILE``. pytest loads it in every run where ragguard is installed, so
it imports nothing of the evaluator, the models or the cache settings until a test asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from ragguard.evaluation import Guard

_CLOSE = pytest.StashKey[Callable[[], None]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ragguard", "ragguard assertions (ragguard.testing)")
    group.addoption(
        "--ragguard-report",
        metavar="FILE",
        help="write every ragguard assertion's evaluation to FILE as JSONL",
    )
    group.addoption(
        "--ragguard-config",
        metavar="FILE",
        help="the ragguard config (TOML or JSON) of assertions that name none",
    )


def pytest_configure(config: pytest.Config) -> None:
    report = config.getoption("ragguard_report", None)
    settings = config.getoption("ragguard_config", None)
    if report is None and settings is None:
        return
    from ragguard.testing import asserts

    if settings is not None:
        asserts.use_config(settings)
    if report is not None:
        worker = hasattr(config, "workerinput")  # a pytest-xdist worker: the controller truncated
        writer = asserts.JsonlReport(report, truncate=not worker)
        remove = asserts.add_recorder(writer)

        def close() -> None:
            remove()
            writer.close()

        config.stash[_CLOSE] = close


def pytest_unconfigure(config: pytest.Config) -> None:
    close = config.stash.get(_CLOSE, None)
    if close is not None:
        close()


@pytest.fixture(scope="session")
def ragguard_guard() -> Guard:
    """The session's Guard (``--ragguard-config``, else the defaults), its models loaded
    once: the one ``assert_supported`` and ``assert_relevant`` use."""
    from ragguard.testing.asserts import session_guard

    guard = session_guard()
    guard.warmup()
    return guard
