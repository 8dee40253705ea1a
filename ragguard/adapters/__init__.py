"""``ragguard.wrap``: one line to evaluate a LangChain or LlamaIndex pipeline live.

Framework modules are imported only when the object to wrap comes from that framework, so
neither framework is needed to import ragguard.
"""

from __future__ import annotations

import sys
import typing as _typing
from collections.abc import Sequence
from typing import Any, TypeVar

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.config import ConfigLike
from ragguard.evaluation import Guard
from ragguard.exporters import Exporter
from ragguard.live import Monitor, OnEvaluation

if _typing.TYPE_CHECKING:  # the framework front ends, imported on first use
    from ragguard.adapters.langchain import RagguardCallbackHandler, document_item
    from ragguard.adapters.llamaindex import RagguardEventHandler, node_item

_T = TypeVar("_T")


def _is_langchain(target: Any) -> bool:
    runnables = sys.modules.get("langchain_core.runnables")
    return runnables is not None and isinstance(target, runnables.Runnable)


def _is_llamaindex(target: Any) -> bool:
    if "llama_index.core" not in sys.modules:
        return False
    from ragguard.adapters.llamaindex import is_wrappable

    return is_wrappable(target)


def wrap(
    target: _T,
    *,
    config: ConfigLike = None,
    guard: Guard | None = None,
    monitor: Monitor | None = None,
    on_evaluation: OnEvaluation | None = None,
    exporters: Sequence[Exporter] = (),
    **options: Any,
) -> _T:
    """Evaluate every request of ``target`` with ragguard, keeping its interface.

    ``target``: a LangChain Runnable (LCEL chain, RetrievalQA-style chain, agent executor,
    LangGraph compiled graph, retriever) or a LlamaIndex query engine, chat engine,
    retriever or workflow (FunctionAgent, ReActAgent, AgentWorkflow, ...). ``options`` are
    ``LiveConfig`` fields (``mode``, ``sample_rate``, ``action``, ``min_support_rate``, ...)
    over ``config``; ``guard`` supplies the models (default: shared, loaded once);
    ``on_evaluation`` is called with each finished Evaluation (on the worker thread in
    background mode). ``exporters`` receive every evaluation too (``config.exporters``
    turns on the built-in ones). Pass a ``monitor`` instead to share counters and settings.
    """
    if _is_langchain(target):
        from ragguard.adapters.langchain import wrap_runnable as wrap_with
    elif _is_llamaindex(target):
        from ragguard.adapters.llamaindex import wrap_engine as wrap_with
    else:
        raise TypeError(
            f"ragguard.wrap() cannot wrap a {type(target).__name__}: expected a LangChain "
            "Runnable or a LlamaIndex query engine, chat engine, retriever or workflow"
        )
    if monitor is None:
        monitor = Monitor.shared(config, guard=guard, exporters=exporters, **options)
    elif config is not None or guard is not None or exporters or options:
        raise TypeError("wrap(): pass either a monitor or config/guard/exporters/options, not both")
    return wrap_with(target, monitor, on_evaluation)  # type: ignore[return-value]


__all__ = [
    "RagguardCallbackHandler",
    "RagguardEventHandler",
    "document_item",
    "node_item",
    "wrap",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
