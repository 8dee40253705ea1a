"""Real retrieval over the live_fixtures corpus, embedded with ragguard's bundled MiniLM
(offline), for both frameworks: a LangChain InMemoryVectorStore and a LlamaIndex
VectorStoreIndex, document ids as in DOCS.

Retrieval ranks with the fp32 products (``retrieval_embedder``): the tests assert the order
of the retrieved documents, and with the int8 products the second and third documents sit
0.001 apart in cosine, within the int8 kernels' difference between AVX2-only and VNNI CPUs
(``rome`` ranked second on one, ``berlin`` on the other). In fp32 they are 0.008 apart, and
fp32 scores agree across CPUs to 1e-5 (docs/models.md, "Across CPUs")."""

from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import VectorStoreIndex
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.schema import TextNode
from pydantic import PrivateAttr

from ragguard.scoring.encoders.embeddings import TextEmbedder
from tests.support.live_fixtures import DOCS

_RETRIEVAL: list[TextEmbedder] = []


def retrieval_embedder() -> TextEmbedder:
    """The fp32 MiniLM every test retriever embeds with (loaded once)."""
    if not _RETRIEVAL:
        _RETRIEVAL.append(TextEmbedder(precision="fp32"))
    return _RETRIEVAL[0]


class LangChainMiniLM(Embeddings):
    """LangChain embeddings backed by ragguard's bundled MiniLM."""

    def __init__(self, embedder):
        self.embedder = embedder

    def embed_documents(self, texts):
        return self.embedder.encode(texts).tolist()

    def embed_query(self, text):
        return self.embed_documents([text])[0]


class LlamaIndexMiniLM(BaseEmbedding):
    """LlamaIndex embeddings backed by ragguard's bundled MiniLM."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder):
        super().__init__()
        self._embedder = embedder

    def _get_text_embedding(self, text):
        return self._embedder.encode([text])[0].tolist()

    def _get_query_embedding(self, query):
        return self._get_text_embedding(query)

    async def _aget_query_embedding(self, query):
        return self._get_text_embedding(query)


def langchain_store():
    store = InMemoryVectorStore(LangChainMiniLM(retrieval_embedder()))
    store.add_documents([Document(text, id=key) for key, text in DOCS.items()])
    return store


def llamaindex_index():
    nodes = [TextNode(text=text, id_=key) for key, text in DOCS.items()]
    return VectorStoreIndex(nodes, embed_model=LlamaIndexMiniLM(retrieval_embedder()))
