"""ragguard.wrap on real LangChain pipelines: an LCEL retrieval chain over langchain_core's
InMemoryVectorStore with the bundled MiniLM embeddings, RetrievalQA and a ReAct agent
executor from langchain_classic. The ONLY fake is the generator: langchain_core's scripted
chat models (FakeListChatModel replays fixed answers; ParrotFakeChatModel answers with its
prompt, here the retrieved context, so an answer is supported by its own request's items).
"""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_classic.agents import AgentExecutor, create_react_agent
from langchain_classic.chains import RetrievalQA
from langchain_classic.retrievers import ContextualCompressionRetriever
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    ParrotFakeChatModel,
)
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate, PromptTemplate
from langchain_core.runnables import RunnableParallel, RunnablePassthrough
from langchain_core.tools import create_retriever_tool

import ragguard
from ragguard.adapters.langchain import RagguardCallbackHandler, document_item
from ragguard.evaluation.evaluator import Evaluator
from ragguard.evaluation.guard import Guard
from ragguard.live.shared import with_score_cache
from ragguard.reranker import Reranker
from ragguard.reranker.langchain import RSDocumentCompressor
from tests.support.live_fixtures import DOCS, QUESTIONS, SUPPORTED, UNSUPPORTED, wrap_collecting
from tests.support.retrieval_fixtures import langchain_store


@pytest.fixture(scope="module")
def store(guard):
    return langchain_store()


def rag_chain(store, llm, k=2, retriever=None):
    """The usual LCEL retrieval chain: question -> retriever -> prompt -> LLM."""
    retriever = retriever or store.as_retriever(search_kwargs={"k": k})
    context = retriever | (lambda docs: "\n".join(d.page_content for d in docs))
    prompt = ChatPromptTemplate.from_template("{context}")
    return {"context": context, "question": RunnablePassthrough()} | prompt | llm


def test_invoke_returns_exactly_what_the_chain_returns_and_captures_the_request(guard, store):
    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED])) | StrOutputParser()
    wrapped, monitor, evaluations = wrap_collecting(chain, guard)

    assert wrapped.invoke(QUESTIONS["paris"]) == chain.invoke(QUESTIONS["paris"]) == SUPPORTED
    assert ragguard.flush(60)
    (evaluation,) = evaluations
    retrieved = store.as_retriever(search_kwargs={"k": 2}).invoke(QUESTIONS["paris"])
    assert [i.id for i in evaluation.items] == [d.id for d in retrieved] == ["paris", "rome"]
    assert evaluation.items[0].relevant and not evaluation.items[1].relevant
    assert [s.text for s in evaluation.spans] == [SUPPORTED]
    assert evaluation.metrics.support_rate == 1.0
    assert evaluation.timing_ms["request"] >= evaluation.timing_ms["retrieval"] > 0
    assert monitor.stats.evaluated == 1 and monitor.stats.dropped == 0


def test_stream_batch_and_async_keep_their_outputs_and_are_each_evaluated(guard, store):
    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED])) | StrOutputParser()
    wrapped, _, evaluations = wrap_collecting(chain, guard)
    question = QUESTIONS["paris"]

    assert list(wrapped.stream(question)) == list(chain.stream(question))
    assert wrapped.batch([question] * 3) == [SUPPORTED] * 3

    async def run_async():
        chunks = [c async for c in wrapped.astream(question)]
        return await wrapped.ainvoke(question), "".join(chunks), await wrapped.abatch([question])

    assert asyncio.run(run_async()) == (SUPPORTED, SUPPORTED, [SUPPORTED])
    assert ragguard.flush(60)
    assert len(evaluations) == 7 and len({e.trace_id for e in evaluations}) == 7
    # a streamed answer is assembled once the stream ends
    assert all([s.text for s in e.spans] == [SUPPORTED] for e in evaluations)


def test_concurrent_requests_are_not_mixed_up(guard, store):
    """Each answer parrots its own request's context: if requests were mixed, answers would
    be judged against another request's items (unsupported) or items against another
    query (irrelevant)."""
    chain = rag_chain(store, ParrotFakeChatModel(), k=1) | StrOutputParser()
    wrapped, _, evaluations = wrap_collecting(chain, guard)
    questions = list(QUESTIONS.values()) * 4

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(wrapped.invoke, questions))

    async def gather():
        return await asyncio.gather(*(wrapped.ainvoke(q) for q in questions))

    answers += asyncio.run(gather())
    assert ragguard.flush(60)
    assert answers == [chain.invoke(q) for q in questions] * 2
    assert len(evaluations) == 2 * len(questions)
    for evaluation in evaluations:
        assert [i.relevant for i in evaluation.items] == [True]
        assert evaluation.metrics.support_rate == 1.0


def test_nested_chain_with_two_retrievals_is_one_trace(guard, store):
    retriever = store.as_retriever(search_kwargs={"k": 1})
    both = RunnableParallel(a=retriever, b=lambda q: retriever.invoke("German capital city"))
    chain = (
        both
        | (lambda found: "\n".join(d.page_content for d in found["a"] + found["b"]))
        | PromptTemplate.from_template("{text}")
        | ParrotFakeChatModel()
    )
    inner, _, evaluations = wrap_collecting(chain, guard)
    outer = (lambda q: q) | inner

    answer = outer.invoke(QUESTIONS["paris"])
    assert ragguard.flush(60)
    assert DOCS["paris"] in answer.content
    (evaluation,) = evaluations
    assert sorted(i.id for i in evaluation.items) == ["berlin", "paris"]


def test_retrieval_qa_and_agent_executor(guard, store):
    retriever = store.as_retriever(search_kwargs={"k": 1})
    qa = RetrievalQA.from_chain_type(FakeListChatModel(responses=[SUPPORTED]), retriever=retriever)
    tool = create_retriever_tool(retriever, "search", "Looks up facts about landmarks.")
    prompt = PromptTemplate.from_template(
        "Tools: {tools} ({tool_names})\nQuestion: {input}\n{agent_scratchpad}"
    )
    script = [
        "Thought: look it up\nAction: search\nAction Input: Eiffel Tower",
        f"Thought: found it\nFinal Answer: {SUPPORTED}",
    ]
    agent = create_react_agent(FakeListChatModel(responses=script), [tool], prompt)
    executor = AgentExecutor(agent=agent, tools=[tool])
    wrapped_qa, _, evaluations = wrap_collecting(qa, guard)
    wrapped_agent, _, agent_evaluations = wrap_collecting(executor, guard)

    qa_out = wrapped_qa.invoke({"query": QUESTIONS["paris"]})
    agent_out = wrapped_agent.invoke({"input": QUESTIONS["paris"]})
    assert ragguard.flush(60)
    assert qa_out == {"query": QUESTIONS["paris"], "result": SUPPORTED}
    assert agent_out == {"input": QUESTIONS["paris"], "output": SUPPORTED}
    for evaluation in evaluations + agent_evaluations:  # the agent retrieved inside its tool
        assert [i.id for i in evaluation.items] == ["paris"]
        assert [s.text for s in evaluation.spans] == [SUPPORTED]


def test_guard_mode_raises_with_the_evaluation_everywhere(guard, store):
    chain = rag_chain(store, FakeListChatModel(responses=[UNSUPPORTED])) | StrOutputParser()
    wrapped, monitor, evaluations = wrap_collecting(chain, guard, mode="guard", action="raise")
    question = QUESTIONS["paris"]

    with pytest.raises(ragguard.UnsupportedAnswerError) as raised:
        wrapped.invoke(question)
    assert raised.value.evaluation.metrics.hallucination
    assert raised.value.evaluation.spans[0].text == UNSUPPORTED
    with pytest.raises(ragguard.UnsupportedAnswerError):
        list(wrapped.stream(question))  # after the last chunk
    refused = wrapped.batch([question, question], return_exceptions=True)
    assert all(isinstance(r, ragguard.UnsupportedAnswerError) for r in refused)

    async def run_async():
        with pytest.raises(ragguard.UnsupportedAnswerError):
            await wrapped.ainvoke(question)

    asyncio.run(run_async())
    assert monitor.stats.flagged == 5 == len(evaluations)


def test_guard_mode_passes_a_supported_answer_and_annotates_it(guard, store):
    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED]))
    wrapped = ragguard.wrap(chain, guard=guard, mode="guard", action="annotate")
    message = wrapped.invoke(QUESTIONS["paris"])
    assert message.content == SUPPORTED
    result = message.response_metadata["ragguard"]
    assert (result.status, result.passed, result.reasons) == ("evaluated", True, ())
    assert result.evaluation.metrics.support_rate == 1.0


@pytest.mark.parametrize("call", ["invoke", "ainvoke", "batch", "abatch"])
@pytest.mark.parametrize("kind", ["lcel", "retrieval_qa"])
def test_annotate_adds_the_key_to_a_dict_output_under_every_entry_point(guard, store, kind, call):
    retriever = store.as_retriever(search_kwargs={"k": 2})
    llm = FakeListChatModel(responses=[SUPPORTED] * 2)
    if kind == "lcel":
        answer = rag_chain(store, llm) | StrOutputParser()
        chain = RunnableParallel(question=RunnablePassthrough(), docs=retriever, result=answer)
    else:
        chain = RetrievalQA.from_chain_type(llm, retriever=retriever)
    wrapped = ragguard.wrap(chain, guard=guard, mode="guard", action="annotate")
    question = {"query": QUESTIONS["paris"]} if kind == "retrieval_qa" else QUESTIONS["paris"]
    if call == "invoke":
        output = wrapped.invoke(question)
    elif call == "ainvoke":
        output = asyncio.run(wrapped.ainvoke(question))
    elif call == "batch":
        (output,) = wrapped.batch([question])
    else:
        (output,) = asyncio.run(wrapped.abatch([question]))
    assert output["result"] == SUPPORTED
    assert output["ragguard"].evaluation.spans[0].text == SUPPORTED


def test_a_failing_evaluator_never_reaches_the_chain(guard, store, caplog):
    class Broken(Evaluator):
        def evaluate_batch(self, traces):
            raise RuntimeError("scorer exploded")

    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED])) | StrOutputParser()
    for mode in ("background", "guard"):
        monitor = ragguard.Monitor(guard=Guard(evaluator=Broken()), mode=mode, action="raise")
        assert ragguard.wrap(chain, monitor=monitor).invoke(QUESTIONS["paris"]) == SUPPORTED
        assert ragguard.flush(60)
        assert monitor.stats.failed == 1
    assert "scorer exploded" in caplog.text


def test_a_guard_that_fails_open_still_annotates_what_happened(guard, store):
    """A timed-out or failed guard lets the answer through and says so under the same key:
    reading ``response_metadata["ragguard"]`` never meets a missing key."""
    release = threading.Event()

    class Slow(Evaluator):
        def evaluate_batch(self, traces):
            release.wait(30)
            return guard.evaluator.evaluate_batch(traces)

    class Broken(Evaluator):
        def evaluate_batch(self, traces):
            raise RuntimeError("scorer exploded")

    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED] * 2))
    slow = ragguard.Monitor(
        guard=Guard(evaluator=Slow()), mode="guard", action="annotate", guard_timeout_s=0.05
    )
    message = ragguard.wrap(chain, monitor=slow).invoke(QUESTIONS["paris"])
    release.set()
    timed_out = message.response_metadata["ragguard"]
    assert isinstance(timed_out, ragguard.GuardResult)
    assert (timed_out.status, timed_out.evaluation, timed_out.passed) == ("timed_out", None, None)
    broken = ragguard.Monitor(guard=Guard(evaluator=Broken()), mode="guard", action="annotate")
    failed = ragguard.wrap(chain, monitor=broken).invoke(QUESTIONS["paris"])
    result = failed.response_metadata["ragguard"]
    assert result.status == "failed" and "scorer exploded" in result.error
    assert result.evaluation is None
    assert ragguard.flush(60)


def test_a_full_queue_drops_and_counts_while_every_request_answers(guard, store):
    release = threading.Event()

    class Slow(Evaluator):
        def evaluate_batch(self, traces):
            release.wait(30)
            return guard.evaluator.evaluate_batch(traces)

    monitor = ragguard.Monitor(guard=Guard(evaluator=Slow()), queue_size=2)
    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED])) | StrOutputParser()
    wrapped = ragguard.wrap(chain, monitor=monitor)
    answers = [wrapped.invoke(QUESTIONS["paris"]) for _ in range(8)]
    release.set()
    assert ragguard.flush(60)
    assert answers == [SUPPORTED] * 8
    stats = monitor.stats
    assert stats.dropped > 0 and stats.evaluated + stats.dropped == 8


def test_documents_become_items_with_ids_scores_and_media():
    photo = document_item(
        Document("A tower at dusk.", metadata={"image_url": "https://x/t.png", "score": 0.7})
    )
    assert (photo.image, photo.score, photo.text) == ("https://x/t.png", 0.7, "A tower at dusk.")
    same = Document("A tower at dusk.", metadata={"image_url": "https://x/t.png"})
    assert photo.id == document_item(same).id  # no id: a content id, so repeats merge
    assert document_item(Document("x", id="d7")).id == "d7"


def test_wrap_names_what_it_cannot_wrap():
    with pytest.raises(TypeError, match="cannot wrap a dict"):
        ragguard.wrap({})


def test_sampling_and_the_callback_handler_used_directly(guard, store):
    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED])) | StrOutputParser()
    evaluations = []
    handler = RagguardCallbackHandler(
        ragguard.Monitor(guard=guard), on_evaluation=evaluations.append
    )
    chain.invoke(QUESTIONS["rome"], config={"callbacks": [handler]})
    skipped = ragguard.Monitor(guard=guard, sample_rate=0.0)
    ragguard.wrap(chain, monitor=skipped).invoke(QUESTIONS["rome"])
    assert ragguard.flush(60)
    assert evaluations[0].items[0].id == "rome"
    assert skipped.stats.sampled_out == 1 and skipped.stats.submitted == 0


def test_rs_compressor_in_a_contextual_compression_retriever(guard, store):
    """The reranker keeps the most relevant document; the evaluator reads its RS from the
    cache the reranker filled instead of scoring it again."""
    cached = with_score_cache(guard)
    retriever = ContextualCompressionRetriever(
        base_compressor=RSDocumentCompressor(reranker=Reranker(top_n=1, guard=cached)),
        base_retriever=store.as_retriever(search_kwargs={"k": 3}),
    )
    chain = rag_chain(store, FakeListChatModel(responses=[SUPPORTED]), retriever=retriever)
    wrapped, _, evaluations = wrap_collecting(chain, cached)

    wrapped.invoke(QUESTIONS["paris"])
    assert ragguard.flush(60)
    (document,) = retriever.invoke(QUESTIONS["paris"])
    (item,) = evaluations[0].items  # the compressed retrieval replaced the base one
    assert item.id == document.id == "paris"
    assert item.relevance == item.retriever_score == document.metadata["relevance_score"]
    cache = cached.models.relevance_scorer
    assert cache.misses == len(DOCS) + 1 and cache.hits >= 2  # + the warm-up's dummy pair
