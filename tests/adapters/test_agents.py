"""ragguard.wrap on agents: a LangGraph ReAct graph (agent node, ToolNode, tools_condition)
whose tool is a retriever, and LlamaIndex agent workflows (FunctionAgent, ReActAgent) whose
tool is a query engine or a retriever. Retrieval, graphs, workflows and tools are real; the
ONLY fake is the LLM, scripted to call the search tool once and then answer."""

import asyncio

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import create_retriever_tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from llama_index.core.agent.workflow import AgentOutput, FunctionAgent, ReActAgent
from llama_index.core.base.llms.types import ToolCallBlock
from llama_index.core.llms import ChatMessage, MessageRole, MockLLM
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import QueryEngineTool, RetrieverTool

import ragguard
from ragguard.exporters.base import ExportResult
from tests.support.live_fixtures import DOCS, QUESTIONS, SUPPORTED, UNSUPPORTED
from tests.support.retrieval_fixtures import langchain_store, llamaindex_index

# LlamaIndex's workflows list their own pydantic fields with inspect, and its ReActAgent
# calls a deprecated workflow API: their deprecation warnings, not ragguard's
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEARCH = "eiffel tower location"
"""What the scripted agents ask their search tool: not the user's question."""
FOUND = ["paris", "berlin"]
"""The two documents MiniLM ranks first for SEARCH."""


class Collector:
    """An exporter that keeps what ragguard captured: each trace beside its evaluation."""

    def __init__(self):
        self.traces = []

    def export(self, batch):
        self.traces.extend((finished.trace, finished.evaluation) for finished in batch)
        return ExportResult.SUCCESS

    def shutdown(self):
        pass


def wrap_agent(agent, guard, **options):
    collector = Collector()
    monitor = ragguard.Monitor(guard=guard, exporters=[collector], **options)
    return ragguard.wrap(agent, monitor=monitor), collector


def assert_captured(collector, answer, items):
    """One request: the user's question (not the tool's search), the final answer (not
    the tool call), and the items the tool retrieved."""
    assert ragguard.flush(60)
    ((trace, evaluation),) = collector.traces
    assert trace.query == QUESTIONS["paris"]
    assert trace.response == answer
    assert [i.id for i in trace.items] == items
    assert [s.text for s in evaluation.spans] == [answer]
    return evaluation


# LangGraph


class ToolCallingFakeChatModel(GenericFakeChatModel):
    """LangChain's scripted chat model, bindable to tools: it replays its messages, tool
    calls included, whatever tools it is given."""

    def bind_tools(self, tools, **kwargs):
        return self


@pytest.fixture(scope="module")
def search_tool(guard):
    retriever = langchain_store().as_retriever(search_kwargs={"k": 2})
    return create_retriever_tool(retriever, "search", "Search the encyclopedia.")


def react_graph(tool, answer):
    """The LangGraph ReAct loop: the model calls the search tool, then answers."""
    call = {"name": "search", "args": {"query": SEARCH}, "id": "call-1"}
    model = ToolCallingFakeChatModel(
        messages=iter([AIMessage("", tool_calls=[call]), AIMessage(answer)])
    )
    graph = StateGraph(MessagesState)
    graph.add_node("agent", lambda state: {"messages": [model.invoke(state["messages"])]})
    graph.add_node("tools", ToolNode([tool]))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile()


def test_langgraph_agent_is_captured_with_its_retrievals_and_final_answer(guard, search_tool):
    wrapped, collector = wrap_agent(react_graph(search_tool, SUPPORTED), guard)
    output = wrapped.invoke({"messages": [("user", QUESTIONS["paris"])]})
    unwrapped = react_graph(search_tool, SUPPORTED).invoke(
        {"messages": [("user", QUESTIONS["paris"])]}
    )
    assert [m.content for m in output["messages"]] == [m.content for m in unwrapped["messages"]]
    evaluation = assert_captured(collector, SUPPORTED, FOUND)
    assert evaluation.metrics.support_rate == 1.0


@pytest.mark.parametrize("call", ["stream", "ainvoke"])
def test_langgraph_agent_streamed_or_async_is_one_request(guard, search_tool, call):
    wrapped, collector = wrap_agent(react_graph(search_tool, SUPPORTED), guard)
    question = {"messages": [{"role": "user", "content": QUESTIONS["paris"]}]}
    if call == "stream":
        updates = list(wrapped.stream(question, stream_mode="updates"))
        assert [next(iter(u)) for u in updates] == ["agent", "tools", "agent"]
    else:
        asyncio.run(wrapped.ainvoke(question))
    assert_captured(collector, SUPPORTED, FOUND)


def test_langgraph_agent_in_guard_mode_raises_on_an_unsupported_answer(guard, search_tool):
    wrapped = ragguard.wrap(
        react_graph(search_tool, UNSUPPORTED), guard=guard, mode="guard", action="raise"
    )
    with pytest.raises(ragguard.UnsupportedAnswerError) as refusal:
        wrapped.invoke({"messages": [("user", QUESTIONS["paris"])]})
    assert refusal.value.evaluation.metrics.hallucination


# LlamaIndex agent workflows


def scripted_llm(answer, call):
    """A function-calling LLM that calls the search tool first (``call``: the assistant
    message that does it) and answers ``answer`` once the tool has replied."""

    def replied(message):  # a function-calling tool reply, or a ReAct observation
        return message.role == MessageRole.TOOL or (message.content or "").startswith(
            "Observation:"
        )

    def respond(messages, **kwargs):
        if any(replied(m) for m in messages):
            return ChatMessage(role=MessageRole.ASSISTANT, content=answer)
        return call

    return MockFunctionCallingLLM(response_generator=respond)


def function_agent(index, answer):
    """A FunctionAgent whose tool is a query engine (its own LLM answers with the context)."""
    engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=2)
    tool = QueryEngineTool.from_defaults(engine, name="search", description="Search.")
    call = ToolCallBlock(tool_call_id="call-1", tool_name="search", tool_kwargs={"input": SEARCH})
    llm = scripted_llm(answer, ChatMessage(role=MessageRole.ASSISTANT, blocks=[call]))
    return FunctionAgent(tools=[tool], llm=llm)


def react_agent(index, answer):
    """A ReActAgent whose tool is a retriever; the LLM writes ReAct text."""
    tool = RetrieverTool.from_defaults(
        index.as_retriever(similarity_top_k=2), name="search", description="Search."
    )
    call = f'Thought: I need to search.\nAction: search\nAction Input: {{"input": "{SEARCH}"}}'
    answer = f"Thought: I can answer without using any more tools.\nAnswer: {answer}"
    return ReActAgent(tools=[tool], llm=scripted_llm(answer, ChatMessage(content=call)))


@pytest.fixture(scope="module")
def index(guard):
    return llamaindex_index()


@pytest.mark.parametrize("make_agent", [function_agent, react_agent])
def test_llamaindex_agent_workflow_is_captured(guard, index, make_agent):
    wrapped, collector = wrap_agent(make_agent(index, SUPPORTED), guard)
    unwrapped = make_agent(index, SUPPORTED)

    async def run(agent):
        return await agent.run(user_msg=QUESTIONS["paris"])

    output, expected = asyncio.run(run(wrapped)), asyncio.run(run(unwrapped))
    assert isinstance(output, AgentOutput) and str(output) == str(expected) == SUPPORTED
    assert isinstance(wrapped, type(unwrapped))  # still the agent, for isinstance
    evaluation = assert_captured(collector, SUPPORTED, FOUND)
    assert evaluation.metrics.support_rate == 1.0


def test_llamaindex_agent_events_stream_and_guard_mode_raises_when_awaited(guard, index):
    wrapped = ragguard.wrap(
        function_agent(index, UNSUPPORTED), guard=guard, mode="guard", action="raise"
    )

    async def run():
        handler = wrapped.run(user_msg=QUESTIONS["paris"])
        events = [type(event).__name__ async for event in handler.stream_events()]
        with pytest.raises(ragguard.UnsupportedAnswerError) as refusal:
            await handler
        return events, refusal.value

    events, refusal = asyncio.run(run())
    assert "ToolCallResult" in events and "AgentOutput" in events
    assert refusal.evaluation.metrics.hallucination
    assert [i.id for i in refusal.evaluation.items] == FOUND


def test_llamaindex_agent_in_guard_mode_annotates_its_answer(guard, index):
    wrapped = ragguard.wrap(
        function_agent(index, SUPPORTED), guard=guard, mode="guard", action="annotate"
    )

    async def run():
        return await wrapped.run(user_msg=QUESTIONS["paris"])

    output = asyncio.run(run())
    evaluation = output.response.additional_kwargs["ragguard"].evaluation
    assert evaluation.metrics.support_rate == 1.0
    assert set(DOCS) >= {i.id for i in evaluation.items}
