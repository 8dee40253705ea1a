"""The RAG-Check subjectivity lexicon: cue classes whose presence makes a span subjective.

RAG-Check labels a span subjective when it contains a modal verb, an opinion indicator, a hedge,
an uncertain quantifier, a frequency or degree adverb, a judgmental adjective, a conjecture, or a
comparison or preference. Cues are lower case, matched case-insensitively on word boundaries
(a hyphen counts as part of a word, so "best-selling" is not "best"). Deliberately absent:
"can" (ability, not uncertainty), "always"/"never" (checkable absolutes) and "approximately"/
"about" (a stated approximation is still a checkable figure), and adjectives that are mostly
technical terms ("essential amino acids", "ideal gas", "effective date").
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
