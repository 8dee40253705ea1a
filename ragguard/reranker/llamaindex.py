"""The RS reranker as a LlamaIndex ``BaseNodePostprocessor`` (``node_postprocessors=[...]``)."""

from __future__ import annotations

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle
from pydantic import PrivateAttr

from ragguard.adapters import node_item
from ragguard.reranker.core import Reranker


class RSNodePostprocessor(BaseNodePostprocessor):
    """Re-orders (and optionally filters) nodes by RS; each returned node's score is its RS."""

    _reranker: Reranker = PrivateAttr()

    def __init__(self, reranker: Reranker | None = None) -> None:
        super().__init__()
        self._reranker = reranker or Reranker()

    @classmethod
    def class_name(cls) -> str:
        return "RSNodePostprocessor"

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        if query_bundle is None:
            raise ValueError("RSNodePostprocessor needs the query to score relevance")
        ranked = self._reranker.rerank(query_bundle.query_str, [node_item(n) for n in nodes])
        return [NodeWithScore(node=nodes[r.index].node, score=r.relevance) for r in ranked]
