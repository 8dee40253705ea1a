"""LangChain front end: a callback handler that captures each top-level run as one trace.

``wrap()`` binds the handler to a Runnable (``with_config``), so the wrapped object is still
a Runnable with the same methods and return values, composable with ``|``. People who wire
callbacks themselves pass ``RagguardCallbackHandler()`` in ``config={"callbacks": [...]}``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar
from uuid import UUID, uuid4

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, convert_to_messages
from langchain_core.outputs import LLMResult
from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig
from langchain_core.runnables.config import ensure_config, get_config_list

from ragguard.adapters.capture import Recorder, Request, guarded, make_item
from ragguard.errors import UnsupportedAnswerError
from ragguard.live import Monitor, OnEvaluation
from ragguard.schema import GuardResult, Item

QUERY_KEYS = ("query", "question", "input", "messages")
ANSWER_KEYS = ("answer", "result", "output", "text", "response", "messages")
"""Where chains put the user's question and the answer (LCEL dicts, RetrievalQA,
create_retrieval_chain, agent executors, message-state agents)."""

RunnableT = TypeVar("RunnableT", bound=Runnable)


def document_item(document: Document) -> Item:
    return make_item(
        document.id or document.metadata.get("id"), document.page_content, document.metadata
    )


def _text(value: Any, keys: Sequence[str], role: str) -> str | None:
    """The text in a chain's input or output: a string, a message, the last message of
    ``role`` in a list (of messages, or of what LangGraph accepts as one: ``("user", text)``,
    ``{"role": "user", "content": text}``), or the first of ``keys`` in a dict that holds
    one."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseMessage):
        return value.text
    if isinstance(value, list):
        try:
            messages = [m for m in convert_to_messages(value) if m.type == role]
        except (ValueError, NotImplementedError):  # a list of something else: documents
            return None
        return messages[-1].text if messages else None
    if isinstance(value, Mapping):
        for key in keys:
            found = _text(value.get(key), (), role)
            if found is not None:
                return found
    return None


def _annotate(output: Any, evaluation: GuardResult) -> None:
    """Attach the guard's result to a message's response_metadata (the answer message of a dict
    output) or to a dict output itself; a plain string has nowhere to carry it."""
    if isinstance(output, Mapping):
        message = next(
            (output[k] for k in ANSWER_KEYS if isinstance(output.get(k), BaseMessage)), None
        )
        if message is None:
            if isinstance(output, dict):
                output["ragguard"] = evaluation
            return
        output = message
    if isinstance(output, BaseMessage):
        output.response_metadata["ragguard"] = evaluation


class RagguardCallbackHandler(BaseCallbackHandler):
    """Captures query, retrieved documents (ids, scores, metadata, media references),
    answer and timing per top-level run, correlating nested runs by ``parent_run_id``.

    In guard mode it evaluates when the top-level run ends, before ``invoke`` returns (or
    after the last chunk of a stream); raising ``UnsupportedAnswerError`` needs ``wrap()``,
    used directly it flags.
    """

    def __init__(
        self, monitor: Monitor | None = None, *, on_evaluation: OnEvaluation | None = None
    ) -> None:
        self.monitor = monitor or Monitor.shared()
        self.on_evaluation = on_evaluation
        # guard mode evaluates in on_chain_end: under ainvoke, off the event loop
        self.run_inline = self.monitor.live.mode != "guard"
        self._recorder = Recorder(self.monitor.live.max_open_requests)
        self._awaited: dict[UUID, UnsupportedAnswerError | None] = {}
        """Runs a GuardedRunnable waits on: their refusal, raised there (not from a callback,
        which would hide the run's end from the handlers after this one)."""
        self._annotations: dict[UUID, GuardResult] = {}
        """The guard's result of each awaited run, for GuardedRunnable to attach to what the call
        returns: a legacy ``Chain`` returns a copy of the outputs its callbacks saw."""

    def expect(self, run_id: UUID) -> None:
        self._awaited[run_id] = None

    def settle(self, run_id: UUID) -> tuple[UnsupportedAnswerError | None, GuardResult | None]:
        """The run's refusal and, under ``action="annotate"``, the guard's result."""
        return self._awaited.pop(run_id, None), self._annotations.pop(run_id, None)

    def _annotate_run(self, run_id: UUID, outputs: Any, evaluation: GuardResult) -> None:
        _annotate(outputs, evaluation)
        if run_id in self._awaited:
            self._annotations[run_id] = evaluation

    # events ragguard does not need: skipping them saves LangChain the dispatch (tool
    # events, under ignore_agent, are needed: a retrieval inside a tool hangs off them)
    @property
    def ignore_chat_model(self) -> bool:
        return True

    @property
    def ignore_retry(self) -> bool:
        return True

    @property
    def ignore_custom_event(self) -> bool:
        return True

    def _open(self, ids: dict[str, Any]) -> Request:
        """The request of a starting run (LangChain passes ``run_id``/``parent_run_id``)."""
        run_id = ids["run_id"]
        request = self._recorder.link(run_id, ids.get("parent_run_id"))
        if request is None:
            request = self._recorder.begin(
                Request(
                    run_id,
                    self.monitor,
                    document_item,
                    on_evaluation=self.on_evaluation,
                    sampled=self.monitor.sample(),
                )
            )
        return request

    @guarded
    def on_chain_start(self, serialized: Any, inputs: Any, **ids: Any) -> None:
        request = self._open(ids)
        if request.root == ids["run_id"] and request.sampled:
            request.query = _text(inputs, QUERY_KEYS, "human")

    @guarded
    def on_tool_start(self, serialized: Any, input_str: str, **ids: Any) -> None:
        self._open(ids)

    @guarded
    def on_retriever_start(self, serialized: Any, query: str, **ids: Any) -> None:
        request = self._open(ids)
        if request.sampled:
            request.start_retrieval(ids["run_id"], query)

    @guarded
    def on_retriever_end(self, documents: Sequence[Document], **ids: Any) -> None:
        request = self._recorder.get(ids["run_id"])
        if request is not None and request.sampled:
            request.end_retrieval(ids["run_id"], documents)
        self._end(ids["run_id"], None)

    @guarded
    def on_llm_end(self, response: LLMResult, **ids: Any) -> None:
        request = self._recorder.get(ids.get("parent_run_id"))
        if request is not None and request.sampled and response.generations:
            request.llm_text = response.generations[-1][-1].text

    @guarded
    def on_chain_end(self, outputs: Any, **ids: Any) -> None:
        self._end(ids["run_id"], outputs)

    @guarded
    def on_chain_error(self, error: BaseException, **ids: Any) -> None:
        request = self._recorder.get(ids["run_id"])
        if request is not None and request.root == ids["run_id"]:
            self._recorder.end(request)

    on_tool_end = on_chain_end
    on_tool_error = on_retriever_error = on_chain_error

    def _end(self, run_id: UUID, outputs: Any) -> None:
        request = self._recorder.get(run_id)
        if request is None or request.root != run_id:
            return
        self._recorder.end(request)
        if request.sampled:
            request.answer = _text(outputs, ANSWER_KEYS, "ai")
            awaited = run_id in self._awaited
            annotate = partial(self._annotate_run, run_id, outputs)
            refusal = request.submit(annotate=annotate, can_raise=awaited)
            if awaited:
                self._awaited[run_id] = refusal


class GuardedRunnable(RunnableBinding):
    """The guard-mode wrapper: a RunnableBinding that raises the handler's refusal of an
    answer from invoke/ainvoke/batch/abatch/stream/astream (other entry points flag)."""

    def _handler(self) -> RagguardCallbackHandler:
        return next(h for h in self.config["callbacks"] if isinstance(h, RagguardCallbackHandler))

    def _expect(self, config: RunnableConfig | None) -> RunnableConfig:
        config = ensure_config(config)
        config["run_id"] = config.get("run_id") or uuid4()
        self._handler().expect(config["run_id"])
        return config

    def _settle(
        self, configs: list[RunnableConfig], outputs: list[Any] | None = None
    ) -> list[UnsupportedAnswerError | None]:
        """Each call's refusal; its Evaluation attached to its output (``action="annotate"``)
        when the outputs came back."""
        handler = self._handler()
        settled = [handler.settle(config["run_id"]) for config in configs]
        for output, (_, evaluation) in zip(outputs or (), settled, strict=False):
            if evaluation is not None:
                _annotate(output, evaluation)
        return [refusal for refusal, _ in settled]

    @contextmanager
    def _guarding(
        self, config: RunnableConfig | None
    ) -> Iterator[tuple[RunnableConfig, list[Any]]]:
        """Run one call under a known run id; once it returns, annotate what it put in the
        list it was given and raise its refusal."""
        config = self._expect(config)
        returned: list[Any] = []
        try:
            yield config, returned
        finally:
            _raise_first(self._settle([config], returned))

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        with self._guarding(config) as (config, returned):
            returned.append(super().invoke(input, config, **kwargs))
            return returned[0]

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        with self._guarding(config) as (config, returned):
            returned.append(await super().ainvoke(input, config, **kwargs))
            return returned[0]

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Iterator:
        with self._guarding(config) as (config, _):
            yield from super().stream(input, config, **kwargs)

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator:
        with self._guarding(config) as (config, _):
            async for chunk in super().astream(input, config, **kwargs):
                yield chunk

    def batch(self, inputs: list[Any], config: Any = None, **kwargs: Any) -> list[Any]:
        configs = [self._expect(c) for c in get_config_list(config, len(inputs))]
        outputs: list[Any] = []
        try:
            outputs = super().batch(inputs, configs, **kwargs)
        finally:
            refusals = self._settle(configs, outputs)
        return _refuse(outputs, refusals, kwargs.get("return_exceptions", False))

    async def abatch(self, inputs: list[Any], config: Any = None, **kwargs: Any) -> list[Any]:
        configs = [self._expect(c) for c in get_config_list(config, len(inputs))]
        outputs: list[Any] = []
        try:
            outputs = await super().abatch(inputs, configs, **kwargs)
        finally:
            refusals = self._settle(configs, outputs)
        return _refuse(outputs, refusals, kwargs.get("return_exceptions", False))


def _raise_first(refusals: list[UnsupportedAnswerError | None]) -> None:
    refusal = next((r for r in refusals if r is not None), None)
    if refusal is not None:
        raise refusal


def _refuse(
    outputs: list[Any], refusals: list[UnsupportedAnswerError | None], return_exceptions: bool
) -> list[Any]:
    """A batch's outputs with each refused answer replaced by its refusal
    (``return_exceptions``) or the first refusal raised."""
    if not return_exceptions:
        _raise_first(refusals)
    return [output if r is None else r for output, r in zip(outputs, refusals, strict=True)]


def wrap_runnable(
    runnable: RunnableT, monitor: Monitor, on_evaluation: OnEvaluation | None = None
) -> RunnableT:
    """``runnable`` with a capturing handler bound to every call: a RunnableBinding (same
    methods, same return values, attribute access falls through to the original); in
    guard mode a GuardedRunnable, which raises refusals to the caller."""
    handler = RagguardCallbackHandler(monitor, on_evaluation=on_evaluation)
    if monitor.live.mode == "guard":
        return GuardedRunnable(bound=runnable, config={"callbacks": [handler]})  # type: ignore[return-value]
    return runnable.with_config(callbacks=[handler])  # type: ignore[return-value]
