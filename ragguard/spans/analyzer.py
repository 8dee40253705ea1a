"""Span analysis of responses: split, parse citations, detect abstentions, categorize."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ragguard.config import SpanConfig
from ragguard.language import UNDETERMINED, detect
from ragguard.spans.abstention import AbstentionDetector, Embed
from ragguard.spans.categorize import Categorizer
from ragguard.spans.citations import CitationParse, UnknownPolicy, parse_citations
from ragguard.spans.split import RawSpan, locate_spans, split_sentences
from ragguard.spans.types import ItemRef, Span, SpanKind

Request = tuple[str, Sequence[ItemRef], Sequence[str] | None]
"""(response, retrieved items, the response's spans if the caller already split it)."""


class _Parsed(NamedTuple):
    raw: RawSpan
    parse: CitationParse
    language: str
    read_as: str
    """The language its subjectivity is read in: the detected one, or ``UNDETERMINED``,
    whose cues and articles are those of every supported language ("Le sublime pont ..."
    is not English's evaluative predicate)."""


class SpanAnalyzer:
    """Turns responses into categorized spans.

    Abstention is decided before subjectivity ("I'm not sure, the documents don't say" abstains).
    ``embed`` enables FATHOMS-RAG's nearest-neighbour abstention rule; without it only the cue
    phrases detect abstentions. Spans whose text has no letter or digit once markers are
    stripped (a lone "[1]", a "---" rule) are dropped from a split of ours, and kept as
    ``empty`` spans of a caller's ``response_spans``, so that span i is always entry i.
    """

    def __init__(
        self,
        config: SpanConfig | None = None,
        embed: Embed | None = None,
        unknown_citations: UnknownPolicy = "error",
    ) -> None:
        if unknown_citations not in ("error", "flag"):
            raise ValueError(
                f"unknown_citations must be 'error' or 'flag', not {unknown_citations!r}"
            )
        config = config or SpanConfig()
        self.unknown_citations: UnknownPolicy = unknown_citations
        self.categorizer = Categorizer.from_config(config)
        self.abstention = AbstentionDetector(config, embed)

    def analyze(
        self, response: str, items: Sequence[ItemRef], response_spans: Sequence[str] | None = None
    ) -> list[Span]:
        """The spans of one response (see :meth:`analyze_many`)."""
        return self.analyze_many([(response, items, response_spans)])[0]

    def analyze_many(self, requests: Sequence[Request]) -> list[list[Span]]:
        """The spans of each response; all spans are embedded together, in at most one call.

        Raises TraceValidationError (field "response") for a marker that names no item when
        ``unknown_citations="error"``.
        """
        parsed = [self._parse(*request) for request in requests]
        kept = [p for spans in parsed for p in spans if has_content(p.parse.text)]
        texts = [p.parse.text for p in kept]
        languages, detected = [p.language for p in kept], [p.read_as for p in kept]
        verdicts = iter(self.abstention.detect(texts, languages, detected))
        return [self._spans(spans, verdicts) for spans in parsed]

    def _parse(
        self, response: str, items: Sequence[ItemRef], response_spans: Sequence[str] | None
    ) -> list[_Parsed]:
        raws = (
            split_sentences(response)
            if response_spans is None
            else locate_spans(response, response_spans)
        )
        whole = detect(response)
        fallback = "en" if whole == UNDETERMINED else whole
        parsed = []
        for raw in raws:
            cited = parse_citations(raw.text, items, self.unknown_citations)
            own = detect(cited.text)
            parsed.append(_Parsed(raw, cited, fallback if own == UNDETERMINED else own, own))
        if response_spans is not None:
            return parsed
        return [p for p in parsed if has_content(p.parse.text)]

    def _spans(self, parsed: list[_Parsed], abstains: Iterator[bool]) -> list[Span]:
        spans: list[Span] = []
        context: str | None = None
        for raw, parse, language, read_as in parsed:
            category = self.categorizer.categorize(parse.text, read_as)
            kind: SpanKind
            if not has_content(parse.text):
                kind = "empty"
            elif next(abstains):
                kind = "abstention"
            else:
                kind = category.kind
            spans.append(
                Span(
                    text=parse.text,
                    start=raw.start,
                    end=raw.end,
                    kind=kind,
                    citations=parse.citations,
                    references=parse.references,
                    unknown_citations=parse.unknown,
                    context=context,
                    hedges=tuple(category.hedges),
                    language=language,
                    aside=category.aside if kind == "objective" else (),
                )
            )
            if kind != "empty":
                context = parse.text
        return spans


def has_content(text: str) -> bool:
    """A letter or digit: something a reader could check or a model could score."""
    return any(map(str.isalnum, text))
