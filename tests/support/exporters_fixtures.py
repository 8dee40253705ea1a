"""What the exporter tests share: a real LangChain retrieval chain (a keyword retriever over
the live_fixtures corpus that also returns a captionless image, a scripted chat model),
wrapped with a Monitor that evaluates on a thread, and a hand-built evaluation for the
tests that check only what an exporter writes."""

import re

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough

import ragguard
from ragguard.schema import (
    Evaluation,
    ItemEvaluation,
    JudgeVerdict,
    Metrics,
    SpanEvaluation,
    SpanReason,
    Trace,
)
from tests.support.frozen_evaluations import with_spans
from tests.support.live_fixtures import DOCS

IMAGE_URI = "https://example.org/eiffel.jpg"


def _words(text):
    return set(re.findall(r"\w+", text.lower()))


class KeywordRetriever(BaseRetriever):
    """The two corpus documents sharing most words with the query (retriever scores 0.9,
    0.8), then a photo with no caption, which ragguard cannot score (relevance null)."""

    def _get_relevant_documents(self, query, *, run_manager):
        ranked = sorted(DOCS, key=lambda key: -len(_words(query) & _words(DOCS[key])))
        found = [
            Document(DOCS[key], id=key, metadata={"score": 0.9 - 0.1 * rank, "source": "wiki"})
            for rank, key in enumerate(ranked[:2])
        ]
        return [*found, Document("", id="photo", metadata={"image": IMAGE_URI, "score": 0.5})]


def wrapped_chain(guard, answers, *, exporters=(), **options):
    """The chain answering ``answers`` in turn, wrapped with a fresh Monitor."""
    context = KeywordRetriever() | (lambda docs: "\n".join(d.page_content for d in docs))
    chain = (
        {"context": context, "question": RunnablePassthrough()}
        | ChatPromptTemplate.from_template("{context}\n{question}")
        | FakeListChatModel(responses=list(answers))
        | StrOutputParser()
    )
    evaluations = []
    monitor = ragguard.Monitor(guard=guard, exporters=exporters, **options)
    return (
        ragguard.wrap(chain, monitor=monitor, on_evaluation=evaluations.append),
        monitor,
        evaluations,
    )


def _span(text, start, kind, support, **extra):
    supported = None if support is None else support >= 0.55
    end = start + len(text)
    return SpanEvaluation(
        text=text, start=start, end=end, kind=kind, support=support, supported=supported, **extra
    )


def made_up(trace_id="t1"):
    """A trace and an evaluation of it written by hand: one supported, one unsupported, one
    subjective span; a text item and an uncaptioned image."""
    trace = Trace.parse(
        {
            "trace_id": trace_id,
            "query": "Where is the Eiffel Tower?",
            "items": [
                {"id": "d1", "text": "The Eiffel Tower is in Paris.", "score": 0.8},
                {"id": "img", "image": IMAGE_URI},
            ],
            "response": "It is in Paris. It moved to Rome. It is lovely.",
        }
    )
    evaluation = Evaluation(
        trace_id=trace_id,
        items=[
            ItemEvaluation(id="d1", relevance=0.9, relevant=True, retriever_score=0.8),
            ItemEvaluation(id="img", relevance=None, relevant=None, modality="image"),
        ],
        spans=[
            _span("It is in Paris.", 0, "objective", 0.95, evidence_id="d1"),
            _span(
                "It moved to Rome.",
                16,
                "objective",
                0.1,
                evidence_id="d1",
                citations=["d1"],
                unknown_citations=["7"],
                reasons=[SpanReason(check="entity", claim="Rome", evidence="Paris", item="d1")],
            ),
            _span("It is lovely.", 34, "subjective", None),
        ],
        metrics=Metrics(
            mean_relevance=0.9,
            relevant_at_k=0.5,
            support_rate=0.5,
            hallucination=True,
            citation_precision=0.0,
            citation_recall=0.5,
            n_spans=3,
            n_objective=2,
            n_subjective=1,
            n_uncited=1,
        ),
        timing_ms={"total": 12.0},
        thresholds={"relevance": 0.5, "support": 0.55},
    )
    return trace, evaluation


def judged_made_up(trace_id="t1"):
    """``made_up()`` with both objective spans decided by a judge that scored them: the first
    in its band (0.8, supported), the second drawn for the calibration sample (0.3); the
    answer judged by a verdict read from text (no score)."""
    trace, evaluation = made_up(trace_id)
    changes = {
        index: {
            "support_source": "judge",
            "supported": score >= 0.5,
            "calibration_sample": sampled,
            "judge": JudgeVerdict(
                verdict=score >= 0.5, rationale="", model="m", score=score, question="q" * 64
            ),
        }
        for index, (score, sampled) in enumerate(((0.8, False), (0.3, True)))
    }
    evaluation = with_spans(evaluation, changes)
    answer_judge = JudgeVerdict(verdict=True, rationale="responds", model="m")
    return trace, evaluation.model_copy(update={"answer_judge": answer_judge})
