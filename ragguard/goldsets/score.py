"""Reference-based metrics for golden-set replay: MIRAGE, ALCE, CRUX and FATHOMS-RAG per trace.

Live traffic has no gold answers; a golden set does (``Trace.reference``). Given traces, their
Evaluations and the configuration's models (``Models``), this gathers every (claim, evidence)
pair the MIRAGE and ALCE metrics need, across all traces, into one support call, and every
(sub-question, text) pair CRUX needs into one grader call, then hands the verdicts to the
metric modules.

s(c, X) is the support scorer's verdict, CS >= eta (MIRAGE's verifiers give binary judgments).
Multi-source evidence X is the concatenation of the texts. Response claims are the objective
spans of the Evaluation; their single-source support is the Evaluation's own (Eq. 7 is exactly
what the evaluator computes per span), so only the other forms cost scorer calls.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

import numpy as np
from pydantic import BaseModel, Field

from ragguard.evaluation import Models
from ragguard.goldsets import alce, crux, fathoms, mirage
from ragguard.schema import Evaluation, Reference, SpanEvaluation, Trace
from ragguard.scoring.interface import Claim, Evidence, RelevanceScorer, item_text

UNLABELLED = "-"
"""Pipeline or category of a trace that names none."""


class MirageScores(BaseModel):
    """MIRAGE InfoF1 / CiteF1 components. "reference" forms score against the reference,
    the others against the retrieved collection; ``*_multi`` is the multi-source form."""

    info_precision: float | None = None
    """Collection InfoP, single-source (Eq. 7), the paper's implementation."""
    info_precision_multi: float | None = None
    """Collection InfoP against all retrieved items at once (Eq. 1)."""
    info_precision_reference: float | None = None
    info_recall: float | None = None
    info_recall_weighted: float | None = None
    """InfoR weighted by the reference's claim_weights (Eq. 11)."""
    info_f1: float | None = None
    info_f1_reference: float | None = None
    cite_precision: float | None = None
    """Collection CiteP, single-source: best cited item per claim (Eq. 3 with Eq. 7's max)."""
    cite_precision_multi: float | None = None
    cite_precision_reference: float | None = None
    """CiteP against the reference claims the cited items attest (Eq. 4)."""
    cite_recall: float | None = None
    """Proper attribution (Eq. 5)."""
    cite_f1: float | None = None
    cite_f1_reference: float | None = None


class AlceScores(BaseModel):
    citation_recall: float | None = None
    citation_precision: float | None = None
    citation_f1: float | None = None
    """Harmonic mean of the two (ALCE reports them separately)."""
    sentences: int = 0
    citations: int = 0


class CruxScores(BaseModel):
    coverage_context: float | None = None
    """Cov(Z), Eq. 3."""
    coverage_response: float | None = None
    """Cov(y)."""
    alpha_ndcg: float | None = None
    density_context: float | None = None
    """Den(Z), Eq. 6; needs the reference's oracle_items."""
    density_response: float | None = None
    redundant_items: list[str] = Field(default_factory=list)


class FathomsScores(BaseModel):
    correctness: float | None = None
    """Phrase-level recall (Algorithm 1)."""
    hallucination: bool | None = None
    """H(p): a statement, not an abstention, with correctness below 1."""
    abstained: bool = False


class ReferenceScores(BaseModel):
    """All reference-based metrics of one trace (one line of ``ragguard benchmark -o``)."""

    trace_id: str
    pipeline: str = UNLABELLED
    category: str = UNLABELLED
    mirage: MirageScores = Field(default_factory=MirageScores)
    alce: AlceScores = Field(default_factory=AlceScores)
    crux: CruxScores = Field(default_factory=CruxScores)
    fathoms: FathomsScores = Field(default_factory=FathomsScores)


class AnswerabilityGrader(Protocol):
    """CRUX's grader: does each text answer its aligned question, G(z, q) >= eta (Eq. 2)?"""

    def answerable(self, questions: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        """A boolean per aligned (question, text) pair."""
        ...


class ScorerGrader:
    """The offline grader: the relevance scorer's RS of (sub-question, text) at its eta."""

    def __init__(self, scorer: RelevanceScorer) -> None:
        self.scorer = scorer

    def answerable(self, questions: Sequence[str], evidence: Sequence[Evidence]) -> np.ndarray:
        return self.scorer.relevance(questions, evidence) >= self.scorer.threshold


K = TypeVar("K", bound=Hashable)
Pair = int | None
"""Index of a scored pair; None where the evidence is empty (no support, no answer)."""


class _Pairs(Generic[K]):
    """Unique (claim or question, evidence text) pairs of many traces, judged in one call."""

    def __init__(self) -> None:
        self._index: dict[tuple[K, str], int] = {}
        self._left: list[K] = []
        self._evidence: list[Evidence] = []
        self._verdicts = np.zeros(0, dtype=bool)

    def add(self, left: K, texts: Sequence[str | None]) -> Pair:
        text = "\n".join(t for t in texts if t and t.strip())
        if not text:
            return None
        key = (left, text)
        if key not in self._index:
            self._index[key] = len(self._left)
            self._left.append(left)
            self._evidence.append(Evidence(f"pair-{len(self._left)}", text))
        return self._index[key]

    def judge(self, verdicts: Callable[[Sequence[K], Sequence[Evidence]], np.ndarray]) -> None:
        if self._left:
            self._verdicts = np.asarray(verdicts(self._left, self._evidence), dtype=bool)

    def hit(self, pair: Pair) -> bool:
        return pair is not None and bool(self._verdicts[pair])

    def score(self, pair: Pair) -> float:
        return float(self.hit(pair))


@dataclass
class _AlcePlan:
    joint: Pair
    alone: list[Pair]
    without: list[Pair]
    n_citations: int


@dataclass
class _CruxPlan:
    retrieved: list[list[Pair]]
    extra_oracle: list[list[Pair]]
    """Oracle items not among the retrieved ones (they join the alpha-nDCG ideal pool)."""
    oracle: list[list[Pair]]
    response: list[Pair]
    retrieved_tokens: int
    oracle_tokens: int
    response_tokens: int


@dataclass
class _Plan:
    """The pairs one trace needs, gathered before the batched calls."""

    trace: Trace
    evaluation: Evaluation
    reference: Reference
    pipeline: str
    objective: list[SpanEvaluation] = field(default_factory=list)
    info_multi: list[Pair] = field(default_factory=list)
    info_reference: list[Pair] | None = None
    recall: list[Pair] = field(default_factory=list)
    cite_multi: list[Pair] = field(default_factory=list)
    cite_reference: list[Pair] | None = None
    attribution: list[list[Pair]] | None = None
    alce: list[_AlcePlan] = field(default_factory=list)
    crux: _CruxPlan | None = None


def pipeline_of(trace: Trace, name: str) -> str:
    """The trace's pipeline label: its field ``name``, else ``metadata[name]``."""
    value = getattr(trace, name, None)
    metadata = (trace.model_extra or {}).get("metadata")
    if value is None and isinstance(metadata, dict):
        value = metadata.get(name)
    return UNLABELLED if value is None else str(value)


class _Planner:
    def __init__(self, use_context: bool) -> None:
        self.use_context = use_context
        self.support: _Pairs[Claim] = _Pairs()
        self.answers: _Pairs[str] = _Pairs()

    def plan(self, trace: Trace, evaluation: Evaluation, pipeline: str) -> _Plan:
        reference = trace.reference or Reference()
        plan = _Plan(trace, evaluation, reference, pipeline)
        texts = {item.id: item_text(item) for item in trace.items}
        claims: list[Claim] = []
        previous: str | None = None
        add = self.support.add
        for span in evaluation.spans:
            if span.kind == "objective":
                claim = Claim(span.text, previous if self.use_context else None)
                plan.objective.append(span)
                claims.append(claim)
                plan.info_multi.append(add(claim, list(texts.values())))
                plan.cite_multi.append(add(claim, [texts[i] for i in span.citations]))
                plan.alce.append(self._alce(claim, span, texts))
            previous = span.text
        response = _response_text(evaluation)
        if reference.answer:
            plan.info_reference = [add(c, [reference.answer]) for c in claims]
        plan.recall = [add(Claim(c), [response]) for c in reference.claims]
        if reference.claim_sources:
            attested = [
                [
                    reference.claims[j]
                    for j, sources in sorted(reference.claim_sources.items())
                    if set(sources) & set(s.citations)
                ]
                for s in plan.objective
            ]
            plan.cite_reference = [add(c, a) for c, a in zip(claims, attested, strict=True)]
            citing = _sentences_citing(evaluation.spans)
            plan.attribution = [
                [
                    add(Claim(c), citing[v])
                    for v in reference.claim_sources.get(i, [])
                    if v in citing
                ]
                for i, c in enumerate(reference.claims)
            ]
        if reference.subquestions:
            plan.crux = self._crux(trace, reference, response)
        return plan

    def _alce(self, claim: Claim, span: SpanEvaluation, texts: dict[str, str | None]) -> _AlcePlan:
        cited = [texts[i] for i in span.citations]
        n = len(span.citations) + len(span.unknown_citations)
        if not cited or span.unknown_citations:
            return _AlcePlan(None, [None] * len(cited), [None] * len(cited), n)
        return _AlcePlan(
            joint=self.support.add(claim, cited),
            alone=[self.support.add(claim, [t]) for t in cited],
            without=[
                self.support.add(claim, cited[:k] + cited[k + 1 :]) for k in range(len(cited))
            ],
            n_citations=n,
        )

    def _crux(self, trace: Trace, reference: Reference, response: str) -> _CruxPlan:
        questions = reference.subquestions
        retrieved = [item_text(item) for item in trace.items]
        oracle_items = reference.oracle_items or []
        retrieved_ids = {item.id for item in trace.items}
        oracle = [item_text(item) for item in oracle_items]
        extra = [item_text(i) for i in oracle_items if i.id not in retrieved_ids]

        def rows(texts: Sequence[str | None]) -> list[list[Pair]]:
            return [[self.answers.add(q, [t]) for q in questions] for t in texts]

        return _CruxPlan(
            retrieved=rows(retrieved),
            extra_oracle=rows(extra),
            oracle=rows(oracle),
            response=rows([response])[0],
            retrieved_tokens=crux.token_count([t or "" for t in retrieved]),
            oracle_tokens=crux.token_count([t or "" for t in oracle]),
            response_tokens=crux.token_count([response]),
        )


def _response_text(evaluation: Evaluation) -> str:
    """The response as its spans read, citation markers stripped."""
    return " ".join(span.text for span in evaluation.spans)


def _sentences_citing(spans: Sequence[SpanEvaluation]) -> dict[str, list[str]]:
    """Item id -> the texts of the spans citing it (MIRAGE's v_i: {s_1, ..., s_m})."""
    citing: dict[str, list[str]] = {}
    for span in spans:
        for item_id in span.citations:
            citing.setdefault(item_id, []).append(span.text)
    return citing


def score_references(
    pairs: Sequence[tuple[Trace, Evaluation]],
    models: Models,
    *,
    grader: AnswerabilityGrader | None = None,
    pipeline_field: str = "pipeline",
) -> list[ReferenceScores]:
    """Reference-based metrics for each (trace, its Evaluation): one support-scorer call and one
    grader call for the whole batch. ``grader`` defaults to the lite relevance scorer at eta."""
    support = models.support_scorer
    grader = grader or ScorerGrader(models.relevance_scorer)
    planner = _Planner(models.config.support.use_context)
    plans = [
        planner.plan(trace, evaluation, pipeline_of(trace, pipeline_field))
        for trace, evaluation in pairs
    ]
    planner.support.judge(lambda c, e: support.support(c, e) >= support.threshold)
    planner.answers.judge(grader.answerable)
    return [_assemble(plan, planner) for plan in plans]


def _assemble(plan: _Plan, planner: _Planner) -> ReferenceScores:
    s, eta = planner.support.score, plan.evaluation.thresholds.eta_support
    reference = plan.reference
    single = [float(bool(span.supported)) for span in plan.objective]
    cited_best = [
        float(span.citation_support is not None and span.citation_support >= eta)
        for span in plan.objective
    ]
    info_p = mirage.mean_support(single)
    info_p_ref = _mean(s, plan.info_reference)
    info_r = _mean(s, plan.recall)
    cite_p = mirage.mean_support(cited_best)
    cite_p_ref = _mean(s, plan.cite_reference)
    cite_r = (
        None
        if plan.attribution is None
        else mirage.mean_best_support([[s(p) for p in group] for group in plan.attribution])
    )
    scores = ReferenceScores(
        trace_id=plan.trace.trace_id,
        pipeline=plan.pipeline,
        category=reference.category or UNLABELLED,
        mirage=MirageScores(
            info_precision=info_p,
            info_precision_multi=_mean(s, plan.info_multi),
            info_precision_reference=info_p_ref,
            info_recall=info_r,
            info_recall_weighted=(
                None
                if reference.claim_weights is None
                else mirage.mean_support([s(p) for p in plan.recall], reference.claim_weights)
            ),
            info_f1=mirage.f1(info_p, info_r),
            info_f1_reference=mirage.f1(info_p_ref, info_r),
            cite_precision=cite_p,
            cite_precision_multi=_mean(s, plan.cite_multi),
            cite_precision_reference=cite_p_ref,
            cite_recall=cite_r,
            cite_f1=mirage.f1(cite_p, cite_r),
            cite_f1_reference=mirage.f1(cite_p_ref, cite_r),
        ),
        alce=_alce_scores(plan.alce, planner.support.hit),
        fathoms=_fathoms_scores(plan),
    )
    if plan.crux is not None:
        scores.crux = _crux_scores(plan.crux, plan, planner.answers.hit)
    return scores


def _mean(s: Callable[[Pair], float], pairs: list[Pair] | None) -> float | None:
    return None if pairs is None else mirage.mean_support([s(p) for p in pairs])


def _alce_scores(plans: list[_AlcePlan], hit: Callable[[Pair], bool]) -> AlceScores:
    sentences = [
        alce.CitedSentence(
            joint=hit(p.joint),
            alone=tuple(hit(a) for a in p.alone),
            without=tuple(hit(w) for w in p.without),
            n_citations=p.n_citations,
        )
        for p in plans
    ]
    recall = alce.citation_recall(sentences)
    precision = alce.citation_precision(sentences)
    return AlceScores(
        citation_recall=recall,
        citation_precision=precision,
        citation_f1=mirage.f1(precision, recall),
        sentences=len(sentences),
        citations=sum(s.n_citations for s in sentences),
    )


def _crux_scores(c: _CruxPlan, plan: _Plan, hit: Callable[[Pair], bool]) -> CruxScores:
    n = len(plan.reference.subquestions)

    def matrix(rows: list[list[Pair]]) -> np.ndarray:
        return np.array([[hit(p) for p in row] for row in rows], dtype=bool).reshape(-1, n)

    retrieved, oracle = matrix(c.retrieved), matrix(c.oracle)
    pool = np.vstack([retrieved, matrix(c.extra_oracle)])
    cov_z = crux.coverage(retrieved, n)
    cov_y = crux.coverage(matrix([c.response]), n)
    cov_oracle = crux.coverage(oracle, n) if plan.reference.oracle_items else None
    ids = [item.id for item in plan.trace.items]
    return CruxScores(
        coverage_context=cov_z,
        coverage_response=cov_y,
        alpha_ndcg=crux.alpha_ndcg(retrieved, pool, n),
        density_context=crux.density(cov_z, c.retrieved_tokens, cov_oracle, c.oracle_tokens),
        density_response=crux.density(cov_y, c.response_tokens, cov_oracle, c.oracle_tokens),
        redundant_items=[ids[r] for r in crux.redundant(retrieved, n)],
    )


def _fathoms_scores(plan: _Plan) -> FathomsScores:
    abstained = plan.evaluation.metrics.abstained
    if not plan.reference.phrases:
        return FathomsScores(abstained=abstained)
    correctness = fathoms.phrase_recall(_response_text(plan.evaluation), plan.reference.phrases)
    return FathomsScores(
        correctness=correctness,
        hallucination=fathoms.is_hallucination(abstained, correctness),
        abstained=abstained,
    )
