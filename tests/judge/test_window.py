"""The in-band share window (``judge/share.py``) cannot overturn agreement or cross
pipelines: where the lite tier and the judge agree nothing overturns them, a window all one
way decides nothing, each pipeline (``service.name`` in ``serve``) has its own window, and a
span whose lite verdict stood says ``support_source: "lite"``. Both reproductions of issue 57
(High 4) run through ``Cascade.rule`` with a loopback judge answering set probabilities."""

import contextlib
import threading
from http.server import ThreadingHTTPServer

from benchmarks.accuracy_judge import StandInJudge, _handler
from ragguard.config import JudgeConfig
from ragguard.judge.cascade import Cascade
from ragguard.judge.ruling import Draft
from ragguard.schema import SpanEvaluation, Thresholds, Trace

ETA = 0.576
CARD = {"model": "stand-in", "offset": 0.0, "lite_weight": 1.0, "judge_weight": 1.0}


class SetScores(StandInJudge):
    """A judge whose P(yes) for each claim is given."""

    def score(self, claim: str, verdict: bool) -> float:
        return SCORES[claim]


SCORES: dict[str, float] = {}


@contextlib.contextmanager
def judge(scores):
    SCORES.clear()
    SCORES.update(scores)
    standin = SetScores({c: p >= 0.5 for c, p in scores.items()}, flip=0.0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(standin))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        config = JudgeConfig(
            base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
            model="stand-in",
            band=(0.0, 1.0),
            answer_band=(0.0, 0.0),
            combination=CARD,
            max_calls_per_minute=None,
        )
        yield Cascade(config)
    finally:
        server.shutdown()
        server.server_close()


def draft(claim, lite, service=None):
    extra = {} if service is None else {"otel": {"service": service}}
    trace = Trace.model_validate(
        {
            "trace_id": claim,
            "query": "q?",
            "items": [{"id": "d1", "text": f"Some passage about {claim}"}],
            "response": claim,
            **extra,
        }
    )
    span = SpanEvaluation(
        text=claim, start=0, end=len(claim), kind="objective", support=lite, supported=lite >= ETA
    )
    thresholds = Thresholds(relevance=0.5, support=ETA, answer_relevance=0.5)
    return Draft(trace, [span], None, thresholds)


def verdict(cascade, one):
    (ruling,) = cascade.rule([one])
    return one.spans[0].model_copy(update=ruling.spans[0].update())


def test_an_unsupported_claim_the_judge_also_doubts_stays_unsupported_after_low_traffic():
    others = {f"Unrelated claim {n}.": 0.1 + 0.01 * n for n in range(12)}
    target = "The tower was moved in 1975."
    with judge({**others, target: 0.45}) as cascade:
        for n, claim in enumerate(others):
            verdict(cascade, draft(claim, 0.5 + 0.02 * (n % 2) * 5))  # lite says both ways
        span = verdict(cascade, draft(target, 0.48))
    assert span.judge.score == 0.45
    assert span.supported is False  # on 2462735: supported, steered by the others' scores


def test_a_claim_both_tiers_support_stays_supported_after_unsupported_traffic():
    others = {f"Unsupported claim {n}.": 0.3 for n in range(12)}
    target = "The tower is in Paris."
    with judge({**others, target: 0.8}) as cascade:
        for claim in others:
            verdict(cascade, draft(claim, 0.5))  # all lite-unsupported: a share of 0
        span = verdict(cascade, draft(target, 0.582))
    assert span.supported is True  # on 2462735: unsupported (`if share <= 0.0: return False`)


def test_during_warm_up_the_lite_verdict_stands_and_says_so():
    claim = "The tower is made of iron."
    with judge({claim: 0.1}) as cascade:
        span = verdict(cascade, draft(claim, 0.6))  # lite supported, the judge disagrees
    assert span.supported is True and span.support_source == "lite"
    assert span.judge is not None and span.judge.score == 0.1  # asked, and recorded


def test_one_pipelines_traffic_does_not_steer_anothers_verdicts():
    theirs = {f"Their claim {n}.": 0.9 for n in range(12)}
    mine = "My claim about the tower."
    with judge({**theirs, mine: 0.2}) as cascade:
        for n, claim in enumerate(theirs):
            verdict(cascade, draft(claim, 0.5 + 0.1 * (n % 2), service="someone-else"))
        span = verdict(cascade, draft(mine, 0.6, service="mine"))
    # my pipeline's window is still warming up: the lite verdict stands (on 2462735 the other
    # tenant's high scores ranked mine below the cut: unsupported, "judge")
    assert span.supported is True and span.support_source == "lite"
