"""RS reranking of retrieved items. Framework front ends: ``ragguard.reranker.langchain``
(a ``BaseDocumentCompressor``) and ``ragguard.reranker.llamaindex`` (a
``BaseNodePostprocessor``)."""

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.reranker.core import Ranked, Reranker

if _typing.TYPE_CHECKING:  # the framework front ends, imported on first use
    from ragguard.reranker.langchain import RSDocumentCompressor
    from ragguard.reranker.llamaindex import RSNodePostprocessor

__all__ = ["RSDocumentCompressor", "RSNodePostprocessor", "Ranked", "Reranker"]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
