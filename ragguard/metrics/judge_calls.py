"""The judge calls an evaluation made, by what they were for: the summary, Prometheus and
the replay report show calls by use, since all of them draw on one budget."""

from __future__ import annotations

from collections import Counter

from ragguard.schema import Evaluation, SpanEvaluation

JUDGE_USES = ("span", "answer", "sample")
"""What a judge call is for: an in-band span, an in-band answer, the calibration sample."""

FROM_LOG = "from log"
"""Judge verdicts a replay took from the logged evaluation, each verified (its own span,
the same question hash) and made without a call."""


def span_use(span: SpanEvaluation) -> str:
    """What the judge was asked about ``span`` for: the calibration sample, or its band."""
    return "sample" if span.calibration_sample else "span"


def calls_by_use(evaluation: Evaluation) -> Counter[str]:
    """The judge calls an evaluation made, by use (``JUDGE_USES``), with their tokens in and
    out; a verdict served from the cache is no call. ``FROM_LOG``: the verdicts a replay
    reused from the trace's logged evaluation instead."""
    made: Counter[str] = Counter()
    verdicts = [(span_use(s), s.judge) for s in evaluation.spans]
    for use, verdict in [*verdicts, ("answer", evaluation.answer_judge)]:
        if verdict is not None and verdict.from_log:
            made[FROM_LOG] += 1
        if verdict is not None and not verdict.cached:
            made[use] += 1
            made["tokens in"] += verdict.input_tokens
            made["tokens out"] += verdict.output_tokens
    return made
