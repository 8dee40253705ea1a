"""The RS reranker as a LangChain ``BaseDocumentCompressor`` (use it in a
``ContextualCompressionRetriever``)."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document
from pydantic import ConfigDict, Field

from ragguard.adapters import document_item
from ragguard.reranker.core import Reranker


class RSDocumentCompressor(BaseDocumentCompressor):
    """Re-orders (and optionally filters) documents by RS; each returned document is a copy
    whose ``metadata["relevance_score"]`` holds its RS."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    reranker: Reranker = Field(default_factory=Reranker)

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        ranked = self.reranker.rerank(query, [document_item(d) for d in documents])
        return [
            documents[r.index].model_copy(
                update={"metadata": {**documents[r.index].metadata, "relevance_score": r.relevance}}
            )
            for r in ranked
        ]
