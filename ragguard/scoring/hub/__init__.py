"""Scorers on models fetched from the Hugging Face hub (the ``[hub]`` extra): the NLI and
cross-encoder backends (``transformers_backends``), CLIP for images (``clip``) and a small
VLM (``vlm``). Each loads its model on first use."""

from __future__ import annotations

from ragguard.scoring.hub.clip import ClipScorer
from ragguard.scoring.hub.transformers_backends import (
    CrossEncoderRelevanceScorer,
    HubModel,
    NLISupportScorer,
)
from ragguard.scoring.hub.vlm import VLMScorer

__all__ = [
    "ClipScorer",
    "CrossEncoderRelevanceScorer",
    "HubModel",
    "NLISupportScorer",
    "VLMScorer",
]
