"""How a configuration becomes scorers: the factory that builds them (``factory``), routing
by language to the backbones that read it (``routing``), and the relevance score cache
(``cache``)."""

from __future__ import annotations

from ragguard.scoring.wiring.cache import CachedRelevanceScorer
from ragguard.scoring.wiring.factory import (
    build_relevance,
    build_support,
    build_visual,
    check_models,
    hub_installed,
    language_policy,
)
from ragguard.scoring.wiring.routing import LanguagePolicy, RoutedRelevance, RoutedSupport

__all__ = [
    "CachedRelevanceScorer",
    "LanguagePolicy",
    "RoutedRelevance",
    "RoutedSupport",
    "build_relevance",
    "build_support",
    "build_visual",
    "check_models",
    "hub_installed",
    "language_policy",
]
