"""One typed configuration: which backend plays each model role, thresholds, span rules."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

RelevanceBackend = Literal["lite", "cross-encoder"]
SupportBackend = Literal["lite", "nli"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScorerConfig(_Strict):
    """A model role. ``model`` is a hub id or a local path; None means the bundled lite model."""

    backend: str = "lite"
    model: str | None = None
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """RAG-Check's eta. None uses the threshold calibrated with the model (lite heads) or 0.5."""
    batch_size: int = Field(default=32, ge=1)
    max_length: int = Field(default=512, ge=16)
    device: str = "cpu"
    trust_remote_code: bool = False


class RelevanceConfig(ScorerConfig):
    backend: RelevanceBackend = "lite"


class SupportConfig(ScorerConfig):
    backend: SupportBackend = "lite"
    use_context: bool = True
    """Verify each span with its preceding sentence as context (MIRAGE's s([context][claim]))."""


class ImageConfig(ScorerConfig):
    """Image and video items. ``none``: scored through their text surrogate (caption, alt
    text, OCR, description) when they have one, else left unscored; ``clip``: a CLIP model
    (image-text agreement); ``vlm``: a vision-language model with RAG-Check's RS/CS prompts.

    ``threshold`` is the image scores' eta; image scores are reported on the text scorers'
    scale (a monotone map sends this eta to theirs), so one eta per role decides every item.
    """

    backend: Literal["none", "clip", "vlm"] = "none"  # type: ignore[assignment]
    max_side: int = Field(default=448, ge=32)
    """Images and frames are downscaled to this longer side on decode (bounds memory)."""
    video_frames: int = Field(default=8, ge=1)
    """Uniform sampling: this many frames spread over the whole video."""
    video_fps: float | None = Field(default=None, gt=0.0)
    """fps sampling instead: one frame every 1/video_fps seconds ..."""
    video_max_frames: int = Field(default=32, ge=1)
    """... at most this many (thinned uniformly beyond)."""
    clip_scale: float | None = Field(default=None, gt=0.0)
    """CLIP calibration: RS/CS = sigmoid(clip_scale * (cosine - clip_center)). None: the
    model's own logit scale (100 for OpenAI CLIP)."""
    clip_center: float = 0.2
    """The cosine scored 0.5; 0.2 is where CLIPScore (Hessel et al. 2021, w = 2.5) gives 0.5.
    Fit both on labelled pairs of your own data for real use."""
    fetch_timeout_s: float = Field(default=10.0, gt=0.0)
    max_fetch_bytes: int = Field(default=50_000_000, ge=1)
    """http(s) images: give up after this long, or beyond this size."""


class SpanConfig(_Strict):
    """Span partition and categorization. Word lists extend or trim the built-in lexicon."""

    add_subjective: dict[str, list[str]] = Field(default_factory=dict)
    """Extra cues per lexicon class, e.g. {"hedges": ["arguably"]}."""
    remove_subjective: list[str] = Field(default_factory=list)
    abstention_cues: list[str] = Field(default_factory=list)
    abstention_examples: Path | None = None
    """A JSON file of {"text", "label"} examples replacing the built-in ones."""
    abstention_margin: float = 0.05
    """Nearest-neighbour abstention needs to beat the nearest statement by this cosine margin."""
    abstention_min_similarity: float = 0.4
    """...and to be at least this close (cosine) to an abstention example: far from every
    example, a claim's nearest neighbour says nothing about it."""


class LiveConfig(_Strict):
    """The live middleware (``ragguard.wrap``): when requests are evaluated and what happens
    to an answer that fails."""

    mode: Literal["background", "guard"] = "background"
    """background: evaluate off the request path; guard: evaluate before the answer returns."""
    sample_rate: float = Field(default=1.0, ge=0.0, le=1.0)
    """Share of requests evaluated, decided when a request starts (skipped ones cost ~nothing)."""
    action: Literal["annotate", "flag", "raise"] = "flag"
    """Guard mode: flag logs and counts a failing answer; annotate also attaches the Evaluation
    to every result's metadata; raise throws ``UnsupportedAnswerError``."""
    min_support_rate: float | None = Field(default=1.0, ge=0.0, le=1.0)
    """An answer fails when its share of supported objective spans is below this (1.0: any
    unsupported claim fails; None: CS never fails an answer)."""
    min_relevant_at_k: float | None = Field(default=None, ge=0.0, le=1.0)
    """An answer fails when the share of retrieved items judged relevant is below this."""
    worker: Literal["process", "thread"] = "process"
    """Where background evaluation runs: a low-priority child process (never competes with
    the application for the GIL; the OS serves the application's requests first) or a
    thread of this process. A Guard object handed to the Monitor always runs on a thread."""
    worker_nice: int = Field(default=19, ge=0, le=19)
    """The child process's niceness: how far behind the application it queues for CPU."""
    queue_size: int = Field(default=1000, ge=1)
    """Background requests waiting for the worker; when full, new ones are dropped and counted."""
    guard_timeout_s: float = Field(default=30.0, gt=0.0)
    """Guard mode gives up waiting after this and lets the answer through (counted)."""
    exit_flush_timeout_s: float = Field(default=10.0, ge=0.0)
    """At interpreter exit, pending background evaluations get this long to finish."""
    max_open_requests: int = Field(default=10_000, ge=1)
    """Requests captured but not finished (abandoned streams); the oldest are forgotten beyond."""


class ExportConfig(_Strict):
    """Where live evaluations go besides ``on_evaluation``: OpenTelemetry spans and events,
    Prometheus metrics, a trace log. Off by default; each needs its extra installed."""

    pipeline: str = Field(default="default", min_length=1)
    """The ``pipeline`` label of the Prometheus metrics and the OTel spans (keep it fixed:
    one value per deployed pipeline, never per request)."""
    otel: bool = False
    """Emit a span per evaluation with ``gen_ai.evaluation.result`` events and a retrieval
    span. Uses the application's tracer provider; without one, sets up OTLP export from the
    standard ``OTEL_EXPORTER_OTLP_*`` variables (nothing is sent when none is set)."""
    otel_include_content: bool = False
    """Also put the query, the document texts and unsupported span texts on the spans
    (off: ids, scores and metadata only, for privacy)."""
    prometheus: bool = False
    """Record ``ragguard_*`` metrics in prometheus_client's default registry."""
    prometheus_port: int | None = Field(default=None, ge=0, le=65535)
    """Also serve them over HTTP on this port (``/metrics``); None: the application serves
    its registry itself."""
    prometheus_addr: str = "127.0.0.1"
    """The address that HTTP endpoint listens on (``0.0.0.0`` for every interface)."""
    trace_log: Path | None = None
    """Append every live trace and its evaluation to this JSONL file (for ``ragguard replay``)."""
    trace_log_max_bytes: int | None = Field(default=None, ge=1)
    """Rotate the trace log when it would grow past this size; None: never."""
    trace_log_backups: int = Field(default=5, ge=0)
    """Rotated trace logs kept."""


class Config(_Strict):
    relevance: RelevanceConfig = Field(default_factory=RelevanceConfig)
    support: SupportConfig = Field(default_factory=SupportConfig)
    image: ImageConfig = Field(default_factory=ImageConfig)
    embedding_model: str | None = None
    """Sentence embedder for the lite tier and abstention detection; None = bundled MiniLM."""
    spans: SpanConfig = Field(default_factory=SpanConfig)
    unknown_citations: Literal["error", "flag"] = "flag"
    """A citation marker naming no retrieved item ("[7]" with 3 items): flag it on the span
    (the span keeps its support verdict, records the marker, and counts as a failed citation
    in ``citation_precision``), or raise a TraceValidationError ("error", for strict batch
    validation). A monitor must report such answers, not drop them: on a public attribution
    benchmark, "error" dropped 154 of 500 answers."""
    batch_size: int = Field(default=64, ge=1)
    """Traces evaluated together (model calls are batched across them)."""
    cache_size: int = Field(default=8192, ge=0)
    """Texts whose embeddings (sentence + float16 token vectors) the content-hash cache keeps."""
    live: LiveConfig = Field(default_factory=LiveConfig)
    exporters: ExportConfig = Field(default_factory=ExportConfig)

    @classmethod
    def from_file(cls, path: str | Path) -> Config:
        """Load a TOML (or JSON) config file."""
        path = Path(path)
        if path.suffix == ".json":
            return cls.model_validate_json(path.read_text())
        with path.open("rb") as handle:
            return cls.model_validate(tomllib.load(handle))
