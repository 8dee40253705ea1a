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


class Config(_Strict):
    relevance: RelevanceConfig = Field(default_factory=RelevanceConfig)
    support: SupportConfig = Field(default_factory=SupportConfig)
    embedding_model: str | None = None
    """Sentence embedder for the lite tier and abstention detection; None = bundled MiniLM."""
    spans: SpanConfig = Field(default_factory=SpanConfig)
    unknown_citations: Literal["error", "flag"] = "error"
    """A citation marker naming no retrieved item: raise a TraceValidationError, or flag it
    on the span (its citation_support is then 0)."""
    batch_size: int = Field(default=64, ge=1)
    """Traces evaluated together (model calls are batched across them)."""
    cache_size: int = Field(default=8192, ge=0)
    """Texts whose embeddings (sentence + float16 token vectors) the content-hash cache keeps."""
    live: LiveConfig = Field(default_factory=LiveConfig)

    @classmethod
    def from_file(cls, path: str | Path) -> Config:
        """Load a TOML (or JSON) config file."""
        path = Path(path)
        if path.suffix == ".json":
            return cls.model_validate_json(path.read_text())
        with path.open("rb") as handle:
            return cls.model_validate(tomllib.load(handle))
