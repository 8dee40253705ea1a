"""The subjectivity lexicon: RAG-Check's cue classes, split into opinion and hedge classes.

RAG-Check labels a span subjective when it contains a modal verb, an opinion indicator, a hedge,
an uncertain quantifier, a frequency or degree adverb, a judgmental adjective, a conjecture, or a
comparison or preference. ragguard keeps its classes but not that rule: a hedge, a modal or a
quantifier qualifies a claim without making it an opinion ("was likely completed in 1925" can
still be wrong), so only the opinion classes can make a span subjective, and only when the span
has no checkable content (``OPINION_CLASSES``, ``CHECKABLE_CONTENT``; chosen on training data by
``benchmarks/subjectivity.py``, see docs/subjectivity.md). Cues are lower case, matched
case-insensitively on word boundaries (a hyphen counts as part of a word, so "best-selling" is
not "best"). Deliberately absent: "can" (ability, not uncertainty), "always"/"never" (checkable
absolutes) and "approximately"/"about" (a stated approximation is still a checkable figure),
and adjectives that are mostly technical terms ("essential amino acids", "ideal gas",
"effective date").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

MODAL_VERBS: tuple[str, ...] = (
    *("could", "might", "may", "would", "should", "must", "ought to", "shall"),
    *("couldn't", "mightn't", "wouldn't", "shouldn't", "mustn't"),
    *("can't be sure", "cannot be sure", "can't be certain", "cannot be certain"),
)

OPINION_INDICATORS: tuple[str, ...] = (
    *("believe", "believes", "feel", "feels", "i think", "we think", "i consider"),
    *("in my opinion", "in our opinion", "in my view", "in our view", "to my mind"),
    *("from my perspective", "from my point of view", "personally", "i'd say", "i would say"),
    "i find",
)

HEDGES: tuple[str, ...] = (
    *("it seems", "seem", "seems", "seemed", "seemingly", "it appears", "appears to"),
    *("appear to", "apparently", "likely", "unlikely", "probably", "possibly", "perhaps"),
    *("arguably", "somewhat", "tends to", "tend to", "kind of", "sort of", "more or less"),
    *("to some extent", "reportedly", "allegedly", "supposedly", "suggests"),
    *("some sources say", "sources say", "according to some", "it is said", "is said to"),
)

UNCERTAIN_QUANTIFIERS: tuple[str, ...] = (
    *("some", "many", "several", "few", "a few", "most", "numerous", "a lot of", "lots of"),
    *("various", "a number of", "plenty of", "countless", "much", "a great deal of"),
)

FREQUENCY_DEGREE_ADVERBS: tuple[str, ...] = (
    *("often", "usually", "sometimes", "rarely", "seldom", "occasionally", "generally"),
    *("typically", "frequently", "commonly", "normally", "mostly", "largely", "very"),
    *("extremely", "quite", "fairly", "highly", "really", "incredibly", "remarkably"),
    *("relatively", "especially", "particularly"),
)

JUDGMENTAL_ADJECTIVES: tuple[str, ...] = (
    *("important", "useful", "beautiful", "great", "best", "worst", "good", "bad", "amazing"),
    *("excellent", "interesting", "significant", "wonderful", "terrible", "awful", "nice"),
    *("impressive", "remarkable", "outstanding", "fascinating", "stunning", "valuable"),
    *("crucial", "perfect", "iconic", "famous", "popular", "boring", "ugly", "delicious"),
    *("notable", "poor"),
)

CONJECTURES: tuple[str, ...] = (
    *("it is possible that", "it's possible that", "it is likely that", "it's likely that"),
    *("it may be that", "it could be that", "presumably", "i suspect", "i guess", "maybe"),
    *("i suppose", "i assume", "i imagine", "chances are", "conceivably", "in theory"),
)

COMPARISONS_PREFERENCES: tuple[str, ...] = (
    *("better", "worse", "prefer", "prefers", "preferred", "preferable", "preference"),
    *("more popular", "less popular", "rather than", "superior", "inferior", "favorite"),
    *("favourite", "more suitable", "less suitable"),
)

LEXICON: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "modal_verbs": MODAL_VERBS,
        "opinion_indicators": OPINION_INDICATORS,
        "hedges": HEDGES,
        "uncertain_quantifiers": UNCERTAIN_QUANTIFIERS,
        "frequency_degree_adverbs": FREQUENCY_DEGREE_ADVERBS,
        "judgmental_adjectives": JUDGMENTAL_ADJECTIVES,
        "conjectures": CONJECTURES,
        "comparisons_preferences": COMPARISONS_PREFERENCES,
    }
)
"""Class name -> cues, in RAG-Check's order; the names are those ``SpanConfig`` uses."""

OPINION_CLASSES: tuple[str, ...] = (
    "opinion_indicators",
    "judgmental_adjectives",
    "comparisons_preferences",
)
"""The classes that mark an opinion, taste or judgement: a span with one of their cues and no
checkable content is subjective. The other classes are ``HEDGE_CLASSES``."""

HEDGE_CLASSES: tuple[str, ...] = tuple(name for name in LEXICON if name not in OPINION_CLASSES)
"""Hedges, modals, quantifiers, frequency and degree adverbs, conjectures: they qualify a
claim, so a span keeps its kind and lists them in ``hedges``; they never exempt it."""

QUANTITY_WORDS: tuple[str, ...] = (
    *("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "hundreds"),
    *("thousand", "thousands", "million", "millions", "billion", "billions", "trillion"),
    *("dozen", "dozens", "half", "twice", "percent", "per cent", "first", "second", "third"),
    *("double", "triple"),
)

CHECKABLE_CONTENT: tuple[str, ...] = ("number", "date", "quantity", "proper_name")
"""What makes an opinionated span checkable, so objective: a digit ("number"), a month name
in Title Case ("date"), a spelled-out quantity or ordinal (``QUANTITY_WORDS``: not "one", mostly
a pronoun in opinions, "the best one"), or a word in Title Case that does not start the sentence
and is not "I" ("proper_name")."""
