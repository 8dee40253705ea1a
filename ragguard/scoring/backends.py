"""Build the configured backend for each model role. The engine picks backends only here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ragguard.config import ImageConfig, RelevanceConfig, ScorerConfig, SupportConfig
from ragguard.scoring.embeddings import TextEmbedder
from ragguard.scoring.heads import Head
from ragguard.scoring.lite import LiteRelevanceScorer, LiteSupportScorer
from ragguard.scoring.protocols import RelevanceScorer, SupportScorer, VisualScorer


def _lite_head(name: str, config: ScorerConfig) -> Head:
    """For the lite tier, ``model`` names a head JSON file (e.g. one from `ragguard train`)."""
    head = Head.load(config.model) if config.model else Head.bundled(name)
    return head if config.threshold is None else replace(head, threshold=config.threshold)


def _hub_settings(config: ScorerConfig, role: str) -> dict[str, Any]:
    if not config.model:
        raise ValueError(f"{role}.model: the non-lite {role} backend needs a hub id or a path")
    return {
        "model": config.model,
        "threshold": config.threshold,
        "device": config.device,
        "batch_size": config.batch_size,
        "max_length": config.max_length,
        "trust_remote_code": config.trust_remote_code,
    }


def build_relevance(config: RelevanceConfig, embedder: TextEmbedder) -> RelevanceScorer:
    if config.backend == "lite":
        return LiteRelevanceScorer(embedder, _lite_head("relevance_lite", config))
    from ragguard.scoring.transformers_backends import CrossEncoderRelevanceScorer

    return CrossEncoderRelevanceScorer(**_hub_settings(config, "relevance"))


def build_support(config: SupportConfig, embedder: TextEmbedder) -> SupportScorer:
    if config.backend == "lite":
        return LiteSupportScorer(embedder, _lite_head("support_lite", config))
    from ragguard.scoring.transformers_backends import NLISupportScorer

    return NLISupportScorer(**_hub_settings(config, "support"))


def build_visual(config: ImageConfig) -> VisualScorer | None:
    """The image/video scorer, or None (``backend = "none"``: text surrogates only)."""
    if config.backend == "none":
        return None
    settings = _hub_settings(config, "image")
    if config.backend == "clip":
        from ragguard.scoring.clip import ClipScorer

        return ClipScorer(**settings, scale=config.clip_scale, center=config.clip_center)
    from ragguard.scoring.vlm import VLMScorer

    return VLMScorer(**settings)
