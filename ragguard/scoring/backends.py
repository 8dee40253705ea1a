"""Build the configured backend for each model role. The engine picks backends only here."""

from __future__ import annotations

from dataclasses import replace

from ragguard.config import ImageConfig, RelevanceConfig, ScorerConfig, SupportConfig
from ragguard.errors import ModelLoadError
from ragguard.scoring.embeddings import TextEmbedder
from ragguard.scoring.heads import Head
from ragguard.scoring.lite import LiteRelevanceScorer, LiteSupportScorer
from ragguard.scoring.protocols import RelevanceScorer, SupportScorer, VisualScorer


def _lite_head(name: str, config: ScorerConfig, role: str) -> Head:
    """For the lite tier, ``model`` names a head JSON file (e.g. one from `ragguard train`)."""
    if not config.model:
        head = Head.bundled(name)
    else:
        try:
            head = Head.load(config.model)
        except (OSError, ValueError, KeyError, TypeError) as error:
            reason = error.strerror if isinstance(error, OSError) else f"not a head file: {error!r}"
            raise ModelLoadError(
                f"cannot load the lite head: {reason}", key=f"{role}.model", source=config.model
            ) from error
    return head if config.threshold is None else replace(head, threshold=config.threshold)


def _hub_settings(config: ScorerConfig, role: str) -> dict:
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
        return LiteRelevanceScorer(embedder, _lite_head("relevance_lite", config, "relevance"))
    from ragguard.scoring.transformers_backends import CrossEncoderRelevanceScorer

    return CrossEncoderRelevanceScorer(**_hub_settings(config, "relevance"))


def build_support(config: SupportConfig, embedder: TextEmbedder) -> SupportScorer:
    if config.backend == "lite":
        return LiteSupportScorer(embedder, _lite_head("support_lite", config, "support"))
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
