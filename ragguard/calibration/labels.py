"""The one labelled format that every command that learns or measures reads.

A line is a trace (the usual fields, with ``response_spans``) plus ``"labels"``: a list
parallel to ``response_spans``, each entry ``true`` (supported), ``false`` or ``null`` (not
labelled); 1 or 0 there is an error. A line may also carry ``"answer_relevant": true |
false``. A claim/evidence pair is a one-span trace; the older ``{"claim", "evidence",
"label"}`` lines (label 1 or 0, or true or false) are read as that one-span case.
``ragguard calibrate``, ``train --labels`` and ``judge-bench --labels`` take the same
lines.

A line written by the review page (``ragguard review``) labels one span and carries its
``hash`` (``content_hash`` of the span and the items), ``design``, ``reviewer``,
``labelled_at`` and the page's ``review`` details. A later line for the same (``hash``,
``reviewer``) replaces an earlier one (an undo, a changed mind): readers keep the last.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragguard.errors import TraceValidationError
from ragguard.runtime import DEFAULT_MAX_LINE_BYTES, read_jsonl
from ragguard.schema import Item, Trace
from ragguard.spans import has_content

REVIEW_FIELDS = ("hash", "design", "reviewer", "labelled_at", "review")
"""The keys the review page adds to a labelled line (popped before the trace is parsed)."""
DESIGNS = ("random", "flagged")
"""How a reviewed span was drawn: a uniform sample of objective spans, or flagged first."""


@dataclass(frozen=True)
class Reviewed:
    """Who labelled a review-page line's span, how the span was drawn, and its hash."""

    hash: str
    span: int
    design: str
    reviewer: str


@dataclass(frozen=True)
class LabelledTrace:
    """A trace with one label (or None) per entry of its ``response_spans``."""

    trace: Trace
    labels: tuple[bool | None, ...]
    answer_relevant: bool | None = None
    line: int | None = None
    reviewed: Reviewed | None = None

    def claims(self) -> Iterator[tuple[str, str, bool]]:
        """(claim, evidence, supported) per labelled span with content, the evidence being
        all of the trace's item texts: the pair form ``train`` and ``judge-bench`` read."""
        evidence = "\n".join(item.text for item in self.trace.items if item.text)
        for span, label in zip(self.trace.response_spans or (), self.labels, strict=True):
            if label is not None and has_content(span):
                yield span.strip(), evidence, label


def content_hash(span: str, items: Sequence[Item]) -> str:
    """The hash a review label is keyed on: the span's text and every item's id, text and
    media, so a label never attaches to other text."""
    digest = hashlib.sha256(span.encode())
    for item in items:
        for part in (item.id, item.text or "", item.image or "", item.video or ""):
            digest.update(b"\0" + part.encode())
    return "sha256:" + digest.hexdigest()


def pair_trace(claim: str, evidence: str, label: bool | None, *, trace_id: str) -> dict[str, Any]:
    """A claim/evidence pair as a one-span labelled trace (as a JSON object)."""
    return {
        "trace_id": trace_id,
        "query": claim,
        "items": [{"id": "evidence", "text": evidence}],
        "response": claim,
        "response_spans": [claim],
        "labels": [label],
    }


def _label(
    value: Any, field: str, line: int | None, trace_id: str | None, *, pair: bool = False
) -> bool | None:
    """A label: true, false or null; 1 and 0 only on a pair line (``pair``), whose older
    format wrote them. Elsewhere a 1 or 0 is refused, not guessed: in a ``labels`` list it
    more likely counts something than says "supported"."""
    if value is None or isinstance(value, bool):
        return value
    if pair and isinstance(value, int) and value in (0, 1):
        return bool(value)
    hint = " (1 and 0 are read only as the label of a claim/evidence pair line)"
    raise TraceValidationError(
        field,
        f"must be true, false or null, not {value!r}{hint if value in (0, 1) else ''}",
        trace_id=trace_id,
        line=line,
    )


def as_labelled(data: dict[str, Any], line: int | None = None) -> LabelledTrace:
    """One line of the labelled format, validated; a TraceValidationError names the field."""
    if "claim" in data and "labels" not in data:
        unknown = sorted(set(data) - {"claim", "evidence", "label"})
        if unknown or not isinstance(data.get("claim"), str):
            field = unknown[0] if unknown else "claim"
            raise TraceValidationError(field, "a pair line has claim, evidence, label", line=line)
        if not isinstance(data.get("evidence"), str):
            raise TraceValidationError("evidence", "must be a string", line=line)
        label = _label(data.get("label"), "label", line, None, pair=True)
        digest = hashlib.sha256(f"{data['claim']}\0{data['evidence']}".encode()).hexdigest()
        data = pair_trace(data["claim"], data["evidence"], label, trace_id=f"pair-{digest[:16]}")
    data = dict(data)
    trace_id = data.get("trace_id") if isinstance(data.get("trace_id"), str) else None
    labels = data.pop("labels", None)
    relevant = data.pop("answer_relevant", None)
    review = {key: data.pop(key) for key in REVIEW_FIELDS if key in data}
    trace = Trace.parse(data, line=line)
    if trace.response_spans is None:
        raise TraceValidationError(
            "response_spans",
            "a labelled trace needs the spans its labels refer to",
            trace_id=trace_id,
            line=line,
        )
    if not isinstance(labels, list) or len(labels) != len(trace.response_spans):
        count = len(labels) if isinstance(labels, list) else "no list"
        raise TraceValidationError(
            "labels",
            f"needs one entry per response_spans entry ({len(trace.response_spans)}), got {count}",
            trace_id=trace_id,
            line=line,
        )
    parsed = tuple(_label(v, f"labels[{i}]", line, trace_id) for i, v in enumerate(labels))
    reviewed = _reviewed(review, trace, parsed, line) if review else None
    relevant_label = _label(relevant, "answer_relevant", line, trace_id)
    return LabelledTrace(trace, parsed, relevant_label, line, reviewed)


def _reviewed(
    review: dict[str, Any], trace: Trace, labels: tuple[bool | None, ...], line: int | None
) -> Reviewed:
    """A review-page line's keys, checked: its ``hash`` must be the labelled span's (with
    the line's items), and only that span may carry a label."""

    def refuse(field: str, message: str) -> TraceValidationError:
        return TraceValidationError(field, message, trace_id=trace.trace_id, line=line)

    details = review.get("review")
    span = details.get("span") if isinstance(details, dict) else None
    spans = trace.response_spans or []
    if not isinstance(span, int) or isinstance(span, bool) or not 0 <= span < len(spans):
        raise refuse("review.span", f"must be the index of a response_spans entry, not {span!r}")
    if review.get("design") not in DESIGNS:
        raise refuse("design", f"must be one of {', '.join(DESIGNS)}")
    reviewer = review.get("reviewer")
    if not isinstance(reviewer, str):
        raise refuse("reviewer", "must be a string")
    if review.get("hash") != content_hash(spans[span], trace.items or []):
        raise refuse("hash", "is not the hash of the span's text and items: other text")
    if any(label is not None for i, label in enumerate(labels) if i != span):
        raise refuse("labels", f"a review line labels only its span ({span})")
    return Reviewed(review["hash"], span, review["design"], reviewer)


def read_labelled(
    path: str | Path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[LabelledTrace | TraceValidationError]:
    """Each non-blank line as a LabelledTrace, or its error (with the line number); of the
    review page's lines, only the last per (``hash``, ``reviewer``)."""
    last = _last_review_lines(path, max_line_bytes)
    for number, data in read_jsonl(path, max_line_bytes=max_line_bytes):
        if isinstance(data, TraceValidationError):
            yield data
            continue
        try:
            labelled = as_labelled(data, number)
        except TraceValidationError as error:
            yield error
            continue
        key = labelled.reviewed and (labelled.reviewed.hash, labelled.reviewed.reviewer)
        if not key or last.get(key) == number:
            yield labelled


def _last_review_lines(path: str | Path, max_line_bytes: int) -> dict[tuple[str, str], int]:
    """The last line of each (``hash``, ``reviewer``) among the file's review-page lines (a
    first pass, keeping two strings per labelled span)."""
    last: dict[tuple[str, str], int] = {}
    for number, data in read_jsonl(path, max_line_bytes=max_line_bytes):
        if isinstance(data, dict):
            key = (data.get("hash"), data.get("reviewer"))
            if isinstance(key[0], str) and isinstance(key[1], str):
                last[key] = number  # type: ignore[index]
    return last
