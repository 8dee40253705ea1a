"""The judge client: one question to an OpenAI-compatible endpoint, within limits.

The transport (``judge/endpoint.py``) makes one attempt at one call; the guards around it
(``judge/guards.py``) are checked before a call goes out: a circuit breaker, a
sliding-minute call limit and a daily token budget (estimated before the call, settled after
it with the larger of the tokens counted here, in what was sent and received, and the usage
the server reports; a reported usage that is negative, not a whole number or beyond what the
text could hold is refused and logged, so a server that reports nothing or nonsense cannot
spend the budget unseen). A failed attempt that is worth another try (connection refused,
HTTP 429 or 5xx) is retried with exponential backoff and jitter; a timeout is not, so one
question never costs more than ``timeout_s`` of waiting on a slow judge. Whatever happens,
``ask`` returns an ``Answer`` with the reason it has no verdict: it never raises. A reply's
rationale goes to the trace log, so it has the API key and bearer tokens removed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ragguard.config import JudgeConfig
from ragguard.judge.answer import Answer
from ragguard.judge.endpoint import Endpoint, JudgeReply
from ragguard.judge.guards import Backoff, Guards
from ragguard.judge.parse import Parsed, parse_verdict, score_of
from ragguard.judge.prompts import fence_of
from ragguard.judge.tokens import count_tokens, sent_tokens
from ragguard.schema import JudgeSkip

logger = logging.getLogger(__name__)


class JudgeClient:
    """Asks an OpenAI-compatible endpoint; thread-safe (calls may run concurrently)."""

    def __init__(
        self,
        config: JudgeConfig,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        tracer_provider: Any = None,
    ) -> None:
        self.config = config
        self.endpoint = Endpoint(config, tracer_provider)
        self.guards = Guards(config, clock)
        self.backoff = Backoff(config.retries, config.backoff_s, sleep)
        self._clock = clock
        self._start_failed = False
        self.scores_returned: bool | None = None
        """Whether the endpoint returns token probabilities: None until a score question
        has been answered; False switches this client's questions to the verdict."""

    def start(self) -> bool:
        """Build the client now, outside any call's deadline: the local backend loads its
        model here (seconds). False, logged once, when it cannot (the spans keep their lite
        verdicts, ``unavailable``)."""
        if self.endpoint.started:
            return True
        try:
            _ = self.endpoint.client
        except Exception as error:  # the engine or the model missing: never raised
            if not self._start_failed:
                logger.warning("ragguard judge: %s", self.endpoint.redacted(str(error)))
            self._start_failed = True
            return False
        return True

    @property
    def model_name(self) -> str:
        """The model as requests and spans name it (a local GGUF by its file name)."""
        return self.endpoint.model_name

    @property
    def asks_score(self) -> bool:
        """Whether questions go as the score question (see ``JudgeConfig.score``)."""
        return self.config.score == "auto" and self.scores_returned is not False

    def tokens_left_today(self) -> int | None:
        return self.guards.tokens_left_today()

    def ask(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str], *, score: bool = False
    ) -> Answer:
        """One question to the judge; never raises. ``score``: ``messages`` are the
        one-word score question (``prompts.fenced_prompt(question=...)``), asked for one
        token and its probabilities."""
        if not self.start():
            return Answer(None, "unavailable", tokens_left_today=self.tokens_left_today())
        sent = sent_tokens(messages)
        estimate = sent + (1 if score else self.config.max_output_tokens)
        refused = self.guards.admit(estimate)
        if refused is not None:
            return Answer(None, refused, tokens_left_today=self.tokens_left_today())
        started = self._clock()
        try:
            reply, skipped = self._call(messages, verdicts, score)
        except Exception as error:  # a bug or a reply no one foresaw: counted, never raised
            logger.warning("ragguard judge: call failed: %s", self.endpoint.redacted(repr(error)))
            reply, skipped = None, "unavailable"
        latency_ms = (self._clock() - started) * 1000
        if reply is None:
            left = self.guards.settle(estimate, 0, ok=False)
            return Answer(None, skipped, latency_ms=latency_ms, tokens_left_today=left)
        input_tokens = max(sent, reply.input_tokens or 0)
        output_tokens = max(count_tokens(reply.text), reply.output_tokens or 0)
        parsed, value = self._read(reply, messages, score)
        left = self.guards.settle(
            estimate, input_tokens + output_tokens, ok=True if parsed else None
        )
        return Answer(
            parsed,
            None if parsed else "unparseable",
            input_tokens,
            output_tokens,
            latency_ms,
            left,
            value,
            reply.prompt_evaluated,
        )

    def _call(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str], score: bool
    ) -> tuple[JudgeReply | None, JudgeSkip | None]:
        """The reply, or None with why: retried with backoff on connection errors, 429 and
        5xx; a timeout or an oversized reply ends it at once."""
        request = self.endpoint.request(messages, verdicts, score)
        for attempt in range(self.backoff.attempts):
            tried = self.endpoint.attempt(request)
            if tried.reply is not None:
                return tried.reply, None
            if tried.failed != "retry":
                return None, tried.failed
            logger.info("ragguard judge: attempt %d failed: %s", attempt + 1, tried.error)
            self.backoff.pause(attempt)
        return None, "unavailable"

    def _read(
        self, reply: JudgeReply, messages: list[dict[str, str]], score: bool
    ) -> tuple[Parsed | None, float | None]:
        """The verdict (and the score, for the score question) in a reply."""
        if score:
            scored = score_of(reply.text, reply.top)
            if scored is None:
                if reply.top is None:  # no one-word reply, no probabilities: not supported
                    self.scores_returned = False
                return None, None
            self.scores_returned = scored.score is not None
            if scored.score is None:
                return Parsed(scored.verdict, "score question: the written word"), None
            verdict = scored.score >= self.config.score_threshold
            return Parsed(verdict, f"score question: P(yes) = {scored.score:.3f}"), scored.score
        whole_json = self.config.response_format == "json_schema"
        parsed = parse_verdict(reply.text, fence=fence_of(messages), whole_json=whole_json)
        if parsed is not None:  # the rationale goes to the trace log: a proxy may echo headers
            parsed = replace(parsed, rationale=self.endpoint.redacted(parsed.rationale))
        return parsed, None
