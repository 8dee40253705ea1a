"""A judge that stops answering never fails the evaluation: with the server frozen
mid-run, calls time out and keep the lite verdict; repeated failures open the circuit
breaker; a server that is gone is unavailable. Each test runs its own server (it is stopped)."""

import os
import signal
import time

import pytest

from tests.support.judge_fixtures import TRACE, band_around, judge_config, judged_guard
from tests.support.llama_server import running_server


@pytest.fixture
def server():
    with running_server() as started:
        yield started


def test_a_frozen_server_times_out_then_the_breaker_opens(guard, server):
    lite = guard.evaluate(TRACE)
    band = band_around(lite.spans[1].support)
    warm = judged_guard(guard, judge_config(server, band=band))
    assert warm.evaluate(TRACE).spans[1].support_source == "judge"  # it answers at first
    config = judge_config(
        server, band=band, timeout_s=2, breaker_failures=2, breaker_cooldown_s=600
    )
    judged = judged_guard(guard, config)

    os.kill(server.process.pid, signal.SIGSTOP)  # stopped mid-run: connections hang
    try:
        outcomes = []
        for n in range(3):
            started = time.monotonic()
            evaluation = judged.evaluate({**TRACE, "response": TRACE["response"] + f" ({n})"})
            outcomes.append((evaluation.spans[1], time.monotonic() - started))
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    reasons = [span.judge_skipped for span, _ in outcomes]
    assert reasons == ["timeout", "timeout", "circuit_open"]
    for span, _ in outcomes:
        assert span.support_source == "lite" and span.judge is None
        assert span.supported == (span.support >= lite.thresholds.support)
    assert outcomes[-1][1] < outcomes[0][1]  # an open breaker costs no wait


def test_a_server_that_is_gone_leaves_the_lite_verdict(guard, server):
    lite = guard.evaluate(TRACE)
    config = judge_config(
        server, band=band_around(lite.spans[1].support), retries=2, backoff_s=0.01
    )
    judged = judged_guard(guard, config)
    server.process.kill()
    server.process.wait(10)
    span = judged.evaluate(TRACE).spans[1]
    assert span.judge_skipped == "unavailable" and span.support_source == "lite"
    assert span.supported == lite.spans[1].supported
