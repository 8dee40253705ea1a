"""The subjectivity lexicon: RAG-Check's cue classes, split into opinion and hedge classes.

RAG-Check labels a span subjective when it contains a modal verb, an opinion indicator, a hedge,
an uncertain quantifier, a frequency or degree adverb, a judgmental adjective, a conjecture, or a
comparison or preference. ragguard keeps its classes but not that rule: a hedge, a modal or a
quantifier qualifies a claim without making it an opinion ("was likely completed in 1925" can
still be wrong), so only the opinion classes can make a span subjective, and only when the span
has no checkable content (``OPINION_CLASSES``, ``CHECKABLE_CONTENT``; chosen on training data by
``benchmarks/subjectivity.py``, see docs/subjectivity.md). The English cues are
``[subjective]`` in ``ragguard/language/data/en.toml`` (each language's file has its own);
this module names them and says which classes are opinions and which hedges.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ragguard.language import FALLBACK, lexicon_or_fallback

_ENGLISH = lexicon_or_fallback(FALLBACK)

LEXICON: Mapping[str, tuple[str, ...]] = MappingProxyType(dict(_ENGLISH.subjective))
"""Class name -> cues, in RAG-Check's order and then ``evaluative``; the names are those
``SpanConfig`` uses."""

MODAL_VERBS = LEXICON["modal_verbs"]
OPINION_INDICATORS = LEXICON["opinion_indicators"]
HEDGES = LEXICON["hedges"]
UNCERTAIN_QUANTIFIERS = LEXICON["uncertain_quantifiers"]
FREQUENCY_DEGREE_ADVERBS = LEXICON["frequency_degree_adverbs"]
JUDGMENTAL_ADJECTIVES = LEXICON["judgmental_adjectives"]
CONJECTURES = LEXICON["conjectures"]
COMPARISONS_PREFERENCES = LEXICON["comparisons_preferences"]
EVALUATIVE = LEXICON["evaluative"]
"""Evaluative predicates: the speaker's judgement, preference or feeling. A span with one is
subjective even when it names things, unless it also states a fact (``FACTUAL_CUES``, a
number, a date, a quantity): "I find Brazilian coffee more pleasant than Colombian coffee"."""

FACTUAL_CUES: tuple[str, ...] = _ENGLISH.factual
"""Verbs and phrases of a factual relation between named things: an evaluative span that
holds one states a checkable fact ("the best player, born in Rosario") and stays objective,
as does "I think Fleming discovered it"."""

OPINION_CLASSES: tuple[str, ...] = (
    "opinion_indicators",
    "judgmental_adjectives",
    "comparisons_preferences",
    "evaluative",
)
"""The classes that mark an opinion, taste or judgement: a span with one of their cues and no
checkable content is subjective. The other classes are ``HEDGE_CLASSES``."""

HEDGE_CLASSES: tuple[str, ...] = tuple(name for name in LEXICON if name not in OPINION_CLASSES)
"""Hedges, modals, quantifiers, frequency and degree adverbs, conjectures: they qualify a
claim, so a span keeps its kind and lists them in ``hedges``; they never exempt it."""

QUANTITY_WORDS: tuple[str, ...] = _ENGLISH.quantity_words

CHECKABLE_CONTENT: tuple[str, ...] = ("number", "date", "quantity", "proper_name")
"""What makes an opinionated span checkable, so objective: a digit ("number"), a month name
in Title Case ("date"), a spelled-out quantity or ordinal (``QUANTITY_WORDS``: not "one", mostly
a pronoun in opinions, "the best one"), or a word in Title Case that does not start the sentence
and is not "I" ("proper_name")."""
