"""The proxies ``wrap()`` returns for LlamaIndex: the wrapped object, unchanged for
``isinstance`` and every attribute, except that its entry points mark their call, so the
handlers of ``adapters.llamaindex`` know which spans are its own and hand the finished
request back to the caller (guard mode raises a refusal there)."""

from __future__ import annotations

import threading
from contextvars import ContextVar
from functools import partial
from typing import Any

import wrapt
from llama_index.core.base.base_query_engine import BaseQueryEngine
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine.types import BaseChatEngine
from llama_index.core.workflow import Workflow

from ragguard.adapters.capture import Request
from ragguard.live import Monitor, OnEvaluation
from ragguard.schema import GuardResult


def annotate(result: Any, evaluation: GuardResult) -> None:
    """Attach the guard's result to a Response's metadata, or to an AgentOutput's response
    message (``additional_kwargs``)."""
    message = getattr(result, "response", None)
    if isinstance(message, ChatMessage):
        message.additional_kwargs["ragguard"] = evaluation
    elif hasattr(result, "metadata"):
        result.metadata = {**(result.metadata or {}), "ragguard": evaluation}


class Call:
    """A wrap() proxy's call in progress. While the proxy waits, the finished request is
    handed to it (so guard mode can raise to the caller); a stream that ends after the call
    returned is handled where it ends."""

    def __init__(self, monitor: Monitor, on_evaluation: OnEvaluation | None) -> None:
        self.monitor = monitor
        self.on_evaluation = on_evaluation
        self.request: Request | None = None
        self._waiting = True
        self._finished: Request | None = None
        self._lock = threading.Lock()

    def take(self, request: Request) -> bool:
        with self._lock:
            if self._waiting:
                self._finished = request
            return self._waiting

    def release(self) -> Request | None:
        """Stop waiting; the finished request, to submit, to the first caller only."""
        with self._lock:
            self._waiting = False
            finished, self._finished = self._finished, None
            return finished

    async def asettle(self, result: Any) -> Any:
        """After an async call returned ``result``: submit its request (guard mode waits
        here without blocking the loop) and raise a refusal, else hand ``result`` back."""
        finished = self.release()
        refusal = finished and await finished.asubmit(annotate=partial(annotate, result))
        if refusal:
            raise refusal
        return result


CALL: ContextVar[Call | None] = ContextVar("ragguard_llamaindex_call", default=None)


class _Proxy(wrapt.ObjectProxy):
    """The wrapped object, unchanged, except that its entry points mark their call."""

    def __init__(self, wrapped: Any, monitor: Monitor, on_evaluation: OnEvaluation | None) -> None:
        super().__init__(wrapped)
        self._self_monitor = monitor
        self._self_on_evaluation = on_evaluation

    def _self_call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        call = Call(self._self_monitor, self._self_on_evaluation)
        token = CALL.set(call)
        try:
            result = getattr(self.__wrapped__, name)(*args, **kwargs)
        finally:
            CALL.reset(token)
        finished = call.release()
        refusal = finished and finished.submit(annotate=partial(annotate, result))
        if refusal:
            raise refusal
        return result

    async def _self_acall(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        call = Call(self._self_monitor, self._self_on_evaluation)
        token = CALL.set(call)
        try:
            result = await getattr(self.__wrapped__, name)(*args, **kwargs)
        finally:
            CALL.reset(token)
        return await call.asettle(result)


class QueryEngineProxy(_Proxy):
    def query(self, *args: Any, **kwargs: Any) -> Any:
        return self._self_call("query", args, kwargs)

    async def aquery(self, *args: Any, **kwargs: Any) -> Any:
        return await self._self_acall("aquery", args, kwargs)


class ChatEngineProxy(_Proxy):
    def chat(self, *args: Any, **kwargs: Any) -> Any:
        return self._self_call("chat", args, kwargs)

    def stream_chat(self, *args: Any, **kwargs: Any) -> Any:
        return self._self_call("stream_chat", args, kwargs)

    async def achat(self, *args: Any, **kwargs: Any) -> Any:
        return await self._self_acall("achat", args, kwargs)

    async def astream_chat(self, *args: Any, **kwargs: Any) -> Any:
        return await self._self_acall("astream_chat", args, kwargs)


class RetrieverProxy(_Proxy):
    def retrieve(self, *args: Any, **kwargs: Any) -> Any:
        return self._self_call("retrieve", args, kwargs)

    async def aretrieve(self, *args: Any, **kwargs: Any) -> Any:
        return await self._self_acall("aretrieve", args, kwargs)


class WorkflowProxy(_Proxy):
    """A workflow (a FunctionAgent, ReActAgent, AgentWorkflow or your own): ``run`` starts
    it in tasks that inherit the call's mark, and returns at once with a handler. In the
    background the request is submitted when the run's span ends; in guard mode when the
    handler is awaited, which raises a refusal there."""

    def run(self, *args: Any, **kwargs: Any) -> Any:
        call = Call(self._self_monitor, self._self_on_evaluation)
        token = CALL.set(call)
        try:
            handler = self.__wrapped__.run(*args, **kwargs)
        finally:
            CALL.reset(token)
        if self._self_monitor.live.mode != "guard":
            call.release()  # nobody waits: the run's end submits it
            return handler
        return _GuardedHandler(handler, call)


class _GuardedHandler(wrapt.ObjectProxy):
    """A workflow run's handler (every attribute and ``stream_events`` as they are) whose
    ``await`` also waits for the guard's verdict and raises a refusal."""

    def __init__(self, handler: Any, call: Call) -> None:
        super().__init__(handler)
        self._self_call = call

    def __await__(self) -> Any:
        return self._self_result().__await__()

    async def _self_result(self) -> Any:
        return await self._self_call.asettle(await self.__wrapped__)


PROXIES: tuple[tuple[type, type[_Proxy]], ...] = (
    (BaseQueryEngine, QueryEngineProxy),
    (BaseChatEngine, ChatEngineProxy),
    (BaseRetriever, RetrieverProxy),
    (Workflow, WorkflowProxy),
)
