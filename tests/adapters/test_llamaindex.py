"""ragguard.wrap on real LlamaIndex engines: a VectorStoreIndex over the bundled MiniLM
embeddings, its query engine, chat engine and retriever. The ONLY fake is the generator:
LlamaIndex's own MockLLM, which answers with its prompt; the prompt template scripts the
answer (a fixed sentence, or "{context_str}" to answer with the retrieved context).
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from llama_index.core import Document, PromptTemplate, VectorStoreIndex
from llama_index.core.base.response.schema import Response
from llama_index.core.llms import MockLLM
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import ImageNode, NodeWithScore

import ragguard
from ragguard.adapters.llamaindex import RagguardEventHandler, node_item
from ragguard.evaluation.evaluator import Evaluator
from ragguard.evaluation.guard import Guard
from ragguard.live.shared import with_score_cache
from ragguard.reranker import Reranker
from ragguard.reranker.llamaindex import RSNodePostprocessor
from tests.support.live_fixtures import DOCS, QUESTIONS, SUPPORTED, UNSUPPORTED, wrap_collecting
from tests.support.retrieval_fixtures import (
    LlamaIndexMiniLM,
    llamaindex_index,
    retrieval_embedder,
)


@pytest.fixture(scope="module")
def index(guard):
    return llamaindex_index()


def engine(index, answer="{context_str}", k=2, **kwargs):
    """A query engine whose MockLLM answers ``answer`` (a prompt template)."""
    return index.as_query_engine(
        llm=MockLLM(), text_qa_template=PromptTemplate(answer), similarity_top_k=k, **kwargs
    )


def test_query_keeps_the_engine_and_its_response_and_captures_the_request(guard, index):
    original = engine(index, SUPPORTED)
    wrapped, monitor, evaluations = wrap_collecting(original, guard)
    assert isinstance(wrapped, RetrieverQueryEngine)
    assert wrapped.retriever is original.retriever

    response = wrapped.query(QUESTIONS["paris"])
    assert type(response) is Response and response.response == SUPPORTED
    assert ragguard.flush(60)
    (evaluation,) = evaluations
    assert [i.id for i in evaluation.items] == [n.node.node_id for n in response.source_nodes]
    assert [i.retriever_score for i in evaluation.items] == [n.score for n in response.source_nodes]
    assert evaluation.items[0].id == "paris" and evaluation.items[0].relevant
    assert [s.text for s in evaluation.spans] == [SUPPORTED]
    assert evaluation.metrics.support_rate == 1.0
    assert monitor.stats.evaluated == 1


def test_async_streaming_chat_and_retriever_calls_are_each_evaluated(guard, index):
    question = QUESTIONS["paris"]
    query, _, evaluations = wrap_collecting(engine(index, SUPPORTED), guard)
    streaming, _, streamed = wrap_collecting(engine(index, SUPPORTED, streaming=True), guard)
    chat, _, chatted = wrap_collecting(index.as_chat_engine("context", llm=MockLLM()), guard)
    retriever, _, retrieved = wrap_collecting(index.as_retriever(similarity_top_k=1), guard)

    assert "".join(streaming.query(question).response_gen) == SUPPORTED

    async def run_async():
        answer = await query.aquery(question)
        stream = await streaming.aquery(question)
        tokens = [t async for t in stream.async_response_gen()]
        chat_answer = await chat.achat(question)
        return answer.response, "".join(tokens), chat_answer.response

    assert asyncio.run(run_async())[:2] == (SUPPORTED, SUPPORTED)
    assert chat.chat(question).response
    assert "".join(chat.stream_chat(question).response_gen)
    nodes = retriever.retrieve(question)
    assert ragguard.flush(60)

    assert len(evaluations) == 1 and len(streamed) == 2  # streams: assembled at their end
    assert all([s.text for s in e.spans] == [SUPPORTED] for e in evaluations + streamed)
    assert len(chatted) == 3  # the chat answers echo the chat prompt: checked for capture only
    assert all(e.spans and e.items[0].id == "paris" for e in chatted)
    assert [i.id for i in retrieved[0].items] == [n.node.node_id for n in nodes] == ["paris"]
    assert retrieved[0].spans == ()  # a retrieval has no answer: RS only


def test_concurrent_queries_are_not_mixed_up(guard, index):
    """Each answer is its own request's context: if requests were mixed, answers would be
    judged against another request's items or items against another query."""
    wrapped, _, evaluations = wrap_collecting(engine(index, k=1), guard)
    questions = list(QUESTIONS.values()) * 4

    with ThreadPoolExecutor(6) as pool:
        answers = [r.response for r in pool.map(wrapped.query, questions)]

    async def gather():
        return await asyncio.gather(*(wrapped.aquery(q) for q in questions))

    answers += [r.response for r in asyncio.run(gather())]
    assert ragguard.flush(60)
    expected = {q: DOCS[key] for key, q in QUESTIONS.items()}
    assert answers == [expected[q] for q in questions] * 2
    assert len(evaluations) == 2 * len(questions)
    for evaluation in evaluations:
        assert [i.relevant for i in evaluation.items] == [True]
        assert evaluation.metrics.support_rate == 1.0


def test_guard_mode_raises_with_the_evaluation(guard, index):
    wrapped, monitor, _ = wrap_collecting(
        engine(index, UNSUPPORTED), guard, mode="guard", action="raise"
    )
    streaming, _, _ = wrap_collecting(
        engine(index, UNSUPPORTED, streaming=True), guard, mode="guard", action="raise"
    )
    with pytest.raises(ragguard.UnsupportedAnswerError) as raised:
        wrapped.query(QUESTIONS["paris"])
    assert raised.value.evaluation.metrics.hallucination
    assert raised.value.evaluation.spans[0].text == UNSUPPORTED
    with pytest.raises(ragguard.UnsupportedAnswerError):
        "".join(streaming.query(QUESTIONS["paris"]).response_gen)  # after the last token

    async def run_async():
        with pytest.raises(ragguard.UnsupportedAnswerError):
            await wrapped.aquery(QUESTIONS["paris"])

    asyncio.run(run_async())
    assert monitor.stats.flagged == 2


def test_guard_mode_annotates_a_supported_answer(guard, index):
    wrapped = ragguard.wrap(engine(index, SUPPORTED), guard=guard, mode="guard", action="annotate")
    response = wrapped.query(QUESTIONS["paris"])
    assert response.response == SUPPORTED
    assert response.metadata["ragguard"].evaluation.metrics.support_rate == 1.0


def test_image_nodes_keep_their_image_reference():
    node = NodeWithScore(node=ImageNode(image_path="/data/tower.png", text="A tower."), score=0.5)
    item = node_item(node)
    assert (item.image, item.text, item.score) == ("/data/tower.png", "A tower.", 0.5)


def test_items_are_named_after_their_source_document_and_keep_the_node_id(guard):
    """An index built from documents: each node's item is its document's id (two chunks of
    one document: "paris", "paris#2"), the node's own UUID stays in its metadata."""
    documents = [Document(text=text, doc_id=key) for key, text in DOCS.items()]
    index = VectorStoreIndex.from_documents(
        documents,
        embed_model=LlamaIndexMiniLM(retrieval_embedder()),
        transformations=[SentenceSplitter(chunk_size=24, chunk_overlap=0)],  # one sentence
    )
    retriever = index.as_retriever(similarity_top_k=3)
    wrapped, _, evaluations = wrap_collecting(retriever, guard)
    nodes = wrapped.retrieve(QUESTIONS["paris"])
    assert ragguard.flush(60)
    assert [i.id for i in evaluations[0].items] == ["paris", "paris#2", "rome"]
    assert [node_item(n).metadata["node_id"] for n in nodes] == [n.node.node_id for n in nodes]
    assert nodes[0].node.node_id != "paris"


def test_a_failing_evaluator_never_reaches_the_engine(guard, index):
    class Broken(Evaluator):
        def evaluate_batch(self, traces):
            raise RuntimeError("scorer exploded")

    monitor = ragguard.Monitor(guard=Guard(evaluator=Broken()))
    wrapped = ragguard.wrap(engine(index, SUPPORTED), monitor=monitor)
    assert wrapped.query(QUESTIONS["paris"]).response == SUPPORTED
    assert ragguard.flush(60)
    assert monitor.stats.failed == 1


def test_event_handler_used_directly_captures_unwrapped_engines(guard, index):
    evaluations = []
    handler = RagguardEventHandler(ragguard.Monitor(guard=guard), on_evaluation=evaluations.append)
    handler.attach()
    try:
        engine(index, SUPPORTED).query(QUESTIONS["rome"])
    finally:
        handler.detach()
    engine(index, SUPPORTED).query(QUESTIONS["rome"])  # after detach: not captured
    assert ragguard.flush(60)
    (evaluation,) = evaluations
    assert evaluation.items[0].id == "rome"


def test_rs_postprocessor_in_a_query_engine(guard, index):
    """The reranker keeps the most relevant node; the evaluator reads its RS from the cache
    the reranker filled instead of scoring it again."""
    cached = with_score_cache(guard)
    rerank = RSNodePostprocessor(Reranker(top_n=1, guard=cached))
    wrapped, _, evaluations = wrap_collecting(
        engine(index, SUPPORTED, k=3, node_postprocessors=[rerank]), cached
    )
    response = wrapped.query(QUESTIONS["paris"])
    assert ragguard.flush(60)
    (node,) = response.source_nodes
    (item,) = evaluations[0].items
    assert item.id == node.node.node_id == "paris"
    assert item.relevance == item.retriever_score == node.score
    cache = cached.models.relevance_scorer
    assert cache.misses == len(DOCS) + 1 and cache.hits == 1  # + the warm-up's dummy pair


def test_an_engines_evaluation_is_exported_under_the_applications_request_span(guard, index):
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from ragguard.exporters.otel import OtelExporter

    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    exporter = OtelExporter(tracer_provider=provider, pipeline="li")
    wrapped, monitor, evaluations = wrap_collecting(
        engine(index, SUPPORTED), guard, exporters=[exporter]
    )
    with provider.get_tracer("app").start_as_current_span("POST /ask") as request_span:
        wrapped.query(QUESTIONS["paris"])
    assert ragguard.flush(60)
    (evaluation,) = evaluations
    (span,) = [s for s in memory.get_finished_spans() if s.name == "ragguard.evaluation"]
    assert span.parent.span_id == request_span.context.span_id
    assert span.attributes["gen_ai.response.id"] == evaluation.trace_id
    assert monitor.stats.export_errors == 0
    provider.shutdown()
