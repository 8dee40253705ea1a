"""The judge's transport: one OpenAI-compatible chat call per question, within limits.

Every guard is local and cheap, checked before a call goes out: a circuit breaker (after
``breaker_failures`` failed calls in a row, no call for ``breaker_cooldown_s``, then one
probe), a sliding-minute call limit and a daily token budget (estimated before the call,
settled with the reported usage after). A call that fails (connection refused, HTTP 429 or
5xx) is retried with exponential backoff and jitter; a timeout is not retried, so one
question never costs more than ``timeout_s`` of waiting on a slow judge. Whatever happens,
``ask`` returns an ``Answer`` with the reason it has no verdict: it never raises.

Each call is an OpenTelemetry client span (when opentelemetry is installed) with the GenAI
attributes: ``gen_ai.operation.name = "chat"``, ``gen_ai.request.model``,
``gen_ai.usage.input_tokens`` / ``output_tokens``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from ragguard.config import JudgeConfig
from ragguard.judge.parse import Parsed, parse_verdict
from ragguard.judge.prompts import verdict_schema
from ragguard.schema import JudgeSkip

logger = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4
"""For the budget's estimate before a call (the reported usage settles it after)."""


@dataclass(frozen=True)
class Answer:
    """One question's outcome: a verdict, or why there is none (``skipped``)."""

    parsed: Parsed | None
    skipped: JudgeSkip | None
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    tokens_left_today: int | None = None

    @property
    def called(self) -> bool:
        """A reply came back (tokens were spent), whether or not it held a verdict."""
        return self.skipped is None or self.skipped == "unparseable"


class _Breaker:
    """Closed, open for a cooldown after repeated failures, then half-open for one probe."""

    def __init__(self, failures: int, cooldown_s: float, clock: Callable[[], float]) -> None:
        self.limit, self.cooldown_s, self.clock = failures, cooldown_s, clock
        self.failures = 0
        self.opened_at: float | None = None
        self.probing = False

    def allow(self) -> bool:
        if self.opened_at is None:
            return True
        if self.probing or self.clock() - self.opened_at < self.cooldown_s:
            return False
        self.probing = True
        return True

    def record(self, ok: bool) -> None:
        self.probing = False
        if ok:
            self.failures, self.opened_at = 0, None
            return
        self.failures += 1
        if self.failures >= self.limit:
            self.opened_at = self.clock()


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
        self.tracer_provider = tracer_provider
        """Where the call spans go; None: the application's global provider."""
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        self._breaker = _Breaker(config.breaker_failures, config.breaker_cooldown_s, clock)
        self._recent: deque[float] = deque()
        self._day = ""
        self._used_today = 0
        self._client: Any = None

    @property
    def client(self) -> Any:
        """The ``openai.OpenAI`` client (built on first use; needs the ``judge`` extra)."""
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(
                base_url=self.config.base_url,
                api_key=os.environ.get(self.config.api_key_env) or "no-key",
                timeout=self.config.timeout_s,
                max_retries=0,  # retries are ours: counted, with the breaker in the loop
            )
        return self._client

    def tokens_left_today(self) -> int | None:
        with self._lock:
            return self._left()

    def _left(self) -> int | None:
        limit = self.config.max_tokens_per_day
        if limit is None:
            return None
        today = datetime.now(UTC).strftime("%Y-%m-%d")
        if today != self._day:
            self._day, self._used_today = today, 0
        return max(limit - self._used_today, 0)

    def _admit(self, estimate: int) -> JudgeSkip | None:
        """Check the breaker, the rate and the budget; reserve the estimate when admitted."""
        with self._lock:
            if not self._breaker.allow():
                return "circuit_open"
            limit = self.config.max_calls_per_minute
            now = self._clock()
            while self._recent and now - self._recent[0] >= 60.0:
                self._recent.popleft()
            if limit is not None and len(self._recent) >= limit:
                self._undo_probe()
                return "rate_limited"
            left = self._left()
            if left is not None and estimate > left:
                self._undo_probe()
                return "over_budget"
            self._recent.append(now)
            self._used_today += estimate
            return None

    def _undo_probe(self) -> None:
        """A probe the breaker let through that never went out: the next call may probe."""
        self._breaker.probing = False

    def _settle(self, estimate: int, used: int, ok: bool | None) -> int | None:
        """Replace the reserved estimate with the tokens used; record success or failure
        with the breaker (None: neither, an unparseable reply from a working server)."""
        with self._lock:
            self._used_today += used - estimate
            if ok is not None:
                self._breaker.record(ok)
            elif self._breaker.probing:
                self._breaker.record(True)
            return self._left()

    def ask(self, messages: list[dict[str, str]], verdicts: tuple[str, str]) -> Answer:
        """One question to the judge; never raises."""
        estimate = sum(len(m["content"]) for m in messages) // CHARS_PER_TOKEN
        estimate += self.config.max_output_tokens
        refused = self._admit(estimate)
        if refused is not None:
            return Answer(None, refused, tokens_left_today=self.tokens_left_today())
        started = self._clock()
        reply, skipped = self._call(messages, verdicts)
        latency_ms = (self._clock() - started) * 1000
        if reply is None:
            left = self._settle(estimate, 0, ok=False)
            return Answer(None, skipped, latency_ms=latency_ms, tokens_left_today=left)
        text, input_tokens, output_tokens = reply
        parsed = parse_verdict(text)
        left = self._settle(estimate, input_tokens + output_tokens, ok=True if parsed else None)
        return Answer(
            parsed,
            None if parsed else "unparseable",
            input_tokens,
            output_tokens,
            latency_ms,
            left,
        )

    def _call(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str]
    ) -> tuple[tuple[str, int, int] | None, JudgeSkip | None]:
        """(text, input tokens, output tokens), or None with why: retried with backoff on
        connection errors, 429 and 5xx; a timeout ends it at once."""
        import openai

        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": self.config.max_output_tokens,
        }
        if self.config.response_format == "json_schema":
            schema = verdict_schema(verdicts, self.config.max_output_tokens)
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "verdict", "schema": schema},
            }
        retryable = (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError)
        for attempt in range(self.config.retries + 1):
            with self._span() as span:
                try:
                    response = self.client.chat.completions.create(**request)
                except openai.APITimeoutError:
                    _failed(span, "timeout")
                    return None, "timeout"
                except retryable as error:
                    _failed(span, type(error).__name__)
                    logger.info("ragguard judge: attempt %d failed: %s", attempt + 1, error)
                except Exception as error:  # a 4xx, a malformed reply: retrying will not help
                    _failed(span, type(error).__name__)
                    logger.warning("ragguard judge: call failed: %s", error)
                    return None, "unavailable"
                else:
                    usage = response.usage
                    tokens = (usage.prompt_tokens, usage.completion_tokens) if usage else (0, 0)
                    if span is not None:
                        span.set_attribute("gen_ai.usage.input_tokens", tokens[0])
                        span.set_attribute("gen_ai.usage.output_tokens", tokens[1])
                    content = response.choices[0].message.content if response.choices else None
                    return (content or "", *tokens), None
            if attempt < self.config.retries:
                self._sleep(self.config.backoff_s * 2**attempt * (0.5 + random.random()))
        return None, "unavailable"

    @contextlib.contextmanager
    def _span(self) -> Iterator[Any]:
        """An OTel client span for one HTTP call (None without opentelemetry)."""
        try:
            from opentelemetry import trace
        except ImportError:
            yield None
            return
        model = self.config.model
        address = urlsplit(self.config.base_url or "https://api.openai.com/v1")
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.system": "openai",
            "gen_ai.request.model": model,
            "gen_ai.request.max_tokens": self.config.max_output_tokens,
            "gen_ai.request.temperature": 0.0,
            "server.address": address.hostname or "",
        }
        if address.port:
            attributes["server.port"] = address.port
        tracer = trace.get_tracer("ragguard.judge", tracer_provider=self.tracer_provider)
        with tracer.start_as_current_span(
            f"chat {model}", kind=trace.SpanKind.CLIENT, attributes=attributes
        ) as span:
            yield span


def _failed(span: Any, error_type: str) -> None:
    if span is not None:
        from opentelemetry.trace import StatusCode

        span.set_attribute("error.type", error_type)
        span.set_status(StatusCode.ERROR, error_type)
