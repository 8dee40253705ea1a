"""The run summary's labels say what each figure is a mean or a share of: per trace, or
per span (the figures themselves keep their names)."""

import re

from ragguard.metrics.summary import MEANS, RunSummary
from ragguard.schema import Evaluation, Metrics, SpanEvaluation


def evaluation(trace_id: str, supported: list[bool]) -> Evaluation:
    spans = [
        SpanEvaluation(
            text=f"claim {n}.",
            start=0,
            end=8,
            kind="objective",
            support=0.9 if ok else 0.1,
            supported=ok,
        )
        for n, ok in enumerate(supported)
    ]
    rate = sum(supported) / len(supported)
    metrics = Metrics(support_rate=rate, hallucination=not all(supported), n_objective=len(spans))
    return Evaluation(
        trace_id=trace_id, items=[], spans=spans, metrics=metrics, thresholds={"support": 0.5}
    )


def test_each_label_says_per_trace_or_per_span():
    summary = RunSummary()
    summary.add(evaluation("a", [True]))  # support rate 1.0
    summary.add(evaluation("b", [True, False, False, False]))  # 0.25
    text = summary.render(0.0, 0.0)
    # the mean of the two traces' rates (0.625), not the share of the five spans (0.4)
    assert re.search(r"support rate \(per trace: share of its claims\) +0\.625\n", text)
    assert re.search(r"hallucination rate \(share of traces\) +0\.500\n", text)
    assert re.search(r"unsupported span rate \(per span\) +0\.6", text)  # 3 of 5 spans
    assert re.search(r"objective spans \(all traces\) +2 supported / 3 not", text)
    assert all("per trace" in label or "share of traces" in label for label in MEANS.values())
