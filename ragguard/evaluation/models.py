"""``Models``: the models one configuration needs, built once per process and handed down.

``Guard`` owns the bundle and its ``Evaluator`` receives it; the reranker, the live worker,
calibration, ``judge-bench`` and golden-set scoring read their scorers from it, never from
the evaluator. Each member loads lazily, on first use, once (a ``cached_property`` on a
frozen dataclass): a bundle costs nothing until a model is needed. A model handed in
(``Models.build(config, support=...)``) stands in for the one the config names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, TypedDict, Unpack, cast

from ragguard.calibration import applied, model_fingerprint
from ragguard.config import Config
from ragguard.runtime import max_bytes
from ragguard.scoring.encoders import TextEmbedder, multilingual_embedder
from ragguard.scoring.interface import RelevanceScorer, SupportScorer, VisualScorer
from ragguard.scoring.lite import AnswerRelevanceScorer
from ragguard.scoring.wiring import (
    AnswerScorer,
    LanguagePolicy,
    answer_with_languages,
    build_relevance,
    build_support,
    build_visual,
    check_models,
    language_policy,
    relevance_with_languages,
    with_languages,
)
from ragguard.spans import SpanAnalyzer

if TYPE_CHECKING:
    from ragguard.calibration import CalibrationStore
    from ragguard.judge import Cascade


class GivenModels(TypedDict, total=False):
    """Models handed in by the caller (tests, a shared live worker), used as they are."""

    relevance: RelevanceScorer
    support: SupportScorer
    embedder: TextEmbedder
    analyzer: SpanAnalyzer
    visual: VisualScorer
    judge: Cascade


_ROLES = {
    "relevance": "relevance",
    "support": "support",
    "visual": "image",
    "embedder": "embedding",
}
"""The config's model role (``check_models``) of each model a caller may hand in."""


@dataclass(frozen=True)
class Models:
    """The configuration's models; each member is built on first use, once."""

    config: Config
    """The configuration in force (a file calibration applied)."""
    policy: LanguagePolicy
    given: GivenModels = field(default_factory=lambda: GivenModels())

    @classmethod
    def build(cls, config: Config | None = None, **given: Unpack[GivenModels]) -> Models:
        """The bundle for ``config``: its model files checked now, its models loaded later."""
        max_bytes()  # a bad RAGGUARD_CACHE_MAX_BYTES fails here, named, not mid-batch
        config = applied(config or Config())
        given = cast(GivenModels, {k: v for k, v in given.items() if v is not None})
        check_models(config, skip={_ROLES[name] for name in given if name in _ROLES})
        own = any(name in given for name in ("support", "relevance", "embedder"))
        return cls(config, language_policy(config, own_models=own), given)

    @cached_property
    def embedder(self) -> TextEmbedder:
        if "embedder" in self.given:
            return self.given["embedder"]
        return TextEmbedder(
            self.config.embedding_model,
            cache_size=self.config.cache_size,
            threads=self.config.threads,
            precision=self.config.embedding_precision,
        )

    @cached_property
    def multilingual_embedder(self) -> TextEmbedder:
        """multilingual-E5 for text MiniLM cannot read (built here, loaded on first use)."""
        settings = self.config.multilingual
        return multilingual_embedder(
            settings.model, threads=settings.threads, cache_size=self.config.cache_size
        )

    @cached_property
    def relevance_scorer(self) -> RelevanceScorer:
        if "relevance" in self.given:
            return self.given["relevance"]
        english = build_relevance(self.config.relevance, self.embedder)
        return relevance_with_languages(english, self.multilingual_embedder, self.policy)

    @cached_property
    def support_scorer(self) -> SupportScorer:
        if "support" in self.given:
            return self.given["support"]
        english = build_support(self.config.support, self.embedder)
        return with_languages(english, self.config, self.multilingual_embedder, self.policy)

    @cached_property
    def answer_scorer(self) -> AnswerScorer:
        """Answer relevance on the same embedder (its cache already holds the vectors);
        answers in the multilingual tier's languages on multilingual-E5."""
        english = AnswerRelevanceScorer(self.embedder, threshold=self.config.answer.threshold)
        return answer_with_languages(english, self.multilingual_embedder, self.policy)

    @cached_property
    def visual_scorer(self) -> VisualScorer | None:
        """The image/video scorer; None when ``image.backend = "none"``."""
        if "visual" in self.given:
            return self.given["visual"]
        return build_visual(self.config.image)

    @cached_property
    def judge(self) -> Cascade | None:
        """The LLM-judge cascade for the lite tier's unsure spans; None when
        ``judge.backend = "none"``."""
        if "judge" in self.given:
            return self.given["judge"]
        if self.config.judge.backend == "none":
            return None
        from ragguard.judge import Cascade

        return Cascade(self.config.judge, calibration=self._calibration_store())

    def _calibration_store(self) -> CalibrationStore | None:
        """``[calibration] source = "judge"``: the pipeline's judge-labelled sample."""
        if self.config.calibration.source != "judge":
            return None
        from ragguard.calibration import CalibrationStore

        return CalibrationStore(
            self.config.calibration,
            pipeline=self.config.exporters.pipeline,
            fingerprint=model_fingerprint(self.config),
            default_threshold=self.support_scorer.threshold,
            default_band=self.config.judge.band,
        )

    @property
    def support_threshold(self) -> float:
        """The support eta in force: the judge calibration's once it has fitted one, else
        the scorer's (the head's, or a file calibration's)."""
        judge = self.judge
        store = judge.calibration if judge is not None else None
        return store.threshold if store is not None else self.support_scorer.threshold

    @cached_property
    def analyzer(self) -> SpanAnalyzer:
        if "analyzer" in self.given:
            return self.given["analyzer"]
        # unknown citations are always flagged here; the policy is applied per trace
        return SpanAnalyzer(self.config.spans, embed=self.embedder.encode, unknown_citations="flag")
