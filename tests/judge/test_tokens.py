"""The judge's token budget is settled from what was sent, not only from what the server
says: no usage still costs the tokens counted here, a usage that is negative, fractional or
beyond what the text could hold is refused (and logged), and a believable larger usage is
taken. (On the base tree, no usage cost 0 tokens and ``prompt_tokens: -1e9`` gave the day
a billion tokens back.)"""

import logging

import pytest

from ragguard.config import JudgeConfig
from ragguard.judge.client import JudgeClient
from ragguard.judge.prompts import SUPPORT_VERDICTS, support_messages
from ragguard.judge.tokens import count_tokens, sent_tokens
from tests.support.misbehaving_judge import Behaviour, completion, stand_in

PASSAGE = "The Eiffel Tower is in Paris. It was completed in 1889 and is 330 metres tall. " * 8
MESSAGES = support_messages("It was completed in 1889.", [PASSAGE])
VERDICT = '{"reasoning": "the passage gives the year", "verdict": "supported"}'


def body(usage):
    return completion(VERDICT, usage)


def client(server, **options):
    settings = {
        "backend": "openai",
        "base_url": server.base_url,
        "model": "stand-in",
        "score": "verdict",
        "retries": 0,
        **options,
    }
    return JudgeClient(JudgeConfig(**settings))


def test_a_server_that_reports_no_usage_still_spends_the_budget():
    with stand_in(Behaviour(body=body(None))) as server:
        judge = client(server, max_tokens_per_day=5_000, max_calls_per_minute=None)
        answers = [judge.ask(MESSAGES, SUPPORT_VERDICTS) for _ in range(40)]
    made = [a for a in answers if a.skipped is None]
    assert made and all(a.input_tokens == sent_tokens(MESSAGES) for a in made)
    assert all(a.output_tokens == count_tokens(VERDICT) for a in made)
    per_call = sent_tokens(MESSAGES) + count_tokens(VERDICT)
    reserve = sent_tokens(MESSAGES) + 200  # what a call needs left to be let through
    assert len(made) == (5_000 - reserve) // per_call + 1  # on the base tree: all 40
    assert made[-1].tokens_left_today == 5_000 - len(made) * per_call < reserve
    assert {a.skipped for a in answers[len(made) :]} == {"over_budget"}


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": -1_000_000_000, "completion_tokens": -5},
        {"prompt_tokens": 10**12, "completion_tokens": 10**12},
        {"prompt_tokens": 12.5, "completion_tokens": "many"},
    ],
)
def test_a_negative_or_absurd_usage_is_refused_and_the_count_sent_stands(usage, caplog):
    with stand_in(Behaviour(body=body(usage))) as server:
        judge = client(server, max_tokens_per_day=100_000)
        with caplog.at_level(logging.WARNING, logger="ragguard.judge.endpoint"):
            answer = judge.ask(MESSAGES, SUPPORT_VERDICTS)
    assert answer.skipped is None and answer.parsed is not None
    assert answer.input_tokens == sent_tokens(MESSAGES)
    assert answer.output_tokens == count_tokens(VERDICT)
    used = answer.input_tokens + answer.output_tokens
    assert answer.tokens_left_today == 100_000 - used  # never more than the day's budget
    assert "refused reported prompt_tokens" in caplog.text


def test_a_believable_larger_usage_is_taken():
    more = 3 * sent_tokens(MESSAGES)
    with stand_in(Behaviour(body=body({"prompt_tokens": more, "completion_tokens": 90}))) as s:
        answer = client(s, max_tokens_per_day=100_000).ask(MESSAGES, SUPPORT_VERDICTS)
    assert (answer.input_tokens, answer.output_tokens) == (more, 90)
    assert answer.tokens_left_today == 100_000 - more - 90


def test_the_local_count_is_generous_outside_ascii():
    assert count_tokens("abcdefgh") == 2
    assert count_tokens("東京タワーは東京にある") == 11  # a token or more per character
