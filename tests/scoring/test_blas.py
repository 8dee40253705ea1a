"""ragguard's numpy runs on one BLAS thread while it evaluates, and the application's
thread count comes back after, whichever thread evaluates.

Each check runs in a fresh interpreter: threadpoolctl lets the first Python thread that
sets OpenBLAS's thread count keep control while it lives, and other tests' threads (or a
BLAS library another test loaded) would decide what this process can set.
"""

import json
import subprocess
import sys

PRELUDE = """
import json, threading
import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits
from ragguard import Guard
from ragguard.scoring.encoders.blas import one_blas_thread

def blas_threads():
    return sorted({lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"})

TRACE = {
    "trace_id": "t",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is in Paris."}],
    "response": "The Eiffel Tower is in Paris [1].",
}
np.ones((2, 2)) @ np.ones((2, 2))  # BLAS loaded
seen = {}
"""


def run(body: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + body + "\nprint(json.dumps(seen))"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_block_runs_on_one_thread_and_restores_the_setting():
    seen = run(
        """
with threadpool_limits(limits=2, user_api="blas"):  # the application's own setting
    with one_blas_thread():
        seen["inside"] = blas_threads()
        with one_blas_thread():
            seen["nested"] = blas_threads()
        seen["after nested"] = blas_threads()
    seen["after"] = blas_threads()
"""
    )
    assert seen == {"inside": [1], "nested": [1], "after nested": [1], "after": [2]}


def test_an_evaluation_runs_on_one_thread_and_others_leave_no_limit_behind():
    seen = run(
        """
guard = Guard()
with threadpool_limits(limits=2, user_api="blas"):
    original = guard.models.relevance_scorer.relevance
    def watched(queries, evidence):
        seen.setdefault("during", blas_threads())
        return original(queries, evidence)
    guard.models.relevance_scorer.relevance = watched
    guard.evaluate(TRACE)
    seen["after"] = blas_threads()
    workers = [threading.Thread(target=guard.evaluate, args=(TRACE,)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    seen["after threads"] = blas_threads()
"""
    )
    assert seen == {"during": [1], "after": [2], "after threads": [2]}
