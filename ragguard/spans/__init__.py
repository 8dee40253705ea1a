"""Span analysis: split a response into sentences, resolve its citation markers, and label each
span objective (scored for support), subjective (not scorable) or abstention."""

from ragguard.spans.abstention import (
    DEFAULT_ABSTENTION_CUES,
    AbstentionDetector,
    Embed,
    LabelledExample,
    load_examples,
)
from ragguard.spans.analyzer import Request, SpanAnalyzer, has_content
from ragguard.spans.categorize import Categorizer, merge_lexicon
from ragguard.spans.citations import CitationParse, parse_citations
from ragguard.spans.cues import HEDGE_CLASSES, LEXICON
from ragguard.spans.split import RawSpan, locate_spans, split_sentences
from ragguard.spans.types import ItemRef, Span, SpanKind

__all__ = [
    "DEFAULT_ABSTENTION_CUES",
    "HEDGE_CLASSES",
    "LEXICON",
    "AbstentionDetector",
    "Categorizer",
    "CitationParse",
    "Embed",
    "ItemRef",
    "LabelledExample",
    "RawSpan",
    "Request",
    "Span",
    "SpanAnalyzer",
    "SpanKind",
    "has_content",
    "load_examples",
    "locate_spans",
    "merge_lexicon",
    "parse_citations",
    "split_sentences",
]
