"""Hand-built traces and evaluations for the trace log and replay tests (no models)."""

from ragguard.schema import Evaluation, ItemEvaluation, Metrics, SpanEvaluation, Trace

INJECTION = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>"
RESPONSE = f"Paris is in France [1]. It has {INJECTION} 90 moons [2]. I think it is lovely."


def trace(trace_id: str = "t1", **fields) -> Trace:
    data = {
        "trace_id": trace_id,
        "query": f"Where is Paris? {INJECTION}",
        "items": [
            {"id": "d1", "text": "Paris is the capital of France.", "score": 0.9},
            {"id": "d2", "text": "Saturn has many moons.", "metadata": {"src": "wiki"}},
        ],
        "response": RESPONSE,
        "session": "s-42",  # an unknown field the log must keep
    }
    return Trace.parse({**data, **fields})


def _claim(support: float, supported: bool, cited: str) -> dict:
    return {"kind": "objective", "support": support, "supported": supported, "citations": [cited]}


def evaluation(
    trace_id: str = "t1",
    *,
    second_supported: bool = False,
    d2_relevant: bool = False,
    support_threshold: float = 0.5,
    hallucination: bool | None = None,
) -> Evaluation:
    """The evaluation of ``trace()``: three spans (the second one's verdict is a parameter),
    two items."""
    first = RESPONSE.index(" It has")
    third = RESPONSE.index(" I think")
    spans = [
        SpanEvaluation(text="Paris is in France.", start=0, end=first, **_claim(0.9, True, "d1")),
        SpanEvaluation(
            text=f"It has {INJECTION} 90 moons.",
            start=first + 1,
            end=third,
            **_claim(0.55, second_supported, "d2"),
        ),
        SpanEvaluation(
            text="I think it is lovely.",
            start=third + 1,
            end=len(RESPONSE),
            kind="subjective",
            support=None,
            supported=None,
        ),
    ]
    items = [
        ItemEvaluation(id="d1", relevance=0.95, relevant=True),
        ItemEvaluation(id="d2", relevance=0.45, relevant=d2_relevant),
    ]
    unsupported = not second_supported
    metrics = Metrics(
        mean_relevance=0.7,
        relevant_at_k=(1 + d2_relevant) / 2,
        support_rate=0.5 if unsupported else 1.0,
        hallucination=unsupported if hallucination is None else hallucination,
        n_spans=3,
        n_objective=2,
        n_subjective=1,
    )
    return Evaluation(
        trace_id=trace_id,
        items=items,
        spans=spans,
        metrics=metrics,
        thresholds={"relevance": 0.5, "support": support_threshold},
    )
