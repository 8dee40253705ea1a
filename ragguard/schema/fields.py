"""Which top-level keys a trace may carry beyond its own fields, and which are mistakes.

A trace keeps unknown keys (a logged trace round-trips), so a misspelt ``items`` or another
tool's name for the passages used to be kept too, and every claim of the answer was then
checked against nothing. Three lists, as data, settle it: the keys ragguard itself writes or
reads beside the ``Trace`` fields, the names other tools give the retrieved passages, and
the names other tools give the query and the answer (for a missing field's hint).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

PRODUCT_FIELDS: dict[str, str] = {
    "metadata": "free data about the request (golden sets, examples)",
    "pipeline": "the pipeline's name (golden sets; per-pipeline tables and metrics)",
    "otel": "where `ragguard serve` found the trace (service, span ids, dialects)",
    "evaluation": "the trace log: the evaluation made live",
    "logged_at": "the trace log: when the line was written",
    "log_truncated": "the trace log: item texts were cut to fit the line bound",
    "labels": "the labelled format: one label per response_spans entry",
    "answer_relevant": "the labelled format: the answer's own label",
}
"""Top-level keys beside the ``Trace`` fields that ragguard writes or reads: never typos."""

PASSAGE_NAMES = (
    "contexts",
    "context",
    "documents",
    "docs",
    "passages",
    "retrieved_contexts",
    "retrieval_context",
    "sources",
)
"""What other tools call the retrieved passages (RAGAS: ``retrieved_contexts``, DeepEval:
``retrieval_context``, LangChain: documents...); ragguard reads them from ``items``."""

OTHER_NAMES = {
    "query": ("question", "input", "user_input", "prompt"),
    "response": ("answer", "output", "actual_output", "generation", "completion"),
    "trace_id": ("id", "request_id", "run_id"),
}
"""Names other tools give a required trace field: a hint when that field is missing."""

ITEM_TEXT_NAMES = ("content", "page_content", "body", "passage", "chunk", "document", "txt")
"""What other tools call an item's text (LangChain: ``page_content``); ragguard reads ``text``."""

FOREIGN_FORMATS = (
    "ragguard evaluate FILE --format ragas|deepeval|phoenix|langsmith reads those exports as "
    "they are"
)

HINT_CELLS = 200_000
"""The edit-distance cells one line's did-you-mean hints may compute (about 0.2 s in
CPython, well under 1 s on a loaded machine): a line is untrusted, and its keys must not
buy unbounded work (a 3 MB key, 100,000 short keys). Only names within 2 characters of a
field's length are compared at all; once the budget is spent, the remaining keys get no
hint. A misspelt ``items`` hidden behind it leaves the trace without context, which a gate
never passes (``metrics.gates.InputCheck``)."""


class HintBudget:
    """What is left of ``HINT_CELLS`` for one line's hints."""

    def __init__(self, cells: int = HINT_CELLS) -> None:
        self.left = cells

    def spend(self, cells: int) -> bool:
        """Take ``cells``; False (and nothing left) when they are more than remain."""
        if cells > self.left:
            self.left = 0
            return False
        self.left -= cells
        return True


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    two neighbouring letters each cost 1 (``itmes`` is 1 from ``items``)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, start=1):
        row = [i]
        for j, other in enumerate(b, start=1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                cost = min(cost, previous2[j - 2] + 1)
            row.append(cost)
        previous2, previous = previous, row
    return previous[-1]


def near_field(key: str, fields: Iterable[str], budget: HintBudget | None = None) -> str | None:
    """The field ``key`` is a likely misspelling of: at most one edit away for a key of up to
    five characters, two for a longer one, case ignored; None when none is that close (or
    the ``budget`` is spent)."""
    limit = 1 if len(key) <= 5 else 2
    budget = budget or HintBudget()
    lowered = key.lower()
    best: tuple[int, str] | None = None
    for field in fields:
        name = field.lower()
        if field == key or abs(len(name) - len(lowered)) > limit:
            continue  # the distance is at least the difference in length
        if not budget.spend((len(lowered) + 1) * (len(name) + 1)):
            break
        scored = (edit_distance(lowered, name), field)
        best = scored if best is None or scored < best else best
    return best[1] if best is not None and best[0] <= limit else None


def misplaced_keys(data: Mapping[str, Any], fields: Iterable[str]) -> list[tuple[str, str]]:
    """(key, what to do instead) for each top-level key of ``data`` that is another tool's
    name for the passages (while ``items`` is absent) or a misspelling of an absent field:
    the line is skipped, since what it meant to say would be lost."""
    found: list[tuple[str, str]] = []
    for key, close, blocking in _near_misses(data, fields):
        if key.lower() in PASSAGE_NAMES and "items" not in data:
            found.append(
                (
                    key,
                    "is not a trace field; the retrieved passages go in `items`, a list of "
                    f'{{"id": ..., "text": ...}} ({FOREIGN_FORMATS})',
                )
            )
        elif close is not None and blocking:
            found.append((key, f"is not a trace field; did you mean `{close}`?"))
    return found


def stray_keys(data: Mapping[str, Any], fields: Iterable[str]) -> list[tuple[str, str]]:
    """(key, note) for each key one or two edits from a field that the trace has anyway, or
    from one of ragguard's own optional keys (``item`` next to ``items``, ``label``): kept
    and reported, never a reason to skip the line."""
    return [
        (key, f"is not a trace field and is not read; did you mean `{close}`?")
        for key, close, blocking in _near_misses(data, fields)
        if close is not None and not blocking
    ]


def _near_misses(
    data: Mapping[str, Any], fields: Iterable[str]
) -> Iterator[tuple[str, str | None, bool]]:
    """(key, the known key it is nearest or None, whether it hides an absent trace field)
    for each key of ``data`` that is neither a field nor one of ragguard's own keys."""
    fields = list(fields)
    known = [*fields, *PRODUCT_FIELDS]
    budget = HintBudget()  # one bound on the hint work of the whole line
    for key in data:
        if isinstance(key, str) and key not in known:
            close = near_field(key, known, budget)
            yield key, close, close is not None and _blocking(close, data, fields)


def _blocking(close: str, data: Mapping[str, Any], fields: list[str]) -> bool:
    """A misspelt key hides a field only when that trace field is absent."""
    return close in fields and close not in data


def missing_hint(field: str, data: Mapping[str, Any], fields: Iterable[str]) -> str:
    """A hint for a missing required ``field``: a key of ``data`` that is another tool's name
    for it or a misspelling of it ("" when there is none)."""
    known = set(fields) | set(PRODUCT_FIELDS)
    budget = HintBudget()
    for key in data:
        if not isinstance(key, str) or key in known:
            continue
        if key.lower() in OTHER_NAMES.get(field, ()):
            return f" (found `{key}`: rename it `{field}`)"
        if near_field(key, [field], budget) == field:
            return f" (found `{key}`: did you mean `{field}`?)"
    return ""


def item_problem(items: Any) -> tuple[str, str] | None:
    """(field, message) for the first item given as a string, or with its text under another
    name (``content``) and no ``text``, ``image`` or ``video``: said in the user's words
    rather than pydantic's."""
    if not isinstance(items, list):
        return None
    for i, item in enumerate(items):
        if isinstance(item, str):
            return f"items[{i}]", (
                'is a string; an item is an object such as {"id": "d1", "text": "..."} '
                f"(a list of passage strings is another tool's format: {FOREIGN_FORMATS})"
            )
        if not isinstance(item, Mapping) or any(
            item.get(k) is not None for k in ("text", "image", "video")
        ):
            continue
        for key in item:
            if isinstance(key, str) and (
                key.lower() in ITEM_TEXT_NAMES or near_field(key, ["text"]) == "text"
            ):
                return f"items[{i}].{key}", "is not an item field; did you mean `text`?"
    return None
