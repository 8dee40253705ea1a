"""The lite heads and their training recipe side by side, as sentence-transformers keeps
``CrossEncoder`` with its trainer: the heads (``heads``; the shipped ones in ``bundled/``),
the lite support and relevance scorers and their features (``scorers``), the answer-relevance
head (``answer``), and how a head is fitted (``pairs``, ``fit``, ``losses``, ``triplets``).
``ragguard.train`` reads the training sets and writes the heads and their cards."""

from __future__ import annotations

from ragguard.scoring.lite.answer import (
    ANSWER_FEATURES,
    ANSWER_HEAD_NAME,
    ITEM_FEATURES,
    AnswerRelevanceScorer,
    AnswerScore,
    Languages,
    answer_features,
    item_sentences,
)
from ragguard.scoring.lite.fit import (
    FitResult,
    fit_head,
    fit_mlp,
    sample_pairs,
    with_unrelated_negatives,
)
from ragguard.scoring.lite.heads import Head, Layer, equal_error_threshold
from ragguard.scoring.lite.losses import balanced_bce, pairwise_loss
from ragguard.scoring.lite.pairs import Pair
from ragguard.scoring.lite.scorers import (
    CHECK_FEATURES,
    RELEVANCE_FEATURES,
    SUPPORT_FEATURES,
    LiteRelevanceScorer,
    LiteSupportScorer,
    check_features,
    relevance_features,
    support_features,
    vetoed,
)
from ragguard.scoring.lite.triplets import triplet_indices

__all__ = [
    "ANSWER_FEATURES",
    "ANSWER_HEAD_NAME",
    "CHECK_FEATURES",
    "ITEM_FEATURES",
    "RELEVANCE_FEATURES",
    "SUPPORT_FEATURES",
    "AnswerRelevanceScorer",
    "AnswerScore",
    "FitResult",
    "Head",
    "Languages",
    "Layer",
    "LiteRelevanceScorer",
    "LiteSupportScorer",
    "Pair",
    "answer_features",
    "balanced_bce",
    "check_features",
    "equal_error_threshold",
    "fit_head",
    "fit_mlp",
    "item_sentences",
    "pairwise_loss",
    "relevance_features",
    "sample_pairs",
    "support_features",
    "triplet_indices",
    "vetoed",
    "with_unrelated_negatives",
]
