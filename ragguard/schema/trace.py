"""The input side of the contract: a ``Trace`` (query, retrieved ``Item``s, answer, and
optional golden ``Reference``), validated at the boundary with paths and hints in its errors.

The field names are a fixed contract (one JSON object per line in files); new fields may be
added, existing ones never renamed."""

from __future__ import annotations

import json
import re
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
from ragguard.schema.fields import item_problem, misplaced_keys, missing_hint
from ragguard.schema.inline import (
    INLINE_PREFIX,
    data_uri,
    inline_ref,
    is_inline,
    is_pil,
    media_reference,
)

SpanKind = Literal["objective", "subjective", "abstention", "empty"]
"""``empty``: a given ``response_spans`` entry with no letter or digit (whitespace, a lone
marker, punctuation); kept so that span i is always entry i, never scored or counted."""
Modality = Literal["text", "image", "video"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def whole_unicode(value: Any) -> Any:
    """``value`` as given, refused when a text in it holds a lone surrogate (JSON's
    ``"\\ud800"`` with no pair): no model, log or exporter can encode it, so the trace is
    refused at the field that holds it, not failed later in evaluation."""
    if isinstance(value, str):
        if not value.isascii() and (found := _LONE_SURROGATE.search(value)) is not None:
            raise ValueError(
                f"a lone surrogate {found.group()!r} at position {found.start()} is not "
                "valid Unicode text"
            )
    elif isinstance(value, dict):
        for key, member in value.items():
            whole_unicode(key)
            whole_unicode(member)
    elif isinstance(value, list | tuple):
        for member in value:
            whole_unicode(member)
    return value


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

    _whole_unicode = field_validator("id", "text", "image", "video", "metadata")(whole_unicode)

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

    _whole_unicode = field_validator("trace_id", "response", "response_spans")(whole_unicode)

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
        if isinstance(data, dict) and (problem := item_problem(data.get("items"))) is not None:
            raise TraceValidationError(*problem, trace_id=trace_id, line=line)
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
