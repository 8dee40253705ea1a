"""The judge's transport: one OpenAI-compatible chat call per question, within limits.

Every guard is local and cheap, checked before a call goes out: a circuit breaker (after
``breaker_failures`` failed calls in a row, no call for ``breaker_cooldown_s``, then one
probe), a sliding-minute call limit and a daily token budget (estimated before the call,
settled with the reported usage after). A call that fails (connection refused, HTTP 429 or
5xx) is retried with exponential backoff and jitter; a timeout is not retried, so one
question never costs more than ``timeout_s`` of waiting on a slow judge: the deadline covers
the whole attempt, however slowly the reply trickles in, and the reply's size is capped
(``transport``). Whatever happens, ``ask`` returns an ``Answer`` with the reason it has no
verdict: it never raises. Error text that reaches the log has the API key and bearer tokens
removed (``redact``): a server may echo the request's headers in its error body.

Each call is an OpenTelemetry client span (when opentelemetry is installed) with the GenAI
attributes: ``gen_ai.operation.name = "chat"``, ``gen_ai.request.model``,
``gen_ai.usage.input_tokens`` / ``output_tokens``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from ragguard.config import JudgeConfig
from ragguard.judge.parse import Parsed, parse_verdict
from ragguard.judge.prompts import fence_of, verdict_schema
from ragguard.schema import JudgeSkip
from ragguard.schema import otel_names as names

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
        """The ``openai.OpenAI`` client (built on first use; needs the ``judge`` extra), on a
        transport that bounds each call in total and caps the reply's size."""
        if self._client is None:
            from openai import OpenAI

            from ragguard.judge import transport

            self._client = OpenAI(
                base_url=self.config.base_url,
                api_key=self._api_key() or "no-key",
                timeout=self.config.timeout_s,
                max_retries=0,  # retries are ours: counted, with the breaker in the loop
                http_client=transport.client(self.config.max_reply_bytes, self.config.timeout_s),
            )
        return self._client

    def _api_key(self) -> str:
        return os.environ.get(self.config.api_key_env, "")

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
        try:
            reply, skipped = self._call(messages, verdicts)
        except Exception as error:  # a bug or a reply no one foresaw: counted, never raised
            logger.warning("ragguard judge: call failed: %s", self._redacted(repr(error)))
            reply, skipped = None, "unavailable"
        latency_ms = (self._clock() - started) * 1000
        if reply is None:
            left = self._settle(estimate, 0, ok=False)
            return Answer(None, skipped, latency_ms=latency_ms, tokens_left_today=left)
        text, input_tokens, output_tokens = reply
        whole_json = self.config.response_format == "json_schema"
        parsed = parse_verdict(text, fence=fence_of(messages), whole_json=whole_json)
        left = self._settle(estimate, input_tokens + output_tokens, ok=True if parsed else None)
        return Answer(
            parsed,
            None if parsed else "unparseable",
            input_tokens,
            output_tokens,
            latency_ms,
            left,
        )

    def _redacted(self, text: str) -> str:
        """``text`` (an error, perhaps quoting a server's reply) fit for a log line."""
        return redact(text, self._api_key())

    def _call(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str]
    ) -> tuple[tuple[str, int, int] | None, JudgeSkip | None]:
        """(text, input tokens, output tokens), or None with why: retried with backoff on
        connection errors, 429 and 5xx; a timeout or an oversized reply ends it at once."""
        import openai

        from ragguard.judge.transport import deadline

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
            with self._span() as span, deadline(self.config.timeout_s) as guard:
                try:
                    response = self.client.chat.completions.create(**request)
                    content, tokens = _content(response)
                except Exception as error:
                    why = _failure(error, guard.expired, guard.too_large, retryable)
                    _failed(span, "timeout" if why == "timeout" else type(error).__name__)
                    message = self._redacted(str(error))
                    if why != "retry":
                        if why == "unavailable":
                            logger.warning("ragguard judge: call failed: %s", message)
                        return None, why
                    logger.info("ragguard judge: attempt %d failed: %s", attempt + 1, message)
                else:
                    if span is not None:
                        span.set_attribute(names.GEN_AI_USAGE_INPUT_TOKENS, tokens[0])
                        span.set_attribute(names.GEN_AI_USAGE_OUTPUT_TOKENS, tokens[1])
                    return (content, *tokens), None
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
            names.GEN_AI_OPERATION_NAME: "chat",
            names.GEN_AI_PROVIDER_NAME: "openai",
            names.GEN_AI_SYSTEM: "openai",
            names.GEN_AI_REQUEST_MODEL: model,
            names.GEN_AI_REQUEST_MAX_TOKENS: self.config.max_output_tokens,
            names.GEN_AI_REQUEST_TEMPERATURE: 0.0,
            names.SERVER_ADDRESS: address.hostname or "",
        }
        if address.port:
            attributes[names.SERVER_PORT] = address.port
        tracer = trace.get_tracer("ragguard.judge", tracer_provider=self.tracer_provider)
        with tracer.start_as_current_span(
            f"chat {model}", kind=trace.SpanKind.CLIENT, attributes=attributes
        ) as span:
            yield span


def _content(response: Any) -> tuple[str, tuple[int, int]]:
    """The reply text and (input, output) tokens; TypeError for a body that is no chat
    completion (a proxy's HTML page, a bare string)."""
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list):
        raise TypeError(f"not a chat completion: {type(response).__name__}")
    content = choices[0].message.content if choices else None
    usage = getattr(response, "usage", None)
    tokens = (int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0)) if usage else (0, 0)
    return (content if isinstance(content, str) else ""), tokens


def _failure(
    error: Exception, expired: bool, too_large: bool, retryable: tuple[type[Exception], ...]
) -> JudgeSkip | Literal["retry"]:
    """What a failed attempt means: out of time, worth another try, or hopeless."""
    import openai

    if expired or isinstance(error, openai.APITimeoutError):
        return "timeout"
    if too_large or not isinstance(error, retryable):
        return "unavailable"  # a 4xx, a malformed or oversized reply: retrying will not help
    return "retry"


_BEARER = re.compile(r"(?i)\b(bearer|token|api[_-]?key)([\s\"':=]+)[A-Za-z0-9._~+/=-]{8,}")
_KEYLIKE = re.compile(r"\b(sk|pk|rk|key)-[A-Za-z0-9_-]{12,}")
MAX_LOGGED = 500


def redact(text: str, key: str = "") -> str:
    """``text`` without the configured key, bearer tokens or key-shaped strings, and cut to
    ``MAX_LOGGED`` characters (a server may echo the request's headers in an error body)."""
    if len(key) >= 4:
        text = text.replace(key, "[redacted]")
    text = _BEARER.sub(lambda m: f"{m.group(1)}{m.group(2)}[redacted]", text)
    text = _KEYLIKE.sub("[redacted]", text)
    return text if len(text) <= MAX_LOGGED else text[:MAX_LOGGED] + "..."


def _failed(span: Any, error_type: str) -> None:
    if span is not None:
        from opentelemetry.trace import StatusCode

        span.set_attribute(names.ERROR_TYPE, error_type)
        span.set_status(StatusCode.ERROR, error_type)
