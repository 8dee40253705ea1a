"""What the judge tests share: a Guard with a ``[judge]`` section on the session's lite
models, a trace with two objective spans, and a spy on the judge's questions."""

from ragguard import Config, Guard
from ragguard.evaluation.evaluator import Evaluator
from tests.support.llama_server import MODEL

TRACE = {
    "trace_id": "t1",
    "query": "Where is the Eiffel Tower?",
    "items": [
        {"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris, France."},
        {"id": "d2", "text": "Berlin is the capital of Germany."},
    ],
    "response": "The Eiffel Tower is in Paris [1]. It was moved to Berlin in 1975.",
}


EVERY_CHECK = ["number", "date", "negation", "entity"]
"""``may_overrule`` for the wiring tests: TRACE's Berlin span has a fired date check, and
they test that the judge's verdict decides it whichever it is (the default, where it does
not overrule a check, is tested in tests/judge/test_cascade.py)."""


def judge_config(server, **judge):
    """The judge section for ``server``; short replies keep the tiny model quick."""
    settings = {
        "backend": "openai",
        "base_url": server.base_url,
        "model": MODEL,
        "max_output_tokens": 48,
        "timeout_s": 120,
        "may_overrule": EVERY_CHECK,
        **judge,
    }
    return Config(judge=settings)


def judged_guard(guard, config):
    """A Guard with ``config``'s judge on the models ``guard`` has loaded already."""
    evaluator = guard.evaluator
    return Guard(
        config,
        evaluator=Evaluator(
            config,
            relevance=evaluator.models.relevance_scorer,
            support=evaluator.models.support_scorer,
            embedder=evaluator.models.embedder,
            analyzer=evaluator.models.analyzer,
        ),
    )


def band_around(score, width=1e-4):
    """A band holding exactly this lite score."""
    return [max(score - width, 0.0), min(score + width, 1.0)]


def spy(judged):
    """Record the claim of every question the judge is asked (the last user message)."""
    client = judged.models.judge.client
    asked = []
    original = client.ask

    def ask(messages, verdicts, **options):
        asked.append(messages[-1]["content"])
        return original(messages, verdicts, **options)

    client.ask = ask
    return asked
