"""A trace log for the review walkthrough (docs/review.md), written the way a deployment
writes one: a LangChain chain wrapped by ``ragguard.wrap`` with ``[exporters] trace_log``.
Its questions, passages and answers are 200 SciTail claim/evidence pairs
(``tests/review/data/scitail_200.jsonl``, Apache-2.0): the retriever returns each claim's
passage and the model answers with the claim, so the log holds real verdicts.
Run: python examples/review_log.py logs/ragguard.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough

import ragguard

PAIRS = Path(__file__).parent.parent / "tests" / "review" / "data" / "scitail_200.jsonl"


class PassageRetriever(BaseRetriever):
    """Returns the next stored passage (a stand-in for your vector store: a claim of
    SciTail may come with several passages, one per question asked)."""

    passages: list[str]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [Document(self.passages.pop(0), id="d1")]


def main(log: str) -> None:
    pairs = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines()]
    questions = [f"Is it true that {p['claim'][0].lower()}{p['claim'][1:]}" for p in pairs]
    passages = [p["evidence"] for p in pairs]
    chain = (
        {"context": PassageRetriever(passages=passages), "question": RunnablePassthrough()}
        | ChatPromptTemplate.from_template("Answer from {context}: {question}")
        | FakeListChatModel(responses=[p["claim"] for p in pairs])
        | StrOutputParser()
    )
    # evaluate on a thread of this process: a script ends when its answers are logged
    config = {"exporters": {"trace_log": log}, "live": {"worker": "thread"}}
    chain = ragguard.wrap(chain, config=config)
    for question in questions:
        chain.invoke(question)
    ragguard.flush(timeout=600)
    print(f"{ragguard.stats().evaluated} answers evaluated and logged to {log}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "logs/ragguard.jsonl")
