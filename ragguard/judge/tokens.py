"""Counting a judge call's tokens here, so the budget never rests on the server's word alone:
a server that reports no usage, or nonsense, would otherwise spend the budget unseen."""

from __future__ import annotations

from typing import Any

CHARS_PER_TOKEN = 4
"""ASCII characters per token in the local count (every other character counts as one)."""
MESSAGE_OVERHEAD = 8
"""Tokens a chat template adds around each message, in the local count."""


def count_tokens(text: str) -> int:
    """A local, deliberately generous count of the tokens in ``text``: tokenizers give
    English about 4 characters a token, and one token or more to most other characters."""
    ascii_chars = sum(1 for c in text if c < "\x80")
    return -(-ascii_chars // CHARS_PER_TOKEN) + (len(text) - ascii_chars)


def sent_tokens(messages: list[dict[str, str]]) -> int:
    """The tokens of a request's messages, counted here (the server may report none)."""
    return sum(count_tokens(m["content"]) + MESSAGE_OVERHEAD for m in messages)


def reported(value: Any, bound: int) -> int | None:
    """A usage figure the server reported, if believable: a whole number in [0, bound]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value != value or not 0 <= value <= bound or int(value) != value:
        return None
    return int(value)
