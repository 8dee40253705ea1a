"""The ``[judge]`` section: the LLM-judge tier's endpoint, limits and band."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ragguard.config.base import Strict as _Strict
from ragguard.schema import Contradiction


class JudgeCombination(_Strict):
    """How the cascade decides a span the judge scored: ``supported`` when ``offset +
    lite_weight * (logit(lite score) - logit(eta)) + judge_weight * logit(judge score) >= 0``.
    Fitted per judge model on labelled pairs (``ragguard.calibration.combine``): on the
    training sets for the cards ragguard ships, on a deployment's labels or calibration
    sample by ``ragguard calibrate``. ``judge_weight = 0`` is the lite verdict: what a fit
    keeps when the judge's score was not shown to help."""

    model: str
    """The judge model the weights were fitted for (a card applies to a model whose name
    holds this, case aside)."""
    offset: float = 0.0
    lite_weight: float = Field(default=1.0, ge=0.0)
    judge_weight: float = Field(default=0.0, ge=0.0)
    n_pairs: int = Field(default=0, ge=0)
    """Labelled in-band pairs fitted on."""
    source: str = ""
    """Where the labels came from (training sets, a labels file, the judge sample)."""
    balanced_accuracy: dict[str, float] = Field(default_factory=dict)
    """Cross-validated balanced accuracy in the band: ``lite``, ``judge`` (its own
    threshold), ``combined``."""


class JudgeConfig(_Strict):
    """The LLM-judge tier: an OpenAI-compatible endpoint asked about the objective spans whose
    lite support score falls in ``band``, after the lite evaluation (never on the request
    path). Off by default (``backend = "none"``); ``backend = "openai"`` needs the ``judge``
    extra (the official ``openai`` client), and speaks to OpenAI, vLLM, llama.cpp's server,
    Ollama or any other OpenAI-compatible server through ``base_url``."""

    backend: Literal["none", "openai", "local"] = "none"
    """``none``: no judge; ``openai``: an OpenAI-compatible endpoint; ``local``: a GGUF
    model (``model``) served by llama.cpp inside this process, on loopback (the
    ``local-judge`` extra; docs/judge.md)."""
    base_url: str | None = None
    """The endpoint, e.g. ``http://127.0.0.1:8080/v1``; None: the client's default (OpenAI).
    Ignored by the ``local`` backend, which starts its own."""
    model: str = "gpt-4o-mini"
    """The judge model's name as the endpoint knows it; for ``local``, the path of a GGUF
    file (relative to the config file's folder), or ``owner/repo/file.gguf`` on the Hugging
    Face hub where the hub is reachable (llama.cpp downloads it; not testable offline)."""
    threads: int = Field(default=2, ge=1)
    """``local``: CPU threads llama.cpp computes with (prompt and generation); 2 by default,
    so the judge leaves the other cores of a small machine to the application."""
    n_ctx: int = Field(default=4096, ge=512)
    """``local``: the context size in tokens. It sets the longest question (passages and
    sentence) and, with the model, the process's resident memory (docs/judge.md)."""
    score: Literal["auto", "verdict"] = "auto"
    """``auto``: ask the one-word score question and read P(supported) from the first
    token's probabilities where the endpoint returns them (OpenAI's ``logprobs``, llama.cpp,
    vLLM, Ollama), else the written word; ``verdict``: the reasoned JSON verdict alone."""
    score_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    """The judge's own verdict: a score at or above this is "supported". It decides a span
    only where no combination card applies (``combination``)."""
    combination: JudgeCombination | None = None
    """How a judge score and the lite score decide a span together; None: the card shipped
    for this judge model if there is one (``ragguard/calibration/data/combinations.json``), else
    the judge's own verdict. ``ragguard calibrate --judge`` writes a refitted one."""
    share_window: int = Field(default=200, ge=0)
    """In the band, the judge picks which spans are supported and the lite tier how many: a
    span is supported when its combined score is above the quantile of the last
    ``share_window`` in-band spans' that leaves the share the lite verdicts gave them (at
    the quantile, the lite verdict stands; ``judge/share.py``), so a judge whose "yes" rate
    drifts with the text cannot move the count. Per process. 0: the combination card's fixed
    cut-off decides."""
    share_warmup: int = Field(default=10, ge=1)
    """In-band spans scored before the window decides; until then the lite verdict stands."""
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable holding the API key (a local server needs none)."""
    timeout_s: float = Field(default=20.0, gt=0.0)
    """Per attempt, in total (connecting, waiting and reading the whole reply, however
    slowly it trickles in); a call that runs past it leaves the lite verdict
    (``judge_skipped = "timeout"``)."""
    retries: int = Field(default=2, ge=0)
    """Extra attempts after a connection error, HTTP 429 or 5xx, with exponential backoff."""
    backoff_s: float = Field(default=0.5, ge=0.0)
    """The first retry waits this long (with jitter), doubling each time."""
    breaker_failures: int = Field(default=5, ge=1)
    """Consecutive failed calls that open the circuit breaker ..."""
    breaker_cooldown_s: float = Field(default=30.0, ge=0.0)
    """... which skips every call for this long, then lets one through to probe."""
    max_concurrency: int = Field(default=4, ge=1)
    """Judge calls in flight at once within a batch."""
    max_calls_per_minute: int | None = Field(default=60, ge=1)
    """Calls beyond this in a sliding minute are skipped (``rate_limited``); None: no limit."""
    max_tokens_per_day: int | None = Field(default=1_000_000, ge=1)
    """Prompt plus completion tokens per UTC day; past it calls are skipped (``over_budget``)."""
    max_output_tokens: int = Field(default=200, ge=16)
    """The reply's token limit (the reasoning and the verdict; the score question asks for
    one token)."""
    sample_rate: float = Field(default=1.0, ge=0.0, le=1.0)
    """Share of in-band spans sent, decided by the claim's content hash (repeatable)."""
    band: tuple[float, float] = (0.443, 0.695)
    """Lite support scores in [lo, hi] go to the judge. The default holds 20% of the
    training-set spans around the lite eta (``python benchmarks/judge_band.py``)."""
    answer_band: tuple[float, float] | None = None
    """Answers whose lite answer relevance lies in [lo, hi] go to the judge, which decides
    ``answer_relevant`` (``answer_judge``); None: the answer threshold plus or minus
    ``ANSWER_BAND_HALF_WIDTH`` (0.15)."""
    response_format: Literal["json_schema", "text"] = "json_schema"
    """json_schema: ask the server to constrain the reply to the verdict schema (OpenAI,
    vLLM, llama.cpp, Ollama support it) and accept only a reply that is one JSON object;
    text: free text, the verdict read from its last line only."""
    max_reply_bytes: int = Field(default=1_000_000, ge=1024)
    """A reply body larger than this is dropped while it is read (``unavailable``), so a
    misbehaving server cannot fill the memory."""
    max_evidence_items: int = Field(default=3, ge=1)
    """Items shown to the judge per span: the best lite evidence, then cited, then others;
    one set for all of an answer's spans where it holds each one's best and cited items."""
    max_evidence_chars: int = Field(default=1500, ge=100)
    """Each shown item's share of the prompt, in characters: a question holds at most
    ``max_evidence_items * max_evidence_chars`` characters of evidence, and an item shorter
    than its share leaves the rest to longer ones (one long item alone is shown up to that
    whole amount). Items are cut at the head."""
    cache_size: int = Field(default=4096, ge=0)
    """Verdicts kept by (claim, evidence, model) content hash."""
    may_overrule: list[Contradiction] = Field(default_factory=list)
    """The typed checks whose contradiction a "supported" verdict of the judge may
    overrule. Empty (the default): where such a check fired and the lite verdict is
    unsupported, it stays unsupported whatever the judge says (``judge_skipped =
    "check_fired"``), so one manipulated verdict cannot flip a plain contradiction
    (docs/judge.md)."""
    max_calls_per_trace: int | None = Field(default=None, ge=0)
    """Band questions asked about one answer (its in-band spans and the answer itself), the
    most uncertain first (nearest their threshold); the rest keep their lite verdict
    (``judge_skipped = "trace_cap"``). Calibration-sample spans are not counted, so the
    sample stays uniform. None: no cap."""

    @model_validator(mode="after")
    def _band_ordered(self) -> JudgeConfig:
        for name, band in (("band", self.band), ("answer_band", self.answer_band)):
            if band is not None and not 0.0 <= band[0] <= band[1] <= 1.0:
                raise ValueError(f"{name} must satisfy 0 <= lo <= hi <= 1, got {list(band)}")
        return self
