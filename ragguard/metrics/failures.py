"""What failed in one evaluation, in words: each unsupported claim with its reasons, an
answer off the question. One wording for the JUnit report and the pytest assertions."""

from __future__ import annotations

from ragguard.schema import Evaluation, SpanEvaluation


def claim_line(span: SpanEvaluation) -> str:
    """One unsupported or unscored claim, with who decided and how strongly."""
    score = "no support score" if span.support is None else f"support {span.support:.2f}"
    if span.support_source == "judge" and span.judge is not None:
        score += f"; the judge ({span.judge.model}) said not supported"
    return f"{span.text!r} ({score})"


def reason_lines(span: SpanEvaluation) -> list[str]:
    """Why the claim is not supported: each reason, else the one the span carries."""
    if span.reasons:
        return [str(reason) for reason in span.reasons]
    if span.unscored_reason:
        return [span.unscored_reason]
    if span.supported is None:
        return ["nothing retrieved to check it against"]
    if span.judge is not None and span.judge.rationale:
        return [f"judge: {span.judge.rationale}"]
    return ["below the support threshold"]


def unsupported_claims(evaluation: Evaluation, *, unscored: bool = False) -> list[str]:
    """Each objective span not supported (and, with ``unscored``, each left without a
    verdict), with its reasons indented under it."""
    lines: list[str] = []
    for span in evaluation.spans:
        if span.kind != "objective" or span.supported or (span.supported is None and not unscored):
            continue
        word = "unsupported" if span.supported is False else "unscored"
        lines.append(f"{word}: {claim_line(span)}")
        lines += [f"  - {reason}" for reason in reason_lines(span)]
    return lines


def off_question(evaluation: Evaluation) -> str | None:
    """A line saying the answer does not address the query, or None when it does (or when
    no verdict was reached: an abstention)."""
    metrics = evaluation.metrics
    if metrics.answer_relevant is not False:
        return None
    score = metrics.answer_relevance
    threshold = evaluation.thresholds.answer_relevance
    how = "" if score is None else f": answer relevance {score:.2f}"
    how += "" if threshold is None or score is None else f" below {threshold:.2f}"
    if evaluation.answer_judge is not None:
        how += f" (the judge, {evaluation.answer_judge.model}, decided)"
    return f"the answer does not address the query{how}"


def failure_summary(evaluation: Evaluation) -> str | None:
    """One line: how many claims are unsupported and whether the answer is off the question;
    None when neither."""
    parts = []
    unsupported = sum(s.kind == "objective" and s.supported is False for s in evaluation.spans)
    if unsupported:
        parts.append(f"{unsupported} unsupported claim{'s' if unsupported > 1 else ''}")
    if evaluation.metrics.answer_relevant is False:
        parts.append("answer off the question")
    return "; ".join(parts) or None
