"""How a configuration becomes scorers: the factory that builds them (``factory``), routing
by language to the backbones that read it (``routing``), and the relevance score cache
(``cache``)."""

from __future__ import annotations

from ragguard.scoring.wiring.cache import CachedRelevanceScorer
from ragguard.scoring.wiring.factory import (
    AnswerScorer,
    answer_with_languages,
    build_relevance,
    build_support,
    build_visual,
    check_models,
    hub_installed,
    language_policy,
    relevance_with_languages,
    with_languages,
)
from ragguard.scoring.wiring.routing import (
    LanguagePolicy,
    RoutedRelevance,
    RoutedSupport,
    checks_not_run,
    on_scale,
)

__all__ = [
    "AnswerScorer",
    "CachedRelevanceScorer",
    "LanguagePolicy",
    "RoutedRelevance",
    "RoutedSupport",
    "answer_with_languages",
    "build_relevance",
    "build_support",
    "build_visual",
    "check_models",
    "checks_not_run",
    "hub_installed",
    "language_policy",
    "on_scale",
    "relevance_with_languages",
    "with_languages",
]
