"""Assembly: the only code that builds an ``Evaluation``, once, from a trace's plan.

``lite`` gives the lite verdicts (items, spans with each unsupported span's reasons, answer
relevance); the judge reads their draft and rules; ``assemble`` builds the evaluation from
both, with its metrics, timings and calibration. The evaluation is frozen: nothing edits it
afterwards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragguard.evaluation.plan import SpanPlan, TracePlan
from ragguard.judge import Draft, Ruling
from ragguard.language import UNREADABLE
from ragguard.metrics import AnswerVerdict, answer_verdict, trace_metrics
from ragguard.schema import (
    NO_CONTEXT,
    CalibrationStatus,
    Evaluation,
    FieldIssue,
    ItemEvaluation,
    SpanEvaluation,
    SpanReason,
    Thresholds,
    Trace,
)
from ragguard.scoring.wiring import checks_not_run


@dataclass(frozen=True)
class Lite:
    """A trace's lite verdicts: what the judge reads (``draft``) and assembly builds on."""

    draft: Draft
    items: tuple[ItemEvaluation, ...]
    answer: AnswerVerdict
    errors: tuple[FieldIssue, ...]
    """The plan's issues, then the items no scorer reads."""


def lite(plan: TracePlan, thresholds: Thresholds) -> Lite:
    """One planned trace's lite verdicts: its items and its spans with their reasons."""
    trace, eta_r = plan.trace, thresholds.eta_relevance
    items = []
    errors = list(plan.issues)
    for index, (item, work) in enumerate(zip(trace.items, plan.items, strict=True)):
        score, reason = work.relevance, work.unscorable
        if score is None and reason is None:
            reason = f"no scorer for {item.modality} items without a text surrogate"
            errors.append(FieldIssue(field=f"items[{index}]", message=reason))
        items.append(
            ItemEvaluation(
                id=item.id,
                relevance=score,
                relevant=None if score is None else score >= eta_r,
                modality=item.modality,
                retriever_score=item.score,
                error=reason,
                best_frame_s=work.relevance_frame_s,
            )
        )
    answer = answer_verdict(plan.analysed, plan.answer, thresholds.eta_answer)
    position = {item.id: i for i, item in enumerate(trace.items)}
    spans = [
        _span_result(work, plan.trace, position, thresholds.eta_support, addresses)
        for work, addresses in zip(plan.spans, answer.addresses, strict=True)
    ]
    draft = Draft(trace, tuple(spans), answer.relevance, thresholds)
    return Lite(draft, tuple(items), answer, tuple(errors))


def assemble(
    plan: TracePlan,
    verdicts: Lite,
    ruling: Ruling | None,
    timing: Mapping[str, float],
    calibration: CalibrationStatus | None,
) -> Evaluation:
    """One trace's evaluation, built once and frozen: its lite verdicts with the judge's
    ruling on them (spans it decided, its answer verdict), metrics from the result, the
    batch's timings and the request's own (``Trace.timing_ms``, a captured request's)."""
    draft, answer = verdicts.draft, verdicts.answer
    spans = list(draft.spans)
    relevant = answer.relevant
    if ruling is not None:
        for index, said in ruling.spans.items():
            spans[index] = spans[index].model_copy(update=said.update())
        if ruling.answer_relevant is not None:
            relevant = ruling.answer_relevant
    eta_s = draft.thresholds.eta_support
    metrics = trace_metrics(verdicts.items, spans, eta_s, context=plan.trace.has_context)
    timing_ms = {k: round(v, 3) for k, v in timing.items()} | (plan.trace.timing_ms or {})
    return Evaluation(
        trace_id=plan.trace.trace_id,
        items=verdicts.items,
        spans=tuple(spans),
        metrics=metrics.model_copy(
            update={"answer_relevance": answer.relevance, "answer_relevant": relevant}
        ),
        timing_ms=timing_ms,
        thresholds=draft.thresholds,
        errors=verdicts.errors,
        calibration=calibration,
        answer_judge=None if ruling is None else ruling.answer_judge,
    )


def _span_result(
    work: SpanPlan,
    trace: Trace,
    position: dict[str, int],
    eta: float,
    addresses: bool | None,
) -> SpanEvaluation:
    span = work.span
    support = citation_support = evidence_id = frame_s = None
    reasons: tuple[SpanReason, ...] = ()
    unscored = None
    if span.kind == "objective" and not trace.has_context:
        unscored = NO_CONTEXT  # no items key: nothing to check the claim against
    elif span.kind == "objective" and not trace.items:
        support = 0.0  # nothing was retrieved, so nothing supports the claim
        reasons = (
            SpanReason(check="nothing_retrieved", claim=span.text, evidence="", item="none"),
        )
    elif span.kind == "objective":
        allowed = [position[r] for r in span.references] or range(len(trace.items))
        scored = {i: work.pairs[i].support for i in allowed if i in work.pairs}
        if scored:
            best = max(scored, key=scored.__getitem__)
            support, evidence_id = scored[best], trace.items[best].id
            frame_s = work.pairs[best].frame_s
        cited_scores = [
            work.pairs[position[c]].support for c in span.citations if position[c] in work.pairs
        ]
        if cited_scores:
            citation_support = max(cited_scores)
        elif span.unknown_citations:
            citation_support = 0.0  # a citation that names nothing supports nothing
        if support is not None and support < eta:
            ranked = sorted(scored, key=lambda i: -scored[i])
            reasons = _span_reasons(work, trace, ranked, support, eta)
    return SpanEvaluation(
        text=span.text,
        start=span.start,
        end=span.end,
        kind=span.kind,
        support=support,
        supported=None if support is None else support >= eta,
        citations=tuple(span.citations),
        citation_support=citation_support,
        evidence_id=evidence_id,
        evidence_frame_s=frame_s,
        references=tuple(span.references),
        unknown_citations=tuple(span.unknown_citations),
        reasons=reasons,
        hedges=tuple(span.hedges),
        addresses_query=addresses,
        language=span.language if work.language is None else work.language,
        unscored_reason=unscored or (_unread(work) if support is None else None),
        checks_off=()
        if work.language is None
        else tuple(checks_not_run(work.language, work.all_across or False)),
        set_aside=tuple(span.aside) or None,
    )


MAX_REASONS = 5
"""Reasons kept per span: the decisive few, not every check that fired on every item."""


def _span_reasons(
    work: SpanPlan, trace: Trace, ranked: Sequence[int], support: float, eta: float
) -> tuple[SpanReason, ...]:
    """Why a span is unsupported, decisive first: the contradictions (number, date,
    negation, entity) before claim words no item mentions, each by its best-supporting item
    first, each reason once (the same wrong number is not repeated for every item), at most
    MAX_REASONS. When the best-supporting item gives a reason, another item's counts only
    where it names a value of its own ("1889", not "nothing": an item that says nothing of
    the claim does not bear on it); a claim value that some item answers with a value is not
    listed again as answered by nothing. A span no check explains gets ``low_support``: its
    best support and eta. Items left unread for their language come last, as ``language``."""
    seen: set[tuple[str, str, str]] = set()
    found: list[SpanReason] = []
    best_explains = bool(ranked) and bool(work.pairs[ranked[0]].reasons)
    for i in ranked:
        for r in work.pairs[i].reasons:
            if best_explains and i != ranked[0] and not r.evidence:
                continue
            if (r.check, r.claim, r.evidence) not in seen:
                seen.add((r.check, r.claim, r.evidence))
                item = trace.items[i].id
                found.append(
                    SpanReason(check=r.check, claim=r.claim, evidence=r.evidence, item=item)
                )
    valued = {(r.check, r.claim) for r in found if r.evidence}
    found = [r for r in found if r.evidence or (r.check, r.claim) not in valued]
    found.sort(key=lambda reason: reason.check == "uncovered")  # stable: item order kept
    if not found:
        item = trace.items[ranked[0]].id if ranked else "none"
        claim, evidence = f"support {support:.2f}", f"threshold {eta:.2f}"
        found.append(SpanReason(check="low_support", claim=claim, evidence=evidence, item=item))
    spoken = work.language or ""
    for i, unread in work.unread.items():
        if unread.why != UNREADABLE:  # an item that might have supported it, not read
            item = trace.items[i].id
            found.append(
                SpanReason(check="language", claim=spoken, evidence=unread.item_language, item=item)
            )
    return tuple(found[:MAX_REASONS])


def _unread(work: SpanPlan) -> str | None:
    """Why a span could be read with none of its items (the first item's reason)."""
    return next((unread.why for unread in work.unread.values()), None)
