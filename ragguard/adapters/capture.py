"""The framework-agnostic capture core: runs (LangChain run ids, LlamaIndex span ids) are
correlated by their parents into one ``Request`` per top-level call, across nested chains,
several retrievals, threads and async tasks. Front ends feed it; it never scores.

The request path only records references; turning them into a ``Trace`` (validation, item
conversion) happens in ``Request.to_trace``, which background mode runs on the worker.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from ragguard.errors import UnsupportedAnswerError
from ragguard.exporters import current_traceparent
from ragguard.schema import Item, Trace

if TYPE_CHECKING:
    from ragguard.live import Annotate, Monitor, OnEvaluation

logger = logging.getLogger(__name__)

IMAGE_KEYS = ("image", "image_path", "image_url")
VIDEO_KEYS = ("video", "video_path", "video_url")
SCORE_KEYS = ("relevance_score", "score", "similarity_score")
"""Metadata keys read as an item's image, video and retriever score."""


def make_item(
    id_: str | None, text: str | None, metadata: Mapping[str, Any], score: float | None = None
) -> Item:
    """An Item from a framework's document: media references and a score from metadata;
    a content hash as id when the document has none (so repeats across retrievals merge)."""
    image = next((metadata[k] for k in IMAGE_KEYS if isinstance(metadata.get(k), str)), None)
    video = next((metadata[k] for k in VIDEO_KEYS if isinstance(metadata.get(k), str)), None)
    if score is None:
        score = next(
            (float(metadata[k]) for k in SCORE_KEYS if isinstance(metadata.get(k), int | float)),
            None,
        )
    if not id_:
        content = "\x1f".join(str(part) for part in (text, image, video))
        id_ = "doc-" + hashlib.blake2b(content.encode("utf-8"), digest_size=6).hexdigest()
    if text is None and image is None and video is None:
        text = ""
    return Item(id=id_, text=text, image=image, video=video, score=score, metadata=dict(metadata))


@dataclass(eq=False)
class Request:
    """One top-level call being captured. Mutated only by the thread(s) running that call."""

    root: Hashable
    monitor: Monitor
    to_item: Callable[[Any], Item]
    on_evaluation: OnEvaluation | None = None
    context: Any = None
    """Front-end state (a wrap() proxy's call in progress)."""
    sampled: bool = True
    started: float = field(default_factory=time.perf_counter)
    traceparent: str | None = field(default_factory=current_traceparent)
    """The application's OpenTelemetry span when the call started (W3C traceparent), so the
    evaluation, finished later, is exported under it."""
    query: str | None = None
    answer: str | None = None
    llm_text: str | None = None
    """The last generation seen: the answer when the final output carries no text."""
    sources: Sequence[Any] | None = None
    """What the answer was generated from, when the final output says (LlamaIndex
    source_nodes); otherwise the retrievals are used."""
    output: Any = None
    """What the top-level call returned."""
    parents: dict[Hashable, Hashable | None] = field(default_factory=dict)
    retrievals: dict[Hashable, Sequence[Any]] = field(default_factory=dict)
    retrieval_queries: list[str] = field(default_factory=list)
    retrieval_ms: float = 0.0
    finished: float | None = None
    _retrieval_started: dict[Hashable, float] = field(default_factory=dict)
    _arrivals: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def rendezvous(self) -> bool:
        """For a call that returns a stream read elsewhere: both the call's return and the
        stream's end call this; True for whichever comes second, which finishes."""
        with self._lock:
            self._arrivals += 1
            return self._arrivals == 2

    def start_retrieval(self, run: Hashable, query: str | None) -> None:
        with self._lock:  # parallel retrievals of one request run in threads
            self._retrieval_started[run] = time.perf_counter()
            if query:
                self.retrieval_queries.append(query)

    def end_retrieval(self, run: Hashable, documents: Sequence[Any]) -> None:
        """Record a retrieval's results. A retrieval supersedes the ones nested inside it
        (a compression or reranking retriever wraps a base retriever): only what it
        returned reached the generator."""
        with self._lock:
            started = self._retrieval_started.pop(run, None)
            if started is not None:
                self.retrieval_ms += (time.perf_counter() - started) * 1000
            for inner in [r for r in self.retrievals if self._descends(r, run)]:
                del self.retrievals[inner]
            self.retrievals[run] = documents

    def _descends(self, run: Hashable | None, ancestor: Hashable) -> bool:
        while run is not None:
            run = self.parents.get(run)
            if run == ancestor:
                return True
        return False

    def to_trace(self) -> Trace:
        """The captured request as a Trace (raises TraceValidationError when incomplete)."""
        documents = (
            self.sources
            if self.sources
            else [d for found in self.retrievals.values() for d in found]
        )
        items: dict[str, Item] = {}
        seen: set[tuple[object, ...]] = set()
        chunks: Counter[str] = Counter()
        for document in documents:
            item = self.to_item(document)
            content = (item.id, item.text, item.image, item.video)
            if content in seen:
                continue  # retrieved again
            seen.add(content)
            chunks[item.id] += 1
            if chunks[item.id] > 1:  # another chunk of one source document
                item = item.model_copy(update={"id": f"{item.id}#{chunks[item.id]}"})
            items[item.id] = item
        query = self.query or next(iter(self.retrieval_queries), "")
        finished = self.finished or time.perf_counter()
        captured: dict[str, Any] = {
            "trace_id": str(self.root),
            "query": query,
            "items": list(items.values()),
            "response": self.answer if self.answer is not None else self.llm_text or "",
            "timing_ms": {
                "request": round((finished - self.started) * 1000, 3),
                "retrieval": round(self.retrieval_ms, 3),
            },
        }
        if self.traceparent is not None:
            captured["traceparent"] = self.traceparent
        return Trace.parse(captured)

    def submit(
        self, *, annotate: Annotate | None = None, can_raise: bool = True
    ) -> UnsupportedAnswerError | None:
        """Hand the finished request to its monitor; guard mode's refusal, to raise."""
        self.finished = time.perf_counter()
        return self.monitor.handle(
            self.to_trace,
            on_evaluation=self.on_evaluation,
            annotate=annotate,
            can_raise=can_raise,
        )

    async def asubmit(self, *, annotate: Annotate | None = None) -> UnsupportedAnswerError | None:
        """``submit`` for async callers: guard mode waits without blocking the loop."""
        self.finished = time.perf_counter()
        return await self.monitor.ahandle(
            self.to_trace, on_evaluation=self.on_evaluation, annotate=annotate
        )


class Recorder:
    """Which request each open run belongs to. Runs stay mapped until their request ends,
    so events that arrive late (a stream's end) still find it."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._runs: dict[Hashable, Request] = {}
        self._roots: OrderedDict[Hashable, Request] = OrderedDict()
        self._lock = threading.Lock()

    def link(self, run: Hashable, parent: Hashable | None) -> Request | None:
        """Attach a new run to its parent's request; None when the parent is in none."""
        if parent is None:
            return None
        with self._lock:
            request = self._runs.get(parent)
            if request is not None:
                self._runs[run] = request
                request.parents[run] = parent
        return request

    def begin(self, request: Request) -> Request:
        """Start capturing a top-level call; the oldest unfinished requests beyond capacity
        are forgotten (counted as abandoned)."""
        with self._lock:
            self._runs[request.root] = request
            self._roots[request.root] = request
            request.parents[request.root] = None
            while len(self._roots) > self.capacity:
                _, oldest = self._roots.popitem(last=False)
                self._forget(oldest)
                oldest.monitor.count("abandoned")
        return request

    def get(self, run: Hashable | None) -> Request | None:
        return None if run is None else self._runs.get(run)

    def end(self, request: Request) -> None:
        """Stop tracking a request (finished or failed)."""
        with self._lock:
            self._roots.pop(request.root, None)
            self._forget(request)

    def _forget(self, request: Request) -> None:
        for run in request.parents:
            self._runs.pop(run, None)


P = ParamSpec("P")
R = TypeVar("R")
_Front = TypeVar("_Front")


def guarded(
    method: Callable[Concatenate[_Front, P], R],
) -> Callable[Concatenate[_Front, P], R | None]:
    """Wrap a front end's callback so an error in ragguard's own code is logged and counted
    (``self.monitor``) and never reaches the user's pipeline."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return method(self, *args, **kwargs)
        except Exception:
            self.monitor.count("capture_errors")
            logger.exception("ragguard: capture failed in %s", method.__name__)
            return None

    return wrapper
