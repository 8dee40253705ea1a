"""The judge's transport: one attempt at one OpenAI-compatible chat call, and what came back.

The deadline covers the whole attempt, however slowly the reply trickles in, and the reply's
size is capped (``transport``). An attempt either returns a ``JudgeReply`` or says why not:
out of time, worth another try (connection refused, HTTP 429 or 5xx), or hopeless (a 4xx, a
reply that is no chat completion or is too large). Retries, the breaker, the rate and the
budget are the guards around it (``judge/guards.py``, ``judge/client.py``). Error text that
reaches the log has the API key and bearer tokens removed (``redact``): a server or a proxy
may echo the request's headers in its error body.

Each attempt is an OpenTelemetry client span (when opentelemetry is installed) with the
GenAI attributes: ``gen_ai.operation.name = "chat"``, ``gen_ai.request.model``,
``gen_ai.usage.input_tokens`` / ``output_tokens``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from ragguard.config import JudgeConfig
from ragguard.judge.prompts import inert, verdict_schema
from ragguard.judge.tokens import reported
from ragguard.schema import (
    ERROR_TYPE,
    GEN_AI_OPERATION_NAME,
    GEN_AI_PROVIDER_NAME,
    GEN_AI_REQUEST_MAX_TOKENS,
    GEN_AI_REQUEST_MODEL,
    GEN_AI_REQUEST_TEMPERATURE,
    GEN_AI_SYSTEM,
    GEN_AI_USAGE_INPUT_TOKENS,
    GEN_AI_USAGE_OUTPUT_TOKENS,
    SERVER_ADDRESS,
    SERVER_PORT,
    JudgeSkip,
)

logger = logging.getLogger(__name__)

TOP_LOGPROBS = 10
"""Alternatives asked for the score question's one token (OpenAI allows up to 20)."""


@dataclass(frozen=True)
class JudgeReply:
    """What came back from one call to the judge."""

    text: str
    input_tokens: int | None
    """As reported (None: not reported, or not believable)."""
    output_tokens: int | None
    top: list[tuple[str, float]] | None = None
    """The first generated token's alternatives and log-probabilities, when returned."""
    prompt_evaluated: int | None = None


@dataclass(frozen=True)
class Attempt:
    """One attempt's outcome: a reply, or why there is none."""

    reply: JudgeReply | None
    failed: JudgeSkip | Literal["retry"] | None = None
    error: str = ""
    """The error, redacted for the log."""


@dataclass(frozen=True)
class Request:
    """One call's body and the bounds a believable reported usage lies within."""

    body: dict[str, Any]
    input_bound: int
    output_bound: int


class Endpoint:
    """An OpenAI-compatible endpoint, or the local backend's llama.cpp server."""

    def __init__(self, config: JudgeConfig, tracer_provider: Any = None) -> None:
        self.config = config
        self.tracer_provider = tracer_provider
        """Where the call spans go; None: the application's global provider."""
        self._client: Any = None
        self._building = threading.Lock()
        """Held while the client is built: the cascade's first calls come from several
        threads at once."""
        self.special: tuple[str, ...] = ()
        """The local model's own special tokens, made inert in the user message (the
        untrusted fields) of every request; none for a remote endpoint."""

    @property
    def started(self) -> bool:
        return self._client is not None

    @property
    def client(self) -> Any:
        """The ``openai.OpenAI`` client (built on first use; needs the ``judge`` extra), on a
        transport that bounds each call in total and caps the reply's size; the local
        backend starts its server here."""
        with self._building:
            if self._client is None:
                self._client = self._build()
        return self._client

    def _build(self) -> Any:
        """The client, built once, on one thread. The OpenAI SDK builds its pydantic
        models on first use by default, and pydantic's rebuild is not thread-safe: a Ray
        actor's concurrent first calls once failed with "BaseModel cannot be instantiated
        directly". So they are built at import here (``DEFER_PYDANTIC_BUILD``, unless the
        application set it or imported the SDK first)."""
        if "openai" not in sys.modules:
            os.environ.setdefault("DEFER_PYDANTIC_BUILD", "false")
        from openai import OpenAI

        from ragguard.judge import transport

        base_url, api_key = self.config.base_url, self.api_key() or "no-key"
        if self.config.backend == "local":
            from ragguard.judge.local import server

            started = server(self.config)
            base_url, api_key = started.base_url, started.api_key
            self.special = started.special
        return OpenAI(
            base_url=base_url,
            api_key=api_key,
            timeout=self.config.timeout_s,
            max_retries=0,  # retries are ours: counted, with the breaker in the loop
            http_client=transport.client(self.config.max_reply_bytes, self.config.timeout_s),
        )

    def api_key(self) -> str:
        if self.config.backend == "local":
            return ""
        return os.environ.get(self.config.api_key_env, "")

    def redacted(self, text: str) -> str:
        """``text`` (an error, perhaps quoting a server's reply) fit for a log line."""
        return redact(text, self.api_key())

    @property
    def model_name(self) -> str:
        """The model as requests and spans name it (a local GGUF by its file name)."""
        if self.config.backend == "local":
            from ragguard.judge.local import alias

            return alias(self.config)
        return self.config.model

    def request(
        self, messages: list[dict[str, str]], verdicts: tuple[str, str], score: bool
    ) -> Request:
        """The call's body: the score question asks for one token and its probabilities;
        the verdict question for a reply in the verdict schema where configured."""
        if self.special:  # llama.cpp reads special-token text in a prompt as the token
            messages = [
                {**m, "content": inert(m["content"], self.special)} if m["role"] == "user" else m
                for m in messages
            ]
        body: dict[str, Any] = {
            "model": self.model_name,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": 1 if score else self.config.max_output_tokens,
        }
        if self.config.backend == "local":  # llama.cpp's own key: keep the evaluated prefix
            body["extra_body"] = {"cache_prompt": True}
        if score:
            body["logprobs"], body["top_logprobs"] = True, TOP_LOGPROBS
        elif self.config.response_format == "json_schema":
            schema = verdict_schema(verdicts, self.config.max_output_tokens)
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "verdict", "schema": schema},
            }
        return Request(
            body,
            sum(len(m["content"].encode()) + 64 for m in messages) + 1024,
            4 * body["max_tokens"] + 1024,
        )

    def attempt(self, request: Request) -> Attempt:
        """One attempt within ``timeout_s`` in total; never raises."""
        from ragguard.judge.transport import deadline

        with self._span() as span, deadline(self.config.timeout_s) as guard:
            try:
                response = self.client.chat.completions.create(**request.body)
                reply = read_reply(response, request.input_bound, request.output_bound)
            except Exception as error:
                why = _failure(error, guard.expired, guard.too_large)
                _failed(span, "timeout" if why == "timeout" else type(error).__name__)
                message = self.redacted(str(error))
                if why == "unavailable":
                    logger.warning("ragguard judge: call failed: %s", message)
                return Attempt(None, why, message)
            if span is not None:
                span.set_attribute(GEN_AI_USAGE_INPUT_TOKENS, reply.input_tokens or 0)
                span.set_attribute(GEN_AI_USAGE_OUTPUT_TOKENS, reply.output_tokens or 0)
            return Attempt(reply)

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
            GEN_AI_OPERATION_NAME: "chat",
            GEN_AI_PROVIDER_NAME: "openai",
            GEN_AI_SYSTEM: "openai",
            GEN_AI_REQUEST_MODEL: model,
            GEN_AI_REQUEST_MAX_TOKENS: self.config.max_output_tokens,
            GEN_AI_REQUEST_TEMPERATURE: 0.0,
            SERVER_ADDRESS: address.hostname or "",
        }
        if address.port:
            attributes[SERVER_PORT] = address.port
        tracer = trace.get_tracer("ragguard.judge", tracer_provider=self.tracer_provider)
        with tracer.start_as_current_span(
            f"chat {model}", kind=trace.SpanKind.CLIENT, attributes=attributes
        ) as span:
            yield span


def read_reply(response: Any, input_bound: int, output_bound: int) -> JudgeReply:
    """The reply text, the usage reported within the bounds and the first token's
    log-probabilities; TypeError for a body that is no chat completion (a proxy's HTML
    page, a bare string)."""
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list):
        raise TypeError(f"not a chat completion: {type(response).__name__}")
    content = choices[0].message.content if choices else None
    usage = getattr(response, "usage", None)
    tokens = [
        reported(getattr(usage, field, None), bound) if usage is not None else None
        for field, bound in (("prompt_tokens", input_bound), ("completion_tokens", output_bound))
    ]
    for field, value, kept in zip(("prompt", "completion"), _usage(usage), tokens, strict=True):
        if value is not None and kept is None:
            logger.warning("ragguard judge: refused reported %s_tokens %r", field, value)
    timings = getattr(response, "timings", None)  # llama.cpp's extra field
    evaluated = (
        reported(timings.get("prompt_n"), input_bound) if isinstance(timings, dict) else None
    )
    return JudgeReply(
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


def _failure(error: Exception, expired: bool, too_large: bool) -> JudgeSkip | Literal["retry"]:
    """What a failed attempt means: out of time, worth another try, or hopeless."""
    import openai

    retryable = (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError)
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

        span.set_attribute(ERROR_TYPE, error_type)
        span.set_status(StatusCode.ERROR, error_type)
