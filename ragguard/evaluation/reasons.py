"""Why a span is unsupported, as a person can use it: the decisive few reasons, each naming
the passage's value where the passage states one, none from items that do not bear on the
claim when the best item explains it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ragguard.schema import SpanReason
from ragguard.scoring.protocols import Reason

MAX_REASONS = 5
"""Reasons kept per span: the decisive few, not every check that fired on every item."""


class _Item(Protocol):
    @property
    def id(self) -> str: ...


class _Trace(Protocol):
    @property
    def items(self) -> Sequence[_Item]: ...


class _Plan(Protocol):
    @property
    def trace(self) -> _Trace: ...
    @property
    def reasons(self) -> Mapping[tuple[int, int], tuple[Reason, ...]]: ...
    @property
    def unread(self) -> Mapping[tuple[int, int], tuple[str, str]]: ...
    @property
    def languages(self) -> Mapping[int, str]: ...


def span_reasons(
    s: int, plan: _Plan, ranked: Sequence[int], support: float, eta: float
) -> list[SpanReason]:
    """Why a span is unsupported, decisive first: the contradictions (number, date,
    negation, entity) before claim words no item mentions, each by its best-supporting item
    first, each reason once (the same wrong number is not repeated for every item), at most
    MAX_REASONS. When the best-supporting item gives a reason, another item's counts only
    where it names a value of its own ("1889", not "nothing": an item that says nothing of
    the claim does not bear on it); a claim value that some item answers with a value is not
    listed again as answered by nothing. A span no check explains gets ``low_support``: its
    best support and eta. Items left unread for their language come last, as ``language``."""
    seen: set[tuple[str, str, str]] = set()
    found: list[SpanReason] = []
    best_explains = bool(ranked) and bool(plan.reasons.get((s, ranked[0]), ()))
    for i in ranked:
        for r in plan.reasons.get((s, i), ()):
            if best_explains and i != ranked[0] and not r.evidence:
                continue
            if (r.check, r.claim, r.evidence) not in seen:
                seen.add((r.check, r.claim, r.evidence))
                item = plan.trace.items[i].id
                found.append(
                    SpanReason(check=r.check, claim=r.claim, evidence=r.evidence, item=item)
                )
    valued = {(r.check, r.claim) for r in found if r.evidence}
    found = [r for r in found if r.evidence or (r.check, r.claim) not in valued]
    found.sort(key=lambda reason: reason.check == "uncovered")  # stable: item order kept
    if not found:
        item = plan.trace.items[ranked[0]].id if ranked else "none"
        claim, evidence = f"support {support:.2f}", f"threshold {eta:.2f}"
        found.append(SpanReason(check="low_support", claim=claim, evidence=evidence, item=item))
    spoken = plan.languages.get(s, "")
    for (span, i), (_, written) in plan.unread.items():
        if span == s:  # an item that might have supported the span, left unread
            item = plan.trace.items[i].id
            found.append(SpanReason(check="language", claim=spoken, evidence=written, item=item))
    return found[:MAX_REASONS]


def unread_reason(s: int, plan: _Plan) -> str | None:
    """Why span ``s`` could be read with none of its items (the first item's reason)."""
    return next((why for (span, _), (why, _) in plan.unread.items() if span == s), None)
