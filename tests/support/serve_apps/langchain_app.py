"""A LangChain RAG app (a keyword retriever, a prompt, a scripted LLM) instrumented with
OpenInference or OpenLLMetry, exporting over OTLP/HTTP to the endpoint given.

    python langchain_app.py openinference|openllmetry http://127.0.0.1:4318/v1/traces
"""

import sys

from corpus import ANSWER, DOCS, QUERY, overlap_ranking
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models.fake import FakeListLLM
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import PromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor


class KeywordRetriever(BaseRetriever):
    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [
            Document(DOCS[key], id=key, metadata={"source": key, "score": score})
            for key, score in overlap_ranking(query)
        ]


def main(dialect: str, endpoint: str) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": f"lc-{dialect}"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    if dialect == "openinference":
        from openinference.instrumentation.langchain import LangChainInstrumentor

        LangChainInstrumentor().instrument(tracer_provider=provider)
    else:
        from opentelemetry.instrumentation.langchain import LangchainInstrumentor

        LangchainInstrumentor().instrument(tracer_provider=provider)
    prompt = PromptTemplate.from_template("Context:\n{context}\n\nQuestion: {question}")
    chain = (
        {
            "context": KeywordRetriever() | (lambda docs: "\n".join(d.page_content for d in docs)),
            "question": RunnablePassthrough(),
        }
        | prompt
        | FakeListLLM(responses=[ANSWER])
        | StrOutputParser()
    )
    assert chain.invoke(QUERY) == ANSWER
    assert provider.force_flush(30_000)
    provider.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:3])
