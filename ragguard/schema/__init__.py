"""The boundary data model: what goes in (``Trace``) and what comes out (``Evaluation``).

The field names of ``Trace`` and of ``Evaluation`` are a fixed contract (one JSON object per
line in files); new fields may be added, existing ones never renamed. Hot paths inside the
engine work on plain dataclasses, not on these models.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from ragguard.errors import TraceValidationError, field_path
from ragguard.schema.align import span_offsets
from ragguard.schema.fields import misplaced_keys, missing_hint
from ragguard.schema.inline import (
    INLINE_PREFIX,
    data_uri,
    inline_ref,
    is_inline,
    is_pil,
    media_reference,
)

SCHEMA_VERSION = 1

SpanKind = Literal["objective", "subjective", "abstention", "empty"]
"""``empty``: a given ``response_spans`` entry with no letter or digit (whitespace, a lone
marker, punctuation); kept so that span i is always entry i, never scored or counted."""
Modality = Literal["text", "image", "video"]


class Item(BaseModel):
    """One retrieved piece, in retrieval order. ``score`` is the retriever's own score.

    ``image`` is a path, a ``file://`` or ``http(s)://`` URI, or a ``data:`` URI with base64
    bytes (raw ``bytes`` are turned into one). A PIL image given through the Python API is
    kept beside the item (``pixels``) and recorded as ``sha256:<hash of its pixels>``, so the
    item still serializes; ``video`` is a path or ``file://`` URI.
    """

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    text: str | None = None
    image: str | None = None
    video: str | None = None
    score: float | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    _pixels: Any = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _in_memory_image(cls, data: Any, handler: ModelWrapValidatorHandler[Item]) -> Item:
        pixels = data.get("image") if isinstance(data, dict) else None
        if pixels is not None and is_pil(pixels):
            data = {**data, "image": inline_ref(pixels)}
        elif isinstance(pixels, bytes | bytearray):
            data, pixels = {**data, "image": data_uri(bytes(pixels))}, None
        else:
            pixels = None
        item = handler(data)
        if pixels is not None:
            item._pixels = pixels
        return item

    @property
    def pixels(self) -> Any:
        """The PIL image given in memory (None otherwise, and after a JSON round trip)."""
        return self._pixels

    @property
    def modality(self) -> Modality:
        if self.video is not None:
            return "video"
        if self.image is not None:
            return "image"
        return "text"

    @property
    def uri(self) -> str | None:
        """Where the item's image or video is, safe to log: a path or URI as given, and
        ``sha256:<hash>`` for inline bytes or in-memory pixels (never the bytes themselves)."""
        source = self.video if self.video is not None else self.image
        if source is None or source.startswith(INLINE_PREFIX) or not is_inline(source):
            return source
        return media_reference(source)

    @model_validator(mode="after")
    def _has_content(self) -> Item:
        if self.text is None and self.image is None and self.video is None:
            raise ValueError("an item needs at least one of text, image or video")
        return self


class Reference(BaseModel):
    """Gold data for replaying a golden set (MIRAGE, ALCE, CRUX, FATHOMS-RAG metrics).

    Every field is optional: each metric is computed when the fields it reads are present.
    """

    model_config = ConfigDict(extra="forbid")

    answer: str | None = None
    """The reference answer (MIRAGE reference precision scores response claims against it)."""
    claims: list[str] = Field(default_factory=list)
    """The reference answer's subclaims (MIRAGE InfoR, CiteR)."""
    phrases: list[list[str]] = Field(default_factory=list)
    """FATHOMS-RAG acceptable answers: each variant is a list of phrases that must all appear."""
    subquestions: list[str] = Field(default_factory=list)
    """CRUX sub-questions a complete context (and answer) should answer."""
    claim_sources: dict[int, list[str]] = Field(default_factory=dict)
    """Claim index -> ids of the items that attest the claim (MIRAGE proper attribution)."""
    claim_weights: list[float] | None = None
    """Importance of each reference claim (MIRAGE weighted recall, Eq. 11)."""
    category: str | None = None
    """Free label for per-category tables (FATHOMS-RAG averages per category)."""
    oracle_items: list[Item] | None = None
    """CRUX's oracle context Z*: the items a perfect retriever returns (enables density)."""

    @model_validator(mode="after")
    def _claims_line_up(self) -> Reference:
        for index in self.claim_sources:
            if not 0 <= index < len(self.claims):
                raise ValueError(f"claim_sources names claim {index}; there are {len(self.claims)}")
        if self.claim_weights is not None:
            if len(self.claim_weights) != len(self.claims):
                raise ValueError(
                    f"claim_weights has {len(self.claim_weights)} weights for "
                    f"{len(self.claims)} claims"
                )
            if any(w < 0 for w in self.claim_weights) or not any(self.claim_weights):
                raise ValueError("claim_weights must be non-negative and not all zero")
        return self

    @model_serializer(mode="wrap")
    def _given_fields_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Dump only the fields the trace gave, so a logged golden trace round-trips unchanged."""
        return {k: v for k, v in handler(self).items() if k in self.model_fields_set}


NO_CONTEXT = "no_context"
"""``unscored_reason`` of every objective span of a trace with no ``items`` key: nothing was
given to check its claims against, so they get no support verdict (``ragguard serve``
reports an answer with no retrieval under the same name)."""


class Trace(BaseModel):
    """One request of a RAG pipeline: the query, what was retrieved, and the answer.

    Unknown top-level fields are kept (``extra="allow"``) so a logged trace round-trips;
    ``Trace.parse`` refuses those that are a misspelt field or another tool's name for the
    passages (``schema.fields``). A trace without an ``items`` key has no context: its
    claims get no support verdict. ``items: []`` says that nothing was retrieved: its claims
    are unsupported.
    """

    model_config = ConfigDict(extra="allow")

    trace_id: str = Field(min_length=1)
    query: str = Field(min_length=1)
    items: list[Item] = Field(default_factory=list)
    response: str
    response_spans: list[str] | None = None
    reference: Reference | None = None
    """Gold data, for golden-set replay (``ragguard benchmark``); None for live traffic."""
    traceparent: str | None = None
    """Live traces: the application's OpenTelemetry span when the request started (W3C
    ``traceparent``), so the evaluation's span is parented to it."""
    timing_ms: dict[str, float] | None = None
    """Live traces: how long the request itself took (capture, retrieval, answer), merged
    into the evaluation's ``timing_ms``."""

    @field_validator("query")
    @classmethod
    def _query_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("query is blank")
        return value

    @field_validator("response_spans")
    @classmethod
    def _spans_in_response(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if value is not None and isinstance(info.data.get("response"), str):
            span_offsets(info.data["response"], value)
        return value

    @property
    def has_context(self) -> bool:
        """The trace gave ``items`` (even an empty list): its claims can be checked."""
        return "items" in self.model_fields_set

    @model_serializer(mode="wrap")
    def _no_items_kept_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A trace without ``items`` dumps without it, so it replays as it was evaluated."""
        data: dict[str, Any] = handler(self)
        if not self.has_context:
            data.pop("items", None)
        return data

    @model_validator(mode="after")
    def _unique_item_ids(self) -> Trace:
        seen: set[str] = set()
        for item in self.items:
            if item.id in seen:
                raise ValueError(f"duplicate item id {item.id!r}")
            seen.add(item.id)
        return self

    @classmethod
    def parse(cls, data: Any, *, line: int | None = None, check_keys: bool = True) -> Trace:
        """Validate ``data`` (a dict or a JSON string), raising a field-naming error: every
        missing required field, with the key that looks meant for it. ``check_keys``: refuse
        a misspelt field or another tool's passages key (off for a trace log's records, which
        replay as they were logged)."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as error:
                raise TraceValidationError(
                    "<json>", f"not valid JSON: {error}", line=line
                ) from None
        trace_id = data.get("trace_id") if isinstance(data, dict) else None
        trace_id = trace_id if isinstance(trace_id, str) else None
        if check_keys and isinstance(data, dict):
            misplaced = misplaced_keys(data, cls.model_fields)
            if misplaced:
                key, message = misplaced[0]
                also = "".join(f"; `{k}` {m}" for k, m in misplaced[1:])
                raise TraceValidationError(key, message + also, trace_id=trace_id, line=line)
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            hints = {}
            if isinstance(data, dict):
                for issue in error.errors():
                    if issue["type"] == "missing":
                        name = field_path(issue["loc"])
                        hints[name] = missing_hint(name, data, cls.model_fields)
            raise TraceValidationError.from_pydantic(
                error, trace_id=trace_id, line=line, hints=hints
            ) from None


class ItemEvaluation(BaseModel):
    id: str
    relevance: float | None
    relevant: bool | None
    modality: Modality = "text"
    retriever_score: float | None = None
    error: str | None = None
    """Why the item could not be scored (unreadable file, no scorer for its modality)."""
    best_frame_s: float | None = None
    """Video items: the timestamp of the frame that gave the relevance, to jump to it."""


class JudgeVerdict(BaseModel):
    """What the LLM judge said about a span (``support_source: "judge"``)."""

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


CheckKind = Literal[
    "number",
    "date",
    "negation",
    "entity",
    "uncovered",
    "low_support",
    "language",
    "nothing_retrieved",
]
"""Kinds of reason a span is not supported. The first five are the typed checks
(``ragguard.scoring.checks.CHECKS``). The others come from no check: ``low_support``, the
reason of an unsupported span that no check explains (its best support is below eta),
``language``, an item left unread because no loaded backbone reads its language or the
claim's, which might have supported the span (``claim`` and ``evidence`` are the two
languages), and ``nothing_retrieved``, a trace whose ``items`` is an empty list (``item``
is ``none``)."""


class SpanReason(BaseModel):
    """Why a span is not supported: a typed check that fired against one item, with what
    the claim says and what the item says instead ("" when the item says nothing of it)."""

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
    text: str
    start: int
    end: int
    kind: SpanKind
    support: float | None
    supported: bool | None
    citations: list[str] = Field(default_factory=list)
    citation_support: float | None = None
    evidence_id: str | None = None
    """The item that supports the span best (single-source form), when scored."""
    evidence_frame_s: float | None = None
    """When that item is a video: the timestamp of its best supporting frame."""
    references: list[str] = Field(default_factory=list)
    """Items the span's content names (``<image1>``, "document 2"): CS uses only these."""
    unknown_citations: list[str] = Field(default_factory=list)
    support_source: Literal["lite", "judge"] = "lite"
    """Who decided ``supported``: the lite scorer, or the LLM judge (its verdict in ``judge``;
    ``support`` stays the lite score)."""
    judge: JudgeVerdict | None = None
    judge_skipped: JudgeSkip | None = None
    """Why a span in the judge's band kept its lite verdict."""
    reasons: list[SpanReason] = Field(default_factory=list)
    """For an unsupported span: the checks that fired against its items, best item first."""
    hedges: list[str] = Field(default_factory=list)
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
    checks_off: list[str] = Field(default_factory=list)
    """The typed checks that did not read this objective span, each "CHECK: why": those its
    language switches off (``entity`` in Hindi, whose script has no capitals to find names
    by), and all of them when its items are in another language (docs/languages.md)."""
    unscored_reason: str | None = None
    """Why an objective span got no support score: the trace has no ``items`` key
    (``no_context``), or no loaded backbone reads its language or its items' (``language: de
    not supported by the lite backbone; install ragguard-eval[multilingual]``)."""


class Metrics(BaseModel):
    model_config = ConfigDict(extra="allow")

    mean_relevance: float | None = None
    relevant_at_k: float | None = None
    """Share of the retrieved items (all k of them) judged relevant."""
    support_rate: float | None = None
    """Share of objective spans judged supported; None when there are no objective spans."""
    hallucination: bool | None = False
    """At least one objective span is not supported by the retrieved items; None for a trace
    with no context (no ``items`` key), whose claims have nothing to be checked against."""
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
    n_unscored: dict[Modality, int] = Field(default_factory=dict)
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
    field: str
    message: str


class CalibrationStatus(BaseModel):
    """The support decision's calibration when the trace was evaluated."""

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
    schema_version: int = SCHEMA_VERSION
    trace_id: str
    items: list[ItemEvaluation]
    spans: list[SpanEvaluation]
    metrics: Metrics
    timing_ms: dict[str, float] = Field(default_factory=dict)
    thresholds: dict[str, float] = Field(default_factory=dict)
    errors: list[FieldIssue] = Field(default_factory=list)
    """Per-item problems that did not stop the rest of the trace from being evaluated."""
    calibration: CalibrationStatus | None = None
    """How the support threshold was calibrated (None: ``[calibration] source = "off"``)."""
    answer_judge: JudgeVerdict | None = None
    """The LLM judge's verdict on whether the answer addresses the query (``verdict``), for
    an answer whose lite answer relevance lay in the judge's answer band."""
