"""Per-trace metrics computed from item and span verdicts (no gold answer needed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ragguard.schema import ItemEvaluation, Metrics, SpanEvaluation, unscored_for_language


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def trace_metrics(
    items: Sequence[ItemEvaluation],
    spans: Sequence[SpanEvaluation],
    eta: float,
    *,
    context: bool = True,
) -> Metrics:
    """RS/CS aggregates and citation checks.

    citation_precision: share of cited objective spans whose citations support them
    (MIRAGE CiteP, single-source form); a span citing an unknown marker fails.
    citation_recall: share of objective spans that are supported and carry a citation that
    supports them. Both count only spans that could be scored: an image that no model can
    read is no evidence either way, so a trace with nothing scored gets None, not 0.
    ``context``: False for a trace with no ``items`` key, which gets no hallucination verdict
    and no citation precision (its markers could name nothing).
    """
    scored_items = [i for i in items if i.relevance is not None]
    objective = [s for s in spans if s.kind == "objective"]
    judged = [s for s in objective if s.supported is not None]
    cited = [
        s
        for s in objective
        if context and (s.citations or s.unknown_citations) and s.citation_support is not None
    ]
    cited_ok = [
        s
        for s in cited
        if not s.unknown_citations and s.citation_support is not None and s.citation_support >= eta
    ]
    properly_cited = [s for s in cited_ok if s.supported]
    n_abstention = sum(s.kind == "abstention" for s in spans)
    return Metrics(
        mean_relevance=_mean([i.relevance for i in scored_items]),  # type: ignore[misc]
        relevant_at_k=_mean([float(bool(i.relevant)) for i in scored_items]),
        support_rate=_mean([float(bool(s.supported)) for s in judged]),
        hallucination=any(s.supported is False for s in objective) if context else None,
        no_context=not context,
        citation_precision=len(cited_ok) / len(cited) if cited else None,
        citation_recall=len(properly_cited) / len(judged) if judged else None,
        abstained=n_abstention > 0 and not objective,
        n_spans=len(spans),
        n_objective=len(objective),
        n_subjective=sum(s.kind == "subjective" for s in spans),
        n_abstention=n_abstention,
        n_uncited=sum(not (s.citations or s.unknown_citations) for s in objective),
        n_unscored=dict(Counter(i.modality for i in items if i.relevance is None)),
        n_unscored_language=sum(map(unscored_for_language, objective)),
    )
