"""Per-trace size limits (``[limits]`` in the config). A trace past one gets a
``TraceValidationError`` naming the field, before any model sees it, so one oversized trace
costs its batch nothing."""

from __future__ import annotations

import json
from typing import Any

from ragguard.config import LimitsConfig
from ragguard.errors import TraceValidationError
from ragguard.schema import Trace


def check_limits(trace: Trace, limits: LimitsConfig) -> TraceValidationError | None:
    """The first limit ``trace`` breaks, as an error naming the field and the setting."""
    problem = _first_problem(trace, limits)
    if problem is None:
        return None
    field, message = problem
    return TraceValidationError(field, message, trace_id=trace.trace_id)


def nesting_depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (a scalar is 0, ``{"a": 1}`` is 1),
    iteratively, so no nesting can exhaust the stack."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _first_problem(trace: Trace, limits: LimitsConfig) -> tuple[str, str] | None:
    def over(field: str, size: int, cap: int, unit: str, setting: str) -> tuple[str, str]:
        return field, f"{size} {unit}, more than limits.{setting} = {cap}"

    if len(trace.query) > limits.max_query_chars:
        return over("query", len(trace.query), limits.max_query_chars, "chars", "max_query_chars")
    if len(trace.response) > limits.max_response_chars:
        size = len(trace.response)
        return over("response", size, limits.max_response_chars, "chars", "max_response_chars")
    if len(trace.items) > limits.max_items:
        return over("items", len(trace.items), limits.max_items, "items", "max_items")
    for name, value in (trace.model_extra or {}).items():
        depth = nesting_depth(value)
        if depth > limits.max_metadata_depth:
            return over(name, depth, limits.max_metadata_depth, "levels", "max_metadata_depth")
    for index, item in enumerate(trace.items):
        where = f"items[{index}]"
        if item.text is not None and len(item.text) > limits.max_item_chars:
            size = len(item.text)
            return over(f"{where}.text", size, limits.max_item_chars, "chars", "max_item_chars")
        depth = nesting_depth(item.metadata)
        if depth > limits.max_metadata_depth:
            cap = limits.max_metadata_depth
            return over(f"{where}.metadata", depth, cap, "levels", "max_metadata_depth")
        size = len(json.dumps(item.metadata, default=str))
        if size > limits.max_metadata_bytes:
            cap = limits.max_metadata_bytes
            return over(f"{where}.metadata", size, cap, "bytes", "max_metadata_bytes")
    return None
