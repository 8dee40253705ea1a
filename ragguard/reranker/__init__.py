"""RS reranking of retrieved items. Framework front ends: ``ragguard.reranker.langchain``
(a ``BaseDocumentCompressor``) and ``ragguard.reranker.llamaindex`` (a
``BaseNodePostprocessor``)."""

from ragguard.reranker.core import Ranked, Reranker

__all__ = ["Ranked", "Reranker"]
