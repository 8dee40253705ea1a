"""The Guard (models and RS cache) that the live middleware and the reranker share, so
models load once per configuration and a relevance score computed by one is read by the
other."""

from __future__ import annotations

import threading
from dataclasses import replace

from ragguard.config import Config
from ragguard.evaluation import Guard, Models
from ragguard.scoring.wiring import CachedRelevanceScorer


def with_score_cache(guard: Guard) -> Guard:
    """A Guard sharing ``guard``'s models whose RS scores are cached by content, so a
    ``ragguard.reranker.Reranker`` built on it and the evaluator score each pair once."""
    models = guard.models
    scorer = models.relevance_scorer
    relevance = (
        scorer
        if isinstance(scorer, CachedRelevanceScorer)
        else CachedRelevanceScorer(scorer, size=guard.config.cache_size)
    )
    cached = Models.build(
        guard.config,
        relevance=relevance,
        support=models.support_scorer,
        embedder=models.embedder,
        analyzer=models.analyzer,
    )
    # the same models, so the same languages: handed over, they would count as the user's
    # own models and read every language (a Japanese claim scored by the English head)
    return Guard(guard.config, models=replace(cached, policy=models.policy))


_LOCK = threading.Lock()
_GUARDS: dict[str, Guard] = {}


def shared_guard(config: Config | None = None) -> Guard:
    """The process-wide Guard for ``config``'s models (loaded lazily, once; RS cached): the
    default of ``wrap()`` and of the reranker, which therefore share their scores."""
    config = config or Config()
    key = config.model_dump_json(exclude={"live"})
    with _LOCK:
        if key not in _GUARDS:
            _GUARDS[key] = with_score_cache(Guard(config))
        return _GUARDS[key]
