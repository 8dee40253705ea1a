"""What ``ragguard.wrap`` costs a live LangChain chain, and how fast the worker evaluates.

    python benchmarks/overhead.py [--requests 1000]

The chain is a real LCEL retrieval chain: an InMemoryVectorStore over the passages of
examples/traces.jsonl, queried with the bundled MiniLM (each request embeds its question:
no cache), a prompt, a scripted chat model replaying the traces' 42 answers, a string
parser. Every question is made unique (the request number is appended), so relevance is
never served from a cache; passages and answers recur, so their embeddings are, as in a
live app whose corpus repeats. The scripted model answers at once, so a request here is
far shorter than one with a real LLM and the CPU is never idle: a worst case. A second,
shorter run gives the scripted model a latency (``--llm-ms``), as a hosted LLM has: the
request then mostly waits, and the background evaluation runs in the idle CPU.

The machine is shared and its load drifts, so the wrapped and the unwrapped chain are
measured in alternation, request by request, and compared pairwise. For each request:

- unwrapped, with the evaluation process paused (SIGSTOP): the baseline, nothing else of
  ragguard running;
- wrapped, still paused: the middleware's own request-path cost (capture, queueing);
- wrapped, with the evaluation process running behind it (flat out once the queue has
  filled): what a user sees, including the CPU the background evaluation takes from this
  machine.

The three run in a random order per question (no one profits from going second). Paused
during two of the three, the evaluation process does all its work in the third's window,
so the last column over-states what spreading the same work over all requests would cost.

Last, with the evaluation process paused, a queue's worth of wrapped requests fills the
queue, and the worker drains it with no requests arriving: its evaluations/s is the
arrival rate it sustains before it starts dropping.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore
from tqdm import tqdm

import ragguard
from ragguard.scoring.encoders.embeddings import TextEmbedder

TRACES = Path(__file__).resolve().parent.parent / "examples" / "traces.jsonl"
CITATION = re.compile(r"\s*\[[^\]]*\]")


class QueryEmbeddings(Embeddings):
    """The bundled MiniLM for the vector store, uncached: every request pays its embedding."""

    def __init__(self) -> None:
        self.model = TextEmbedder(cache_size=0)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.model.encode(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def load_traces() -> list[dict]:
    traces = [json.loads(line) for line in TRACES.read_text().splitlines() if line.strip()]
    for trace in traces:
        trace["response"] = CITATION.sub("", trace["response"])
    return traces


def build_chain(store: InMemoryVectorStore, answers: list[str], llm_s: float) -> Runnable:
    """The LCEL retrieval chain; the scripted model takes ``llm_s`` seconds to answer."""
    context = store.as_retriever(search_kwargs={"k": 3}) | (
        lambda docs: "\n\n".join(d.page_content for d in docs)
    )
    prompt = ChatPromptTemplate.from_template("Context:\n{context}\n\nQuestion: {question}")
    llm = FakeListChatModel(responses=answers, sleep=llm_s or None)
    return (
        {"context": context, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()
    )


def timed(call: Callable[[str], object], question: str) -> float:
    started = time.perf_counter()
    call(question)
    return (time.perf_counter() - started) * 1000


def asked(questions: list[str], n: int) -> list[str]:
    return [f"{questions[i % len(questions)]} (request {i})" for i in range(n)]


def paired(chain: Runnable, wrapped: Runnable, child: int, questions: list[str], label: str):
    """Per question, in a random order: unwrapped and wrapped with the evaluation process
    paused, and wrapped with it running. Returns (unwrapped, paused, running) ms rows."""
    rng = random.Random(0)
    rows = []
    for question in tqdm(questions, desc=label):
        kinds = [(chain, True), (wrapped, True), (wrapped, False)]
        order = rng.sample(range(3), 3)
        times = [0.0, 0.0, 0.0]
        for k in order:
            runnable, paused = kinds[k]
            if paused:
                os.kill(child, signal.SIGSTOP)
            try:
                times[k] = timed(runnable.invoke, question)
            finally:
                if paused:
                    os.kill(child, signal.SIGCONT)
        rows.append(tuple(times))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--llm-ms", type=float, default=200.0, help="a slower scripted LLM")
    parser.add_argument("--slow", type=int, default=200, help="requests with the slower LLM")
    parser.add_argument("--drain-seconds", type=float, default=240.0)
    args = parser.parse_args()
    n = args.requests
    load_before = os.getloadavg()[0]

    traces = load_traces()
    questions = [t["query"] for t in traces]
    store = InMemoryVectorStore(QueryEmbeddings())
    store.add_documents(
        [Document(text) for text in sorted({i["text"] for t in traces for i in t["items"]})]
    )
    answers = [t["response"] for t in traces]
    chain = build_chain(store, answers, 0.0)
    warm = ragguard.Monitor()
    for question in tqdm(questions, desc="warm-up"):  # start the evaluation process, load
        ragguard.wrap(chain, monitor=warm).invoke(question)  # models, embed passages and
    ragguard.flush()  # answers once: untimed
    child = warm.worker.evaluate_batch.pid

    scenarios = [
        ("instant", chain, n, 0.1),
        (f"{args.llm_ms:.0f} ms", build_chain(store, answers, args.llm_ms / 1000), args.slow, 1.0),
        ("instant", chain, n, 1.0),
    ]
    table = []
    for llm, runnable, count, rate in scenarios:
        ragguard.flush()
        monitor = ragguard.Monitor(sample_rate=rate)
        wrapped = ragguard.wrap(runnable, monitor=monitor)
        label = f"LLM {llm}, sample_rate={rate}"
        rows = paired(runnable, wrapped, child, asked(questions, count), label)
        plain = statistics.median(r[0] for r in rows)
        capture = statistics.median(r[1] - r[0] for r in rows)
        total = statistics.median(r[2] - r[0] for r in rows)
        table.append((llm, rate, count, plain, capture, total, monitor.stats))
    fill_queue(wrapped, child, asked(questions, monitor.live.queue_size))
    drained = drain_rate(monitor, args.drain_seconds)

    print(
        f"\nmachine: {os.cpu_count()} cores, load average {load_before:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end (shared with other work); chain: MiniLM "
        "retrieval (k=3) + scripted chat model; lite evaluation models"
    )
    print(
        "scripted LLM | sample_rate | requests | unwrapped median | added median: capture "
        "only | added median: worker running too | queued / dropped"
    )
    for llm, rate, count, plain, capture, total, stats in table:
        print(
            f"{llm:>12} | {rate:>11} | {count:>8} | {plain:>13.2f} ms | "
            f"{capture:+.3f} ms ({100 * capture / plain:+.2f}%) | "
            f"{total:+.3f} ms ({100 * total / plain:+.2f}%) | {stats.submitted} / {stats.dropped}"
        )
    print(
        f"worker, queue full, no requests arriving: {drained:.1f} evaluations/s sustained "
        f"(batches of up to {monitor.config.batch_size}; evaluation process at nice "
        f"{monitor.live.worker_nice})"
    )


def fill_queue(wrapped: Runnable, child: int, questions: list[str]) -> None:
    """Queue a full queue's worth of requests with the evaluation process paused: the worker
    may have kept up with the requests above, leaving too little to time its drain."""
    os.kill(child, signal.SIGSTOP)
    try:
        for question in tqdm(questions, desc="filling the queue"):
            wrapped.invoke(question)
    finally:
        os.kill(child, signal.SIGCONT)


def drain_rate(monitor: ragguard.Monitor, seconds: float) -> float:
    """Evaluations/s between the first and the last batch completed within ``seconds``
    (completions come a batch at a time), with no requests arriving."""
    marks = []
    deadline = time.perf_counter() + seconds
    evaluated = monitor.stats.evaluated
    while time.perf_counter() < deadline and monitor.stats.pending:
        time.sleep(0.1)
        if monitor.stats.evaluated != evaluated:
            evaluated = monitor.stats.evaluated
            marks.append((time.perf_counter(), evaluated))
    if len(marks) < 2:
        return float("nan")
    (t0, e0), (t1, e1) = marks[0], marks[-1]
    return (e1 - e0) / (t1 - t0)


if __name__ == "__main__":
    main()
