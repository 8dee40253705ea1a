"""Whole numbers in untrusted text (a header, an address, an attribute index): ASCII digits
only. ``str.isdigit`` is true for ``'²'`` and other digits that ``int`` refuses, and
``int`` takes spaces, signs, underscores and non-ASCII digits that no wire format means."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")


def ascii_int(text: str, max_digits: int = 18) -> int | None:
    """``text`` as a whole number when it is 1 to ``max_digits`` ASCII digits, else None."""
    if len(text) > max_digits or not _DIGITS.fullmatch(text):
        return None
    return int(text)
