"""ragguard's numpy runs on one BLAS thread while it evaluates, and the application's
thread count comes back after, whichever thread evaluates."""

import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from ragguard import Guard
from ragguard.scoring.blas import one_blas_thread

TRACE = {
    "trace_id": "t",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is in Paris."}],
    "response": "The Eiffel Tower is in Paris [1].",
}


def blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


@pytest.fixture
def two_blas_threads():
    np.ones((2, 2)) @ np.ones((2, 2))  # BLAS loaded
    with threadpool_limits(limits=2, user_api="blas"):  # the application's own setting
        yield


def test_the_block_runs_on_one_thread_and_restores_the_setting(two_blas_threads):
    with one_blas_thread():
        assert blas_threads() == {1}
        with one_blas_thread():
            assert blas_threads() == {1}
        assert blas_threads() == {1}
    assert blas_threads() == {2}


def test_evaluations_in_other_threads_leave_no_limit_behind(two_blas_threads):
    guard = Guard()
    inside: list[set[int]] = []

    def evaluate():
        with one_blas_thread():
            inside.append(blas_threads())
            guard.evaluate(TRACE)

    workers = [threading.Thread(target=evaluate) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert len(inside) == 3
    assert blas_threads() == {2}
    guard.evaluate(TRACE)
    assert blas_threads() == {2}
