"""One card per claim: the question, the answer with the claim marked, the items with the
sentence that best matches the claim marked, and ragguard's verdict, score and reasons.

Every text is untrusted. A card carries texts only as segments (text, kind); the page puts
each into a text node, never into markup, and bidirectional controls (U+202A-202E,
U+2066-2069) become visible ``U+202E`` chips, so no text can reorder what is shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ragguard.calibration import content_hash
from ragguard.errors import RagguardError, TraceValidationError
from ragguard.runtime import LOG_FIELDS
from ragguard.schema import Evaluation, Trace
from ragguard.scoring.lexical import content_tokens, evidence_sentences

_BIDI = re.compile("([\u202a-\u202e\u2066-\u2069])")
Segment = tuple[str, str]
"""(text, kind): kind "" plain, "mark" highlighted, "ctl" a control shown by its code."""


@dataclass(frozen=True)
class ReviewSpan:
    """A span to label: its trace (with ``response_spans`` the evaluation's spans, so span
    ``index`` is the evaluation's), and what ragguard said of it (the ``review`` details a
    label line keeps: support, supported, threshold, reasons, evidence_id, start, end)."""

    trace: Trace
    index: int
    details: dict[str, Any]
    design: str

    @property
    def hash(self) -> str:
        return content_hash(self.claim, self.trace.items or [])

    @property
    def claim(self) -> str:
        return (self.trace.response_spans or [])[self.index]

    def line_base(self) -> dict[str, Any]:
        """The trace part of a label line: the trace as JSON, ``response_spans`` included."""
        data = self.trace.model_dump(mode="json", exclude_none=True)
        for key in LOG_FIELDS:
            data.pop(key, None)
        return data


def from_record(
    trace_data: dict[str, Any], evaluation_data: dict[str, Any], index: int, design: str
) -> ReviewSpan:
    """The span ``index`` of a logged or evaluated trace; TraceValidationError when the
    record does not parse."""
    evaluation = Evaluation.model_validate(evaluation_data)
    raw = {k: v for k, v in trace_data.items() if k not in LOG_FIELDS}
    response = raw.get("response")
    response = response if isinstance(response, str) else ""
    raw["response_spans"] = [response[s.start : s.end] for s in evaluation.spans]
    trace = Trace.parse(raw, check_keys=False)
    span = evaluation.spans[index]
    details = {
        "span": index,
        "start": span.start,
        "end": span.end,
        "support": span.support,
        "supported": span.supported,
        "threshold": evaluation.thresholds.eta_support,
        "evidence_id": span.evidence_id,
        "reasons": [reason.model_dump(mode="json") for reason in span.reasons],
    }
    return ReviewSpan(trace, index, details, design)


def from_label_line(data: dict[str, Any]) -> ReviewSpan:
    """The span a label line was made on (to continue a labels file)."""
    details = data.get("review")
    if not isinstance(details, dict) or not isinstance(details.get("span"), int):
        raise TraceValidationError("review", "not a review-page label line")
    raw = {k: v for k, v in data.items() if k not in ("labels", "hash", "design", "review")}
    for key in ("reviewer", "labelled_at"):
        raw.pop(key, None)
    trace = Trace.parse(raw, check_keys=False)
    design = data.get("design") if data.get("design") in ("random", "flagged") else "flagged"
    return ReviewSpan(trace, details["span"], details, str(design))


def segments(text: str, marks: Sequence[tuple[int, int]] = ()) -> list[Segment]:
    """``text`` as segments, the ``marks`` ranges highlighted, bidi controls made chips."""
    out: list[Segment] = []
    at = 0
    for start, end in sorted(marks):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        out.extend(_inert(text[at:start], ""))
        out.extend(_inert(text[start:end], "mark"))
        at = end
    out.extend(_inert(text[at:], ""))
    return out


def _inert(text: str, kind: str) -> list[Segment]:
    parts: list[Segment] = []
    for piece in _BIDI.split(text):
        if not piece:
            continue
        is_control = len(piece) == 1 and _BIDI.fullmatch(piece)
        parts.append((f"U+{ord(piece):04X}", "ctl") if is_control else (piece, kind))
    return parts


def matched_sentence(claim: str, text: str) -> tuple[int, int] | None:
    """Where in ``text`` the sentence sharing the most content words with ``claim`` lies
    (the rule ragguard's sentence pre-selection reads long passages by); None if none."""
    wanted = content_tokens(claim)
    best, best_shared, at = None, 0, 0
    for sentence in evidence_sentences(text):
        start = text.find(sentence, at)
        if start < 0:
            continue
        at = start + len(sentence)
        shared = len(content_tokens(sentence) & wanted)
        if shared > best_shared:
            best, best_shared = (start, at), shared
    return best


def reason_text(reason: dict[str, Any]) -> str:
    """A reason as the page shows it: ``entity: 'Berlin' vs 'Paris' in d1``."""
    claim, evidence = reason.get("claim", ""), reason.get("evidence", "")
    return f"{reason.get('check')}: {claim!r} vs {evidence!r} in {reason.get('item')}"


def card_view(span: ReviewSpan, number: int, media: list[dict[str, str] | None]) -> dict[str, Any]:
    """The JSON the page draws a card from (texts as segments only)."""
    trace, details = span.trace, span.details
    start, end = int(details.get("start", 0)), int(details.get("end", 0))
    evidence_id = details.get("evidence_id")
    items = []
    for position, item in enumerate(trace.items or []):
        where = matched_sentence(span.claim, item.text or "") if item.id == evidence_id else None
        items.append(
            {
                "id": segments(item.id),
                "text": segments(item.text or "", [where] if where else []),
                "evidence": item.id == evidence_id,
                "media": media[position],
            }
        )
    return {
        "number": number,
        "hash": span.hash,
        "design": span.design,
        "trace_id": segments(trace.trace_id),
        "query": segments(trace.query),
        "answer": segments(trace.response, [(start, end)]),
        "claim": segments(span.claim),
        "items": items,
        "supported": details.get("supported"),
        "support": details.get("support"),
        "threshold": details.get("threshold"),
        "reasons": [segments(reason_text(r)) for r in details.get("reasons", [])],
    }


def check_span(span: ReviewSpan) -> None:
    """A span whose offsets do not fit its answer is refused (a hand-edited record)."""
    start, end = span.details.get("start"), span.details.get("end")
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end):
        raise RagguardError(f"trace {span.trace.trace_id!r}: span offsets are not numbers")
    if end > len(span.trace.response):
        raise RagguardError(f"trace {span.trace.trace_id!r}: span past the end of its answer")
