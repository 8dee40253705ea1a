"""Guard mode's minimums (``[live] min_support_rate``, ``min_relevant_at_k``,
``min_answer_relevance``): why an evaluated answer fails them, in words."""

from __future__ import annotations

from ragguard.config import LiveConfig
from ragguard.schema import Evaluation


def below_minimums(live: LiveConfig, evaluation: Evaluation) -> list[str]:
    """Why an answer fails the configured minimums (empty: it passes)."""
    metrics = evaluation.metrics
    reasons = []
    rate = metrics.support_rate
    if live.min_support_rate is not None and rate is not None and rate < live.min_support_rate:
        unsupported = [s.text for s in evaluation.spans if s.supported is False]
        reasons.append(
            f"support rate {rate:.2f} < {live.min_support_rate:.2f} "
            f"(unsupported: {'; '.join(unsupported[:3])!r})"
        )
    share = metrics.relevant_at_k
    if live.min_relevant_at_k is not None and share is not None and share < live.min_relevant_at_k:
        reasons.append(f"relevant items {share:.2f} < {live.min_relevant_at_k:.2f}")
    reasons += off_topic(evaluation, live.min_answer_relevance)
    return reasons


def off_topic(evaluation: Evaluation, minimum: float | None) -> list[str]:
    """``[live] min_answer_relevance``: the judge's verdict when it read the answer, else the
    lite score against the minimum."""
    score, judged = evaluation.metrics.answer_relevance, evaluation.answer_judge
    if minimum is None or score is None:
        return []
    if judged is not None and judged.verdict is not None:
        return [] if judged.verdict else [f"off-topic answer (judge: {judged.rationale[:200]!r})"]
    return [f"answer relevance {score:.2f} < {minimum:.2f}"] if score < minimum else []
