"""The async API (aevaluate, aevaluate_many) and warm-up (Guard.warmup, and wrap(), which
warms up in the background without ever holding up the wrapped call)."""

import asyncio
import threading
import time

import pytest
from langchain_core.runnables import RunnableLambda

import ragguard
from benchmarks.synthetic_media import tiny_clip
from ragguard.evaluation.evaluator import Evaluator
from ragguard.live.child import EvaluationChild
from tests.support.live_fixtures import DOCS, QUESTIONS, SUPPORTED


def trace(trace_id, answer=SUPPORTED):
    return {
        "trace_id": trace_id,
        "query": QUESTIONS["paris"],
        "items": [{"id": "paris", "text": DOCS["paris"]}, {"id": "rome", "text": DOCS["rome"]}],
        "response": answer,
    }


class Gated(Evaluator):
    """The real evaluator, held at the door of each batch until ``opened`` is set: lets a
    test observe what happens while an evaluation (or a warm-up) is in progress."""

    def __init__(self, guard):
        source = guard.models
        super().__init__(
            guard.config,
            relevance=source.relevance_scorer,
            support=source.support_scorer,
            embedder=source.embedder,
            analyzer=source.analyzer,
        )
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.batches = 0

    def evaluate_batch(self, traces):
        self.batches += 1
        self.entered.set()
        assert self.opened.wait(60)
        return super().evaluate_batch(traces)


def test_aevaluate_gives_what_evaluate_gives_and_leaves_the_event_loop_free(guard):
    gated = ragguard.Guard(evaluator=Gated(guard))

    async def main():
        task = asyncio.create_task(gated.aevaluate(trace("a1")))
        while not gated.evaluator.entered.is_set():  # the loop runs while it evaluates
            await asyncio.sleep(0.01)
        gated.evaluator.opened.set()  # set from the event loop itself
        return await task

    evaluation = asyncio.run(main())
    assert evaluation == guard.evaluate(trace("a1")).model_copy(
        update={"timing_ms": evaluation.timing_ms}
    )
    assert evaluation.metrics.support_rate == 1.0


def test_aevaluate_many_batches_and_concurrent_calls_each_get_their_own(guard):
    async def main():
        many = guard.aevaluate_many([trace("m1"), trace("m2", "Rome is in Germany.")])
        one, both = await asyncio.gather(guard.aevaluate(trace("s1")), many)
        return one, both

    one, both = asyncio.run(main())
    assert one.trace_id == "s1" and [e.trace_id for e in both] == ["m1", "m2"]
    assert both[0].metrics.hallucination is False and both[1].metrics.hallucination is True
    assert both[0].timing_ms["batch_size"] == 2


def test_aevaluate_raises_the_field_naming_error(guard):
    with pytest.raises(ragguard.TraceValidationError) as error:
        asyncio.run(guard.aevaluate({"trace_id": "bad", "items": [], "response": "x"}))
    assert error.value.field == "query"


def test_warmup_loads_every_model_once():
    fresh = ragguard.Guard()
    assert "embedder" not in vars(fresh.models)  # Guard() loads nothing
    fresh.warmup()
    assert fresh.models.embedder._model is not None
    assert {"relevance_scorer", "support_scorer"} <= vars(fresh.models).keys()
    gated = Gated(fresh)
    gated.opened.set()
    warm = ragguard.Guard(evaluator=gated)
    warm.warmup()
    warm.warmup()
    assert gated.batches == 1  # the second call is free


def test_warmup_loads_a_configured_image_model_too(tmp_path, embedder):
    config = ragguard.Config.model_validate(
        {"image": {"backend": "clip", "model": tiny_clip(tmp_path)}}
    )
    with_clip = ragguard.Guard(config, evaluator=Evaluator(config, embedder=embedder))
    with_clip.warmup()
    assert with_clip.models.visual_scorer._loaded is not None


def test_wrap_warms_up_in_the_background_and_never_holds_up_the_call(guard):
    gated = Gated(guard)  # the warm-up's dummy batch waits at the door
    evaluations = []
    chain = RunnableLambda(lambda question: SUPPORTED)
    wrapped = ragguard.wrap(
        chain, guard=ragguard.Guard(evaluator=gated), on_evaluation=evaluations.append
    )
    assert gated.entered.wait(60)  # warming up, before any request
    assert wrapped.invoke(QUESTIONS["paris"]) == SUPPORTED  # answered during the warm-up
    assert not evaluations and gated.batches == 1  # the request waits for the warm-up
    gated.opened.set()
    assert ragguard.flush(60)
    assert [e.spans[0].text for e in evaluations] == [SUPPORTED]


def test_wrap_starts_the_evaluation_process_before_the_first_request():
    monitor = ragguard.Monitor(config={"batch_size": 7})  # a child of its own
    process = monitor.process
    assert isinstance(process, EvaluationChild)
    deadline = time.monotonic() + 30
    while process.pid is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.pid is not None and monitor.stats.submitted == 0
