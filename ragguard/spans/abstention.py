"""Abstention detection: FATHOMS-RAG's nearest-neighbour rule over labelled examples, plus cues.

FATHOMS-RAG labels an answer with the label of its nearest labelled example by cosine. Here a
text is an abstention only when its best abstention similarity beats its best statement
similarity by ``margin``, so near-ties ("The treaty was not signed until 1920.") stay
statements. A cue (a high-precision regular expression such as "the context does not mention")
marks an abstention outright; without an embedding function the cues are all there is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import TypeAdapter, ValidationError

from ragguard.config import SpanConfig
from ragguard.language import FALLBACK, SUPPORTED, UNDETERMINED, lexicon, phrase_pattern

Embed = Callable[[Sequence[str]], np.ndarray]
"""Texts -> an (n, d) float array of sentence embeddings (L2-normalized)."""

Label = Literal["abstention", "statement"]


@dataclass(frozen=True, slots=True)
class LabelledExample:
    """One answer-style text and whether it abstains (FATHOMS-RAG's training examples)."""

    text: str
    label: Label


_EXAMPLES = TypeAdapter(list[LabelledExample])

_SOURCE = (
    r"(?:the|these|this|those)\s+(?:(?:provided|given|retrieved|supplied|available|above|cited"
    r"|relevant)\s+)?(?:context|documents?|sources?|passages?|excerpts?|snippets?|texts?"
    r"|materials?|information|search\s+results|articles?)"
)

DEFAULT_ABSTENTION_CUES: tuple[str, ...] = (
    # "I cannot answer", "I'm unable to determine", "we could not find"
    r"\b(?:i|we)(?:'m|'re|\s+am|\s+are|\s+was|\s+were)?\s+(?:cannot|can't|can\s+not|could\s+not"
    r"|couldn't|unable\s+to|not\s+able\s+to)\s+(?:answer|find|determine|tell|say|locate|provide"
    r"|confirm|verify|identify)\b",
    # "I don't know", "we do not have enough information"
    r"\b(?:i|we)\s+(?:do\s+not|don't|did\s+not|didn't)\s+(?:know|have\s+(?:enough\s+|sufficient\s+"
    r"|any\s+|the\s+|that\s+|this\s+|such\s+)?(?:information|details|context))\b",
    # "the context does not mention", "the provided excerpt doesn't contain"
    rf"\b{_SOURCE}\b[^.?!]{{0,40}}?\b(?:does\s+not|doesn't|do\s+not|don't|did\s+not|didn't"
    r"|fails?\s+to)\s+(?:mention|contain|provide|say|specify|include|state|discuss|address"
    r"|cover|give|indicate|describe|answer|tell)\b",
    # "the excerpts say nothing about", "the sources are silent on"
    rf"\b{_SOURCE}\b[^.?!]{{0,60}}?\b(?:says?\s+nothing|(?:is|are)\s+silent)\b",
    # "not mentioned in the provided documents", "is not in the context"
    r"\bnot\s+(?:(?:explicitly|directly|clearly)\s+)?(?:(?:mentioned|specified|provided|stated"
    rf"|given|included|covered|discussed|addressed|available|found|present)\s+)?(?:in|by|within)"
    rf"\s+{_SOURCE}\b",
    # "there is no information about", "no relevant information"
    r"\bno\s+(?:relevant\s+|specific\s+|such\s+|further\s+|additional\s+|explicit\s+)?information\b",
    r"\b(?:insufficient|not\s+enough)\s+(?:information|context|details)\b",
    # "unclear from the documents"
    r"\b(?:unclear|not\s+clear|impossible\s+to\s+(?:say|tell|determine)|not\s+possible\s+to\s+"
    rf"(?:say|tell|determine))\s+(?:from|based\s+on|given|in)\s+{_SOURCE}\b",
    # "Based on the documents, it is unclear"
    rf"\b(?:based\s+on|according\s+to|from|given)\s+{_SOURCE}\b[^.?!]{{0,20}}?\b(?:it\s+is|it's"
    r"|it\s+remains)\s+(?:unclear|not\s+clear|impossible|not\s+possible)\b",
)
"""Regular expressions (case-insensitive) that mark an abstention on their own."""


def load_examples(path: str | Path | None = None) -> list[LabelledExample]:
    """The built-in labelled examples, or those of a JSON file of {"text", "label"} objects."""
    source = Path(path) if path is not None else None
    where = str(source) if source else "built-in abstention examples"
    data = source or files("ragguard.spans").joinpath("data", "abstention_examples.json")
    try:
        examples = _EXAMPLES.validate_json(data.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"spans.abstention_examples: cannot read {where}: {error}") from error
    except ValidationError as error:
        raise ValueError(f"{where}: not a list of {{text, label}} examples: {error}") from error
    if {example.label for example in examples} != {"abstention", "statement"}:
        raise ValueError(f"{where}: needs examples of both labels, abstention and statement")
    return examples


class AbstentionDetector:
    """Decides which texts abstain from answering (module docstring).

    Examples, extra cues and the margin come from ``config``; the example embeddings are
    computed on first use and kept.
    """

    def __init__(self, config: SpanConfig | None = None, embed: Embed | None = None) -> None:
        config = config or SpanConfig()
        self.examples = load_examples(config.abstention_examples)
        self.margin = config.abstention_margin
        self.min_similarity = config.abstention_min_similarity
        self._embed = embed
        self._cues = [
            _compile_cue(cue) for cue in (*DEFAULT_ABSTENTION_CUES, *config.abstention_cues)
        ]
        self._abstains = np.array([example.label == "abstention" for example in self.examples])
        self._example_vectors: np.ndarray | None = None

    def cue_match(self, text: str, language: str = "en") -> bool:
        """Whether any abstention cue occurs in ``text``: the configured cues, and those of
        ``language`` (its data file's ``abstention``; English lists none there), of every
        supported language where ``language`` is ``UNDETERMINED`` ("Se desconoce." is too
        short to tell)."""
        text = text.replace("’", "'")
        if any(cue.search(text) for cue in self._cues):
            return True
        codes = SUPPORTED if language == UNDETERMINED else (language,)
        return any(_language_cues(code).search(text) is not None for code in codes)

    def detect(
        self,
        texts: Sequence[str],
        languages: Sequence[str] | None = None,
        detected: Sequence[str] | None = None,
    ) -> list[bool]:
        """Which texts abstain. Texts without a cue are embedded together, in one call.
        With ``languages`` (one code per text), a text in another language than the labelled
        examples' (English: ``abstention_by_examples`` in its data file) is judged by cues
        alone: a model that cannot read a text puts it near any of them. ``detected``: the
        language each text was detected in, ``UNDETERMINED`` for one too short to tell (its
        cues are every language's; ``languages`` holds what it is read as). A text that compares
        (a word of its language's ``[superlatives] than``: "no museum is more visited than
        A") states something, however near it lies to "no relevant information was found"."""
        languages = languages or [FALLBACK] * len(texts)
        detected = detected or languages
        verdicts = [self.cue_match(t, code) for t, code in zip(texts, detected, strict=True)]
        pending = [
            i
            for i, hit in enumerate(verdicts)
            if not hit and _by_examples(languages[i]) and not _compares(texts[i], languages[i])
        ]
        if self._embed is None or not pending:
            return verdicts
        nearest, margins = self.similarities([texts[i] for i in pending])
        for i, near, margin in zip(pending, nearest, margins, strict=True):
            verdicts[i] = bool(near >= self.min_similarity and margin > self.margin)
        return verdicts

    def margins(self, texts: Sequence[str]) -> np.ndarray:
        """Best abstention cosine minus best statement cosine, per text (needs ``embed``)."""
        return self.similarities(texts)[1]

    def similarities(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Per text: the best abstention cosine, and its margin over the best statement's.

        Both matter: a factual claim on a topic no example covers is far from every example,
        and a small margin between two far neighbours is noise, not an abstention."""
        if self._example_vectors is None:
            self._example_vectors = self._vectors([example.text for example in self.examples])
        similarity = self._vectors(texts) @ self._example_vectors.T
        nearest = similarity[:, self._abstains].max(axis=1)
        return nearest, nearest - similarity[:, ~self._abstains].max(axis=1)

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings, so that dot products are cosines whatever ``embed`` returns."""
        if self._embed is None:
            raise ValueError("nearest-neighbour abstention needs an embedding function")
        vectors = np.asarray(self._embed(list(texts)), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise ValueError(
                f"embed returned an array of shape {vectors.shape} for {len(texts)} texts; "
                "expected (n, d)"
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)


def _by_examples(language: str) -> bool:
    """Whether the labelled examples are in ``language`` (its ``abstention_by_examples``)."""
    found = lexicon(language)
    return found is not None and found.abstention_by_examples


def _compares(text: str, language: str) -> bool:
    """Whether ``text`` makes a comparison (a word of its language's ``than``)."""
    return _comparison_words(language).search(text) is not None


@cache
def _comparison_words(language: str) -> re.Pattern[str]:
    """The words of a language's ``[superlatives] than`` as one pattern."""
    found = lexicon(language)
    return phrase_pattern(found.superlatives.than if found else ())


SOURCE_REACH = 4
"""Words that may stand between a source and what it is said not to do ("el texto no dice",
"le document ne précise nulle part", "die Quellen nennen das Jahr nicht")."""


@cache
def _language_cues(language: str) -> re.Pattern[str]:
    """The abstention phrases of a language's lexicon, and a source of ``abstention_sources``
    followed within ``SOURCE_REACH`` words by one of ``abstention_denials`` (none for a
    language without a lexicon)."""
    found = lexicon(language)
    phrases = phrase_pattern(found.abstention if found else ()).pattern
    if found is None or not (found.abstention_sources and found.abstention_denials):
        return re.compile(phrases, re.IGNORECASE)
    sources = phrase_pattern(found.abstention_sources).pattern
    denials = phrase_pattern(found.abstention_denials).pattern
    between = rf"(?:\s+[^\s.!?;]+){{0,{SOURCE_REACH}}}?\s+"
    return re.compile(rf"{phrases}|{sources}{between}{denials}", re.IGNORECASE)


def _compile_cue(cue: str) -> re.Pattern[str]:
    try:
        return re.compile(cue, re.IGNORECASE)
    except re.error as error:
        raise ValueError(
            f"abstention_cues: {cue!r} is not a regular expression: {error}"
        ) from error
