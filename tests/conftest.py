import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def guard():
    """One Guard with the offline lite models for the whole run (models load once)."""
    from ragguard import Guard

    return Guard()


@pytest.fixture(scope="session")
def embedder(guard):
    return guard.evaluator.embedder
