"""The judge's transport alone (``ragguard/judge/endpoint.py``): one attempt at one call
against a loopback stand-in, no guard around it, says what came back or why nothing did."""

import threading

import pytest

from ragguard.config import JudgeConfig
from ragguard.judge.endpoint import Endpoint
from ragguard.judge.prompts import SUPPORT_VERDICTS, support_messages
from tests.support.misbehaving_judge import Behaviour, completion, stand_in

QUESTION = support_messages("It was moved to Berlin in 1975.", ["The tower is in Paris."])


def _endpoint(server, **options):
    settings = {"backend": "openai", "base_url": server.base_url, "model": "stand-in"}
    return Endpoint(JudgeConfig(**{**settings, **options}))


def test_one_attempt_returns_the_reply_and_the_usage_reported():
    with stand_in(Behaviour(body=completion("yes", usage={"prompt_tokens": 90}))) as server:
        endpoint = _endpoint(server)
        tried = endpoint.attempt(endpoint.request(QUESTION, SUPPORT_VERDICTS, score=True))
        (sent,) = server.plan.requests
    assert tried.failed is None and tried.reply is not None
    assert tried.reply.text == "yes" and tried.reply.input_tokens == 90
    assert sent["max_tokens"] == 1 and sent["logprobs"] is True  # the score question


@pytest.mark.parametrize(
    ("status", "failed"), [(503, "retry"), (429, "retry"), (400, "unavailable")]
)
def test_a_failed_attempt_says_whether_another_is_worth_it(status, failed):
    with stand_in(Behaviour(status=status, body=b'{"error": "no"}')) as server:
        endpoint = _endpoint(server)
        tried = endpoint.attempt(endpoint.request(QUESTION, SUPPORT_VERDICTS, score=False))
        assert len(server.plan.requests) == 1  # one attempt, no retry of its own
    assert tried.reply is None and tried.failed == failed


def test_an_attempt_past_its_deadline_is_a_timeout():
    with stand_in(Behaviour(drip_s=0.5)) as server:
        endpoint = _endpoint(server, timeout_s=1)
        tried = endpoint.attempt(endpoint.request(QUESTION, SUPPORT_VERDICTS, score=False))
    assert tried.reply is None and tried.failed == "timeout"


def test_the_verdict_question_asks_for_the_schema():
    endpoint = Endpoint(JudgeConfig(base_url="http://127.0.0.1:9", model="m"))
    request = endpoint.request(QUESTION, SUPPORT_VERDICTS, score=False)
    schema = request.body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["verdict"]["enum"] == list(SUPPORT_VERDICTS)
    assert request.body["max_tokens"] == 200 and "logprobs" not in request.body


def test_the_client_is_built_once_when_the_first_calls_come_at_once():
    """The cascade's first calls come from several threads: one client, built on one."""
    with stand_in() as server:
        endpoint = _endpoint(server)
        ready = threading.Barrier(8)
        built: list[object] = []

        def first_call() -> None:
            ready.wait()
            built.append(endpoint.client)

        threads = [threading.Thread(target=first_call) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(built) == 8 and len({id(client) for client in built}) == 1
