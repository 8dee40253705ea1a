"""A LlamaIndex query engine (a keyword retriever, LlamaIndex's MockLLM scripted by its
prompt template) instrumented with OpenInference, exporting over OTLP/HTTP.

    python llamaindex_app.py http://127.0.0.1:4318/v1/traces
"""

import sys

from corpus import ANSWER, DOCS, QUERY, overlap_ranking
from llama_index.core import PromptTemplate
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from openinference.instrumentation.llama_index import LlamaIndexInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor


class KeywordRetriever(BaseRetriever):
    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [
            NodeWithScore(node=TextNode(text=DOCS[key], id_=key), score=score)
            for key, score in overlap_ranking(query_bundle.query_str)
        ]


def main(endpoint: str) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": "llamaindex-app"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    LlamaIndexInstrumentor().instrument(tracer_provider=provider)
    engine = RetrieverQueryEngine.from_args(
        KeywordRetriever(), llm=MockLLM(), text_qa_template=PromptTemplate(ANSWER)
    )
    assert str(engine.query(QUERY)) == ANSWER
    assert provider.force_flush(30_000)
    provider.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
