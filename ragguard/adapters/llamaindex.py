"""LlamaIndex front end: instrumentation handlers that capture each top-level query, chat,
retrieve or workflow run (an agent's) as one trace; ``wrap_engine`` returns one of the
proxies of ``llamaindex_proxies``.

LlamaIndex's events carry data (retrieved nodes, LLM outputs) and a span id; its spans
carry structure (which call a span belongs to). ``RagguardEventHandler`` reads the first
with the help of a span handler for the second, as LlamaIndex's own tracers do; ``attach()``
installs both. A wrapped engine is a transparent proxy (``isinstance`` and every attribute
hold) whose entry points mark their call so the handlers know which spans are its own.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import AsyncIterator, Hashable, Iterator
from functools import partial
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ChatResponse, CompletionResponse
from llama_index.core.base.response.schema import AsyncStreamingResponse, StreamingResponse
from llama_index.core.chat_engine.types import StreamingAgentChatResponse
from llama_index.core.instrumentation import Dispatcher, get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.events.chat_engine import (
    StreamChatEndEvent,
    StreamChatErrorEvent,
)
from llama_index.core.instrumentation.events.llm import LLMChatEndEvent, LLMCompletionEndEvent
from llama_index.core.instrumentation.events.retrieval import (
    RetrievalEndEvent,
    RetrievalStartEvent,
)
from llama_index.core.instrumentation.span_handlers import BaseSpanHandler
from llama_index.core.schema import ImageNode, MetadataMode, NodeWithScore
from llama_index.core.workflow import StopEvent
from pydantic import BaseModel, PrivateAttr

from ragguard.adapters.capture import Recorder, Request, guarded, make_item
from ragguard.adapters.llamaindex_proxies import CALL, PROXIES, Call, annotate
from ragguard.live import Monitor, OnEvaluation
from ragguard.schema import Item

ENTRY_POINTS = frozenset(
    (
        *("query", "aquery", "chat", "achat", "stream_chat", "astream_chat"),
        *("retrieve", "aretrieve", "run"),
    )
)
"""The methods whose top-level call is one request, when capturing every engine (``run``:
a workflow, such as an agent, from its start event to its stop event)."""
_ROOT_TYPES = tuple(base for base, _ in PROXIES)


def node_item(node: NodeWithScore) -> Item:
    """An Item named after the node's source document when it has one (the id a user
    knows), with the node's own id kept in ``metadata["node_id"]``."""
    inner = node.node
    metadata = dict(inner.metadata)
    if inner.ref_doc_id:
        metadata.setdefault("node_id", inner.node_id)
    if isinstance(inner, ImageNode):
        inline = inner.image and f"data:{inner.image_mimetype or 'image/*'};base64,{inner.image}"
        metadata.setdefault("image", inner.image_path or inner.image_url or inline)
    text = inner.get_content(metadata_mode=MetadataMode.NONE)
    return make_item(inner.ref_doc_id or inner.node_id, text or None, metadata, node.score)


def _query_text(value: Any) -> str | None:
    """A query as LlamaIndex passes it: a string, a QueryBundle or a ChatMessage."""
    if isinstance(value, str):
        return value
    for attribute in ("query_str", "content"):
        found = getattr(value, attribute, None)
        if isinstance(found, str):
            return found
    return None


def _call_query(arguments: dict[str, Any]) -> str | None:
    """The query of a call: its first argument, or for a workflow run the ``user_msg`` (an
    agent's) or ``query`` of its start event."""
    start = arguments.get("start_event")
    if start is None:
        return _query_text(next(iter(arguments.values()), None))
    return _query_text(getattr(start, "user_msg", None)) or _query_text(
        getattr(start, "query", None)
    )


def _answer_text(result: Any) -> str:
    """The text of a Response / AgentChatResponse / PydanticResponse, of an agent's
    AgentOutput (its response message) or of a workflow's text result; "" for a
    retrieval."""
    if isinstance(result, StopEvent):
        result = result.result
    if isinstance(result, str):
        return result
    answer = getattr(result, "response", None)
    if isinstance(answer, ChatMessage):
        return answer.content or ""
    if isinstance(answer, BaseModel):
        return answer.model_dump_json()
    return answer if isinstance(answer, str) else ""


class _Capture:
    """The state both handlers share."""

    def __init__(self, monitor: Monitor, on_evaluation: OnEvaluation | None, auto: bool) -> None:
        self.monitor = monitor
        self.on_evaluation = on_evaluation
        self.auto = auto
        self.recorder = Recorder(monitor.live.max_open_requests)

    @guarded
    def enter(
        self, span_id: str, bound_args: inspect.BoundArguments, instance: Any, parent: str | None
    ) -> None:
        if self.recorder.link(span_id, parent) is not None:
            return
        call = CALL.get()
        if call is not None:
            if self.auto or call.request is not None:
                return  # the proxy's own handler captures it; spans after its root are its
            call.request = self._begin(span_id, bound_args, call.monitor, call.on_evaluation, call)
        elif self.auto and isinstance(instance, _ROOT_TYPES) and _method(span_id) in ENTRY_POINTS:
            self._begin(span_id, bound_args, self.monitor, self.on_evaluation, None)

    def _begin(
        self,
        span_id: str,
        bound_args: inspect.BoundArguments,
        monitor: Monitor,
        on_evaluation: OnEvaluation | None,
        call: Call | None,
    ) -> Request:
        request = Request(
            span_id,
            monitor,
            node_item,
            on_evaluation=on_evaluation,
            context=call,
            sampled=monitor.sample(),
        )
        if request.sampled:
            request.query = _call_query(bound_args.arguments)
        return self.recorder.begin(request)

    @guarded
    def exit(self, span_id: str, result: Any) -> None:
        request = self.recorder.get(span_id)
        if request is None or request.root != span_id:
            return
        if not request.sampled:
            self.recorder.end(request)
            return
        if isinstance(result, list):  # a retriever's nodes
            request.sources = result
        else:
            request.sources = getattr(result, "source_nodes", None)
        if isinstance(result, StreamingResponse):
            self.recorder.end(request)  # the stream carries it from here
            result.response_gen = _tee(request, result.response_gen)
            return
        if isinstance(result, AsyncStreamingResponse):
            self.recorder.end(request)
            result.response_gen = _atee(request, result.response_gen)
            return
        request.output = result
        if isinstance(result, StreamingAgentChatResponse):
            # read by LlamaIndex's writer thread inside the call's spans, which signals
            # its end with StreamChatEndEvent (perhaps before this return)
            if request.rendezvous():
                self.finish(request)
            return
        self.finish(request)

    @guarded
    def drop(self, span_id: str) -> None:
        request = self.recorder.get(span_id)
        if request is not None and request.root == span_id:
            self.recorder.end(request)

    @guarded
    def event(self, event: BaseEvent) -> None:
        request = self.recorder.get(event.span_id)
        if request is None or not request.sampled:
            return
        if isinstance(event, RetrievalStartEvent):
            request.start_retrieval(event.span_id, _query_text(event.str_or_query_bundle))
        elif isinstance(event, RetrievalEndEvent):
            request.end_retrieval(event.span_id, event.nodes)
        elif isinstance(event, LLMChatEndEvent | LLMCompletionEndEvent):
            response = event.response
            if isinstance(response, CompletionResponse):
                request.llm_text = response.text
            elif isinstance(response, ChatResponse):
                request.llm_text = response.message.content or ""
        elif isinstance(event, StreamChatEndEvent):
            if request.rendezvous():
                self.finish(request)
        elif isinstance(event, StreamChatErrorEvent):
            self.recorder.end(request)

    def finish(self, request: Request) -> None:
        self.recorder.end(request)
        request.answer = _answer_text(request.output) or request.llm_text or ""
        call = request.context
        if call is not None and call.take(request):
            return  # the proxy submits it when its call returns
        # inside LlamaIndex's dispatcher, which swallows errors: guard mode flags instead
        request.submit(annotate=partial(annotate, request.output), can_raise=False)


def _tee(request: Request, tokens: Iterator[str]) -> Iterator[str]:
    """A query engine's token stream as the caller reads it: LlamaIndex generates it lazily,
    outside the call's spans, so the answer is assembled here and checked when it ends (a
    guard refusal is raised from the stream)."""
    parts = []
    for token in tokens:
        parts.append(token)
        yield token
    request.answer = "".join(parts)
    refusal = request.submit()
    if refusal:
        raise refusal


async def _atee(request: Request, tokens: AsyncIterator[str]) -> AsyncIterator[str]:
    """``_tee`` for an async stream."""
    parts = []
    async for token in tokens:
        parts.append(token)
        yield token
    request.answer = "".join(parts)
    refusal = await request.asubmit()
    if refusal:
        raise refusal


def _method(span_id: Hashable) -> str:
    """``RetrieverQueryEngine.query-<uuid>`` -> ``query``."""
    return str(span_id).split("-", 1)[0].rsplit(".", 1)[-1]


class _SpanTracker(BaseSpanHandler[Any]):
    """Feeds span structure to the shared capture; keeps no spans of its own."""

    _capture: _Capture = PrivateAttr()

    def __init__(self, capture: _Capture) -> None:
        super().__init__(open_spans={}, completed_spans=[], dropped_spans=[], current_span_ids={})
        self._capture = capture

    @classmethod
    def class_name(cls) -> str:
        return "RagguardSpanTracker"

    # LlamaIndex passes every argument by keyword; the ones ragguard reads are named
    def new_span(
        self, id_: str, bound_args: inspect.BoundArguments, instance: Any = None, **kwargs: Any
    ) -> None:
        self._capture.enter(id_, bound_args, instance, kwargs.get("parent_span_id"))

    def prepare_to_exit_span(self, id_: str, result: Any = None, **kwargs: Any) -> None:
        self._capture.exit(id_, result)

    def prepare_to_drop_span(self, id_: str, **kwargs: Any) -> None:
        self._capture.drop(id_)


class RagguardEventHandler(BaseEventHandler):
    """Captures every top-level query engine, chat engine and retriever call in the process
    (``auto=True``) or only calls made through ``wrap()`` proxies (``auto=False``, which is
    how ``wrap`` installs it). Use it directly with::

        RagguardEventHandler(on_evaluation=print).attach()

    LlamaIndex's dispatcher swallows handler errors, so guard mode's ``raise`` needs
    ``wrap()``; here a failing answer is flagged.
    """

    _capture: _Capture = PrivateAttr()
    _tracker: _SpanTracker = PrivateAttr()

    def __init__(
        self,
        monitor: Monitor | None = None,
        *,
        on_evaluation: OnEvaluation | None = None,
        auto: bool = True,
    ) -> None:
        super().__init__()
        self._capture = _Capture(monitor or Monitor.shared(), on_evaluation, auto)
        self._tracker = _SpanTracker(self._capture)

    @classmethod
    def class_name(cls) -> str:
        return "RagguardEventHandler"

    @property
    def monitor(self) -> Monitor:
        return self._capture.monitor

    def attach(self, dispatcher: Dispatcher | None = None) -> RagguardEventHandler:
        """Install this handler and its span tracker on ``dispatcher`` (default: root)."""
        dispatcher = dispatcher or get_dispatcher()
        dispatcher.add_event_handler(self)
        dispatcher.add_span_handler(self._tracker)
        return self

    def detach(self, dispatcher: Dispatcher | None = None) -> None:
        """Remove what ``attach`` installed."""
        dispatcher = dispatcher or get_dispatcher()
        dispatcher.event_handlers = [h for h in dispatcher.event_handlers if h is not self]
        dispatcher.span_handlers = [h for h in dispatcher.span_handlers if h is not self._tracker]

    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        self._capture.event(event)


_INSTALL_LOCK = threading.Lock()
_installed: RagguardEventHandler | None = None


def _install() -> None:
    """One proxy-only handler for all wrapped engines (attached once, never per wrap)."""
    global _installed
    with _INSTALL_LOCK:
        if _installed is None:
            _installed = RagguardEventHandler(auto=False).attach()


def is_wrappable(target: Any) -> bool:
    return isinstance(target, _ROOT_TYPES)


def wrap_engine(target: Any, monitor: Monitor, on_evaluation: OnEvaluation | None = None) -> Any:
    """A proxy for a query engine, chat engine, retriever or workflow: same type for
    ``isinstance``, same attributes, same return values."""
    _install()
    proxy = next(p for base, p in PROXIES if isinstance(target, base))
    return proxy(target, monitor, on_evaluation)
