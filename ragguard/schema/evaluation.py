"""The output side of the contract: an ``Evaluation`` per trace, with its items', spans'
and metrics' verdicts; ``verdict`` says each span's in one word.

The field names are a fixed contract (one JSON object per line in files); new fields may be
added, existing ones never renamed.

Every model here is frozen, its sequences tuples and its mappings read-only: once
``evaluation.assemble`` returns an evaluation, the exporters, callbacks, guard and tests that
receive it all read the same thing (a changed copy is ``model_copy(update=...)``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from ragguard.schema.check_kinds import CheckKind
from ragguard.schema.frozen import FrozenDict, ReadOnlyMap, freeze
from ragguard.schema.thresholds import Thresholds
from ragguard.schema.trace import NO_CONTEXT, Modality, SpanKind

SCHEMA_VERSION = 1

FROZEN = ConfigDict(frozen=True)


Score = Annotated[float, Field(allow_inf_nan=False)]
"""A model's score: finite. A NaN read from a results file would compare as no verdict
(``NaN < threshold`` is False: counted supported); it is refused instead."""


class ItemEvaluation(BaseModel):
    model_config = FROZEN

    id: str
    relevance: Score | None
    relevant: bool | None
    modality: Modality = "text"
    retriever_score: float | None = None
    error: str | None = None
    """Why the item could not be scored (unreadable file, no scorer for its modality)."""
    best_frame_s: float | None = None
    """Video items: the timestamp of the frame that gave the relevance, to jump to it."""


def _without_absent(dumped: dict[str, Any], key: str) -> dict[str, Any]:
    """``dumped`` without ``key`` where it is unset (None or False): fields added later are
    left out of the JSON when unused, so records are written as they were before them."""
    if dumped.get(key) is None or dumped.get(key) is False:
        dumped.pop(key, None)
    return dumped


class JudgeVerdict(BaseModel):
    """What the LLM judge said about a span (``support_source: "judge"``)."""

    model_config = FROZEN

    verdict: bool | None
    """Supported by the items shown to the judge; None when its reply held no verdict
    (``judge_skipped: "unparseable"``: the call and its tokens are still recorded)."""
    rationale: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    cached: bool = False
    """Answered from the verdict cache: no call, no tokens."""
    tokens_left_today: int | None = None
    """The daily token budget left after this call (None: no budget set)."""
    score: float | None = None
    """P(supported) read from the judge's token probabilities (the score question); None
    where the verdict was read from text."""
    question: str | None = None
    """With a score: the content hash of the question asked (model, claim, context,
    passages), so ``replay`` reuses the recorded score for the same question instead of
    asking again."""
    from_log: bool = False
    """Reused by ``replay`` from the logged evaluation of this trace, on this span, whose
    question hash the replay recomputed and found equal: no call. Absent from the JSON when
    false, so a live evaluation is written as it always was."""

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _without_absent(handler(self), "from_log")


JudgeSkip = Literal[
    "sampled_out",
    "trace_cap",
    "rate_limited",
    "over_budget",
    "circuit_open",
    "timeout",
    "unavailable",
    "unparseable",
    "no_evidence",
    "check_fired",
]


class SpanReason(BaseModel):
    """Why a span is not supported: a typed check that fired against one item, with what
    the claim says and what the item says instead ("" when the item says nothing of it)."""

    model_config = FROZEN

    check: CheckKind
    claim: str
    evidence: str
    item: str

    def __str__(self) -> str:
        if self.check == "nothing_retrieved":
            return f"nothing_retrieved: {self.claim!r} vs no retrieved item"
        evidence = f"{self.evidence!r}" if self.evidence else "nothing"
        return f"{self.check}: {self.claim!r} vs {evidence} in {self.item}"


class SpanEvaluation(BaseModel):
    model_config = FROZEN

    text: str
    start: int
    end: int
    kind: SpanKind
    support: Score | None
    supported: bool | None
    citations: tuple[str, ...] = ()
    citation_support: Score | None = None
    evidence_id: str | None = None
    """The item that supports the span best (single-source form), when scored."""
    evidence_frame_s: float | None = None
    """When that item is a video: the timestamp of its best supporting frame."""
    references: tuple[str, ...] = ()
    """Items the span's content names (``<image1>``, "document 2"): CS uses only these."""
    unknown_citations: tuple[str, ...] = ()
    support_source: Literal["lite", "judge"] = "lite"
    """Who decided ``supported``: the lite scorer, or the LLM judge (its verdict in ``judge``;
    ``support`` stays the lite score)."""
    judge: JudgeVerdict | None = None
    judge_skipped: JudgeSkip | None = None
    """Why a span in the judge's band kept its lite verdict."""
    reasons: tuple[SpanReason, ...] = ()
    """For an unsupported span: the checks that fired against its items, best item first."""
    hedges: tuple[str, ...] = ()
    """The hedge, modal, quantifier and frequency cues in the span's text, as written
    ("likely", "some sources say"), whatever its kind: a hedged claim is still scored, and
    this shows a reader that it was hedged (docs/subjectivity.md)."""
    calibration_sample: bool = False
    """Drawn into the calibration's uniform random sample (``[calibration] source =
    "judge"``): sent to the judge wherever its score lies, so that its verdict can refit the
    threshold and correct the reported hallucination rate."""
    addresses_query: bool | None = None
    """Whether this sentence, read alone, addresses the query (answer relevance at the
    answer's threshold); None for an abstention, or when the trace has no query."""
    language: str = "en"
    """The language the span was read as (ISO 639-1; docs/languages.md)."""
    checks_off: tuple[str, ...] = ()
    """The typed checks that did not read this objective span, each "CHECK: why": those its
    language switches off (``entity`` in Hindi, whose script has no capitals to find names
    by), and all of them when its items are in another language (docs/languages.md)."""
    unscored_reason: str | None = None
    """Why an objective span got no support score: the trace has no ``items`` key
    (``no_context``), or no loaded backbone reads its language or its items' (``language: de
    not supported by the lite backbone; install ragguard-eval[multilingual]``)."""
    set_aside: tuple[tuple[int, int], ...] | None = None
    """Offsets (start, end) in ``text`` of the opinion clauses set aside from an objective span
    ("and I think it is beautiful"): the rest of ``text`` is what was scored. Absent from
    the JSON when no clause was set aside (docs/formats.md)."""

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """``set_aside`` is left out when absent, so a span with one clause is written as it
        always was."""
        return _without_absent(handler(self), "set_aside")


class Metrics(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    mean_relevance: float | None = None
    relevant_at_k: float | None = None
    """Share of the retrieved items (all k of them) judged relevant."""
    support_rate: float | None = None
    """Share of objective spans judged supported; None when there are no objective spans."""
    hallucination: bool | None = False
    """At least one objective span is not supported by the retrieved items; None for a trace
    with no context (no ``items`` key), whose claims have nothing to be checked against,
    and for an answer none of whose claims could be scored (a language or an image no
    loaded model reads): no verdict, never a clean one."""
    no_context: bool = False
    """The trace had no ``items`` key: no support verdict (``spans[].unscored_reason`` is
    ``no_context``); counted apart, as ``ragguard serve``'s ``no_context`` status is."""
    citation_precision: float | None = None
    citation_recall: float | None = None
    abstained: bool = False
    n_spans: int = 0
    n_objective: int = 0
    n_subjective: int = 0
    n_abstention: int = 0
    n_uncited: int = 0
    """Objective spans that carry no citation marker."""
    n_unscored: ReadOnlyMap[Modality, int] = FrozenDict()
    """Items that got no relevance (``relevance: null``), by modality, e.g. {"image": 1}."""
    n_unscored_language: int = 0
    """Objective spans left unscored because no loaded backbone reads their language or
    their items' (``spans[].unscored_reason``), and no judge decided them."""
    answer_relevance: float | None = None
    """How well the answer as a whole addresses the query, in [0, 1] (docs/answer-relevance.md);
    None for an abstention or an empty answer."""
    answer_relevant: bool | None = None
    """``answer_relevance`` at its threshold (``thresholds["answer_relevance"]``), or the
    judge's verdict when the judge read the answer (``answer_judge``); None when abstained."""

    @model_validator(mode="after")
    def _freeze_extra(self) -> Metrics:
        """A field a newer writer added (``extra="allow"``) is frozen like the rest."""
        if self.__pydantic_extra__:
            object.__setattr__(self, "__pydantic_extra__", freeze(self.__pydantic_extra__))
        return self


Verdict = Literal["supported", "unsupported", "unscored", "subjective", "abstention", "empty"]


def verdict(span: SpanEvaluation) -> Verdict:
    """One word per span, the same in every exporter and report: an objective span is
    supported, unsupported, or unscored (nothing to check it against); the others are set
    aside by their kind."""
    if span.kind != "objective":
        return span.kind
    if span.supported is None:
        return "unscored"
    return "supported" if span.supported else "unsupported"


def unscored_for_language(span: SpanEvaluation) -> bool:
    """Left without a verdict because no loaded backbone reads its language or its items'
    (and no judge decided it): what the summary, the metrics and the exporters count."""
    return (
        span.unscored_reason is not None
        and span.unscored_reason != NO_CONTEXT
        and (span.supported is None)
    )


class FieldIssue(BaseModel):
    model_config = FROZEN

    field: str
    message: str


class CalibrationStatus(BaseModel):
    """The support decision's calibration when the trace was evaluated."""

    model_config = FROZEN

    source: Literal["file", "judge"]
    fitted: bool
    """False while a judge calibration has fewer verdicts than ``min_samples``."""
    threshold: float
    band: tuple[float, float] | None = None
    """The judge band in force (None without a judge)."""
    n_samples: int = 0
    """Labels (file) or judge verdicts (judge) the threshold was fitted on."""
    agreement: float | None = None
    """Judge calibration: share of sampled spans where the lite verdict matched the judge."""
    drift: float | None = None
    """Kolmogorov-Smirnov distance of recent live support scores from the calibration's."""
    drifted: bool = False
    """``drift`` is past ``calibration.drift_threshold``: recalibrate."""


class Evaluation(BaseModel):
    model_config = FROZEN

    schema_version: int = SCHEMA_VERSION
    trace_id: str
    items: tuple[ItemEvaluation, ...]
    spans: tuple[SpanEvaluation, ...]
    metrics: Metrics
    timing_ms: ReadOnlyMap[str, float] = FrozenDict()
    thresholds: Thresholds = Field(default_factory=Thresholds)
    errors: tuple[FieldIssue, ...] = ()
    """Per-item problems that did not stop the rest of the trace from being evaluated."""
    calibration: CalibrationStatus | None = None
    """How the support threshold was calibrated (None: ``[calibration] source = "off"``)."""
    answer_judge: JudgeVerdict | None = None
    """The LLM judge's verdict on whether the answer addresses the query (``verdict``), for
    an answer whose lite answer relevance lay in the judge's answer band."""
