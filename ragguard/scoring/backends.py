"""Build the configured backend for each model role. The engine picks backends only here."""

from __future__ import annotations

from dataclasses import replace

from ragguard.config import RelevanceConfig, SupportConfig
from ragguard.scoring.embeddings import TextEmbedder
from ragguard.scoring.heads import Head
from ragguard.scoring.lite import LiteRelevanceScorer, LiteSupportScorer
from ragguard.scoring.protocols import RelevanceScorer, SupportScorer


def _lite_head(name: str, model: str | None, threshold: float | None) -> Head:
    head = Head.load(model) if model else Head.bundled(name)
    return head if threshold is None else replace(head, threshold=threshold)


def build_relevance(config: RelevanceConfig, embedder: TextEmbedder) -> RelevanceScorer:
    if config.backend == "lite":
        # for the lite tier, ``model`` names a head JSON file (e.g. one from `ragguard train`)
        return LiteRelevanceScorer(
            embedder, _lite_head("relevance_lite", config.model, config.threshold)
        )
    from ragguard.scoring.transformers_backends import CrossEncoderRelevanceScorer

    return CrossEncoderRelevanceScorer(
        _required_model(config.model, "relevance"),
        threshold=config.threshold,
        device=config.device,
        batch_size=config.batch_size,
        max_length=config.max_length,
        trust_remote_code=config.trust_remote_code,
    )


def build_support(config: SupportConfig, embedder: TextEmbedder) -> SupportScorer:
    if config.backend == "lite":
        return LiteSupportScorer(
            embedder, _lite_head("support_lite", config.model, config.threshold)
        )
    from ragguard.scoring.transformers_backends import NLISupportScorer

    return NLISupportScorer(
        _required_model(config.model, "support"),
        threshold=config.threshold,
        device=config.device,
        batch_size=config.batch_size,
        max_length=config.max_length,
        trust_remote_code=config.trust_remote_code,
    )


def _required_model(model: str | None, role: str) -> str:
    if not model:
        raise ValueError(f"{role}.model: the non-lite {role} backend needs a hub id or a path")
    return model
