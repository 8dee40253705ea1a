"""The judge's transport: one OpenAI-compatible chat call per question, within limits.

Every guard is local and cheap, checked before a call goes out: a circuit breaker (after
``breaker_failures`` failed calls in a row, no call for ``breaker_cooldown_s``, then one
probe), a sliding-minute call limit and a daily token budget (estimated before the call,
settled after it with the larger of the tokens counted here, in what was sent and received,
and the usage the server reports; a reported usage that is negative, not a whole number or
beyond what the text could hold is refused and logged, so a server that reports nothing
or nonsense cannot spend the budget unseen). A call that fails (connection refused, HTTP 429 or
5xx) is retried with exponential backoff and jitter; a timeout is not retried, so one
question never costs more than ``timeout_s`` of waiting on a slow judge: the deadline covers
the whole attempt, however slowly the reply trickles in, and the reply's size is capped
(``transport``). Whatever happens, ``ask`` returns an ``Answer`` with the reason it has no
verdict: it never raises. Error text that reaches the log, and a reply's rationale (it goes
to the trace log), have the API key and bearer tokens removed (``redact``): a server or a
proxy may echo the request's headers in its error body or its reply.

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
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from ragguard.config import JudgeConfig
from ragguard.judge.parse import Parsed, parse_verdict, score_of
from ragguard.judge.prompts import fence_of, verdict_schema
from ragguard.schema import JudgeSkip
from ragguard.schema import otel_names as names

logger = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4
"""ASCII characters per token in the local count (every other character counts as one)."""
MESSAGE_OVERHEAD = 8
"""Tokens a chat template adds around each message, in the local count."""
TOP_LOGPROBS = 10
"""Alternatives asked for the score question's one token (OpenAI allows up to 20)."""


def count_tokens(text: str) -> int:
    """A local, deliberately generous count of the tokens in ``text``: tokenizers give
    English about 4 characters a token, and one token or more to most other characters."""
    ascii_chars = sum(1 for c in text if c < "\x80")
    return -(-ascii_chars // CHARS_PER_TOKEN) + (len(text) - ascii_chars)


def sent_tokens(messages: list[dict[str, str]]) -> int:
    """The tokens of a request's messages, counted here (the server may report none)."""
    return sum(count_tokens(m["content"]) + MESSAGE_OVERHEAD for m in messages)


def reported(value: Any, bound: int) -> int | None:
    """A usage figure the server reported, if believable: a whole number in [0, bound]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value != value or not 0 <= value <= bound or int(value) != value:
        return None
    return int(value)


@dataclass(frozen=True)
class Answer:
    """One question's outcome: a verdict, or why there is none (``skipped``)."""

    parsed: Parsed | None
    skipped: JudgeSkip | None
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    tokens_left_today: int | None = None
    score: float | None = None
    """P(supported) from the score question's token probabilities; None for a verdict
    read from text (the endpoint returned no probabilities, or ``score = "verdict"``)."""
    prompt_evaluated: int | None = None
    """Prompt tokens the server computed, the rest served from its prompt cache (llama.cpp
    reports it; None where the server does not say)."""

    @property
    def called(self) -> bool:
        """A reply came back (tokens were spent), whether or not it held a verdict."""
        return self.skipped is None or self.skipped == "unparseable"


@dataclass(frozen=True)
class Reply:
    """What came back from one call."""

    text: str
    input_tokens: int | None
    """As reported (None: not reported, or not believable)."""
    output_tokens: int | None
    top: list[tuple[str, float]] | None = None
    """The first generated token's alternatives and log-probabilities, when returned."""
    prompt_evaluated: int | None = None


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
        self._start_failed = False
        self.scores_returned: bool | None = None
        """Whether the endpoint returns token probabilities: None until a score question
        has been answered; False switches this client's questions to the verdict."""

    @property
    def client(self) -> Any:
        """The ``openai.OpenAI`` client (built on first use; needs the ``judge`` extra), on a
        transport that bounds each call in total and caps the reply's size."""
        if self._client is None:
            from openai import OpenAI

            from ragguard.judge import transport

            base_url, api_key = self.config.base_url, self._api_key() or "no-key"
            if self.config.backend == "local":
                from ragguard.judge.local import server

                started = server(self.config)
                base_url, api_key = started.base_url, started.api_key
            self._client = OpenAI(
                base_url=base_url,
                api_key=api_key,
                timeout=self.config.timeout_s,
                max_retries=0,  # retries are ours: counted, with the breaker in the loop
                http_client=transport.client(self.config.max_reply_bytes, self.config.timeout_s),
            )
        return self._client

    def start(self) -> bool:
        """Build the client now, outside any call's deadline: the local backend loads its
        model here (seconds). False, logged once, when it cannot (the spans keep their lite
        verdicts, ``unavailable``)."""
        if self._client is not None:
            return True
        try:
            _ = self.client
        except Exception as error:  # the engine or the model missing: never raised
            if not self._start_failed:
                logger.warning("ragguard judge: %s", self._redacted(str(error)))
            self._start_failed = True
            return False
        return True

    def _api_key(self) -> str:
        if self.config.backend == "local":
            return ""
        return os.environ.get(self.config.api_key_env, "")

    @property
    def model_name(self) -> str:
        """The model as requests and spans name it (a local GGUF by its file name)."""
        if self.config.backend == "local":
            from ragguard.judge.local import alias

            return alias(self.config)
        return self.config.model

    @property
    def asks_score(self) -> bool:
        """Whether questions go as the score question (see ``JudgeConfig.score``)."""
        return self.config.score == "auto" and self.scores_returned is not False

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

    def ask(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str], *, score: bool = False
    ) -> Answer:
        """One question to the judge; never raises. ``score``: ``messages`` are the
        one-word score question (``prompts.fenced_prompt(question=...)``), asked for one
        token and its probabilities."""
        if not self.start():
            return Answer(None, "unavailable", tokens_left_today=self.tokens_left_today())
        sent = sent_tokens(messages)
        limit = 1 if score else self.config.max_output_tokens
        estimate = sent + limit
        refused = self._admit(estimate)
        if refused is not None:
            return Answer(None, refused, tokens_left_today=self.tokens_left_today())
        started = self._clock()
        try:
            reply, skipped = self._call(messages, verdicts, score)
        except Exception as error:  # a bug or a reply no one foresaw: counted, never raised
            logger.warning("ragguard judge: call failed: %s", self._redacted(repr(error)))
            reply, skipped = None, "unavailable"
        latency_ms = (self._clock() - started) * 1000
        if reply is None:
            left = self._settle(estimate, 0, ok=False)
            return Answer(None, skipped, latency_ms=latency_ms, tokens_left_today=left)
        input_tokens = max(sent, reply.input_tokens or 0)
        output_tokens = max(count_tokens(reply.text), reply.output_tokens or 0)
        parsed, value = self._read(reply, messages, score)
        used = input_tokens + output_tokens
        left = self._settle(estimate, used, ok=True if parsed else None)
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

    def _read(
        self, reply: Reply, messages: list[dict[str, str]], score: bool
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
            parsed = replace(parsed, rationale=self._redacted(parsed.rationale))
        return parsed, None

    def _redacted(self, text: str) -> str:
        """``text`` (an error, perhaps quoting a server's reply) fit for a log line."""
        return redact(text, self._api_key())

    def _call(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str], score: bool
    ) -> tuple[Reply | None, JudgeSkip | None]:
        """The reply, or None with why: retried with backoff on connection errors, 429 and
        5xx; a timeout or an oversized reply ends it at once."""
        import openai

        from ragguard.judge.transport import deadline

        request: dict[str, Any] = {
            "model": self.model_name,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": 1 if score else self.config.max_output_tokens,
        }
        if self.config.backend == "local":  # llama.cpp's own key: keep the evaluated prefix
            request["extra_body"] = {"cache_prompt": True}
        bounds = (
            sum(len(m["content"].encode()) + 64 for m in messages) + 1024,
            4 * request["max_tokens"] + 1024,
        )
        if score:
            request["logprobs"], request["top_logprobs"] = True, TOP_LOGPROBS
        elif self.config.response_format == "json_schema":
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
                    reply = _reply(response, bounds)
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
                        span.set_attribute(names.GEN_AI_USAGE_INPUT_TOKENS, reply.input_tokens or 0)
                        span.set_attribute(
                            names.GEN_AI_USAGE_OUTPUT_TOKENS, reply.output_tokens or 0
                        )
                    return reply, None
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
        model = self.model_name
        url = "http://127.0.0.1/v1" if self.config.backend == "local" else self.config.base_url
        address = urlsplit(url or "https://api.openai.com/v1")
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


def _reply(response: Any, bounds: tuple[int, int]) -> Reply:
    """The reply text, the usage reported within ``bounds`` (input, output) and the first
    token's log-probabilities; TypeError for a body that is no chat completion (a proxy's
    HTML page, a bare string)."""
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list):
        raise TypeError(f"not a chat completion: {type(response).__name__}")
    content = choices[0].message.content if choices else None
    usage = getattr(response, "usage", None)
    tokens = [
        reported(getattr(usage, field, None), bound) if usage is not None else None
        for field, bound in zip(("prompt_tokens", "completion_tokens"), bounds, strict=True)
    ]
    for field, value, kept in zip(("prompt", "completion"), _usage(usage), tokens, strict=True):
        if value is not None and kept is None:
            logger.warning("ragguard judge: refused reported %s_tokens %r", field, value)
    timings = getattr(response, "timings", None)  # llama.cpp's extra field
    evaluated = reported(timings.get("prompt_n"), bounds[0]) if isinstance(timings, dict) else None
    return Reply(
        content if isinstance(content, str) else "",
        tokens[0],
        tokens[1],
        _top(choices[0] if choices else None),
        evaluated,
    )


def _usage(usage: Any) -> tuple[Any, Any]:
    if usage is None:
        return None, None
    return getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)


def _top(choice: Any) -> list[tuple[str, float]] | None:
    """The first generated token's alternatives, (token, log-probability), if returned."""
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not isinstance(content, list) or not content:
        return None
    first = content[0]
    found = [
        (alt.token, float(alt.logprob))
        for alt in getattr(first, "top_logprobs", None) or []
        if isinstance(getattr(alt, "token", None), str)
        and isinstance(getattr(alt, "logprob", None), int | float)
    ]
    return found or None  # the chosen token alone gives no second word to weigh it with


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
