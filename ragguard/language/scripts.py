"""Writing systems: which script a letter belongs to, the combining marks a word is made of,
and digits of other scripts read as ASCII ones.

Python's ``\\w`` leaves out combining marks (category M), and Devanagari writes most vowels
and the virama as such marks: "नहीं" read with ``\\w+`` falls apart into "नह" and nothing.
``LETTER`` adds the marks back, so a word of any script stays one token.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

SCRIPT_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0370, 0x03FF, "el"),
    (0x0400, 0x052F, "ru"),
    (0x0530, 0x058F, "hy"),
    (0x0590, 0x05FF, "he"),
    (0x0600, 0x06FF, "ar"),
    (0x0750, 0x077F, "ar"),
    (0x0900, 0x097F, "hi"),
    (0x0980, 0x09FF, "bn"),
    (0x0A00, 0x0A7F, "pa"),
    (0x0A80, 0x0AFF, "gu"),
    (0x0B00, 0x0B7F, "or"),
    (0x0B80, 0x0BFF, "ta"),
    (0x0C00, 0x0C7F, "te"),
    (0x0C80, 0x0CFF, "kn"),
    (0x0D00, 0x0D7F, "ml"),
    (0x0D80, 0x0DFF, "si"),
    (0x0E00, 0x0E7F, "th"),
    (0x0E80, 0x0EFF, "lo"),
    (0x0F00, 0x0FFF, "bo"),
    (0x1000, 0x109F, "my"),
    (0x10A0, 0x10FF, "ka"),
    (0x1100, 0x11FF, "ko"),
    (0x1200, 0x137F, "am"),
    (0x1780, 0x17FF, "km"),
    (0x3040, 0x30FF, "kana"),
    (0x3400, 0x4DBF, "han"),
    (0x4E00, 0x9FFF, "han"),
    (0xAC00, 0xD7AF, "ko"),
    (0xF900, 0xFAFF, "han"),
)
"""Unicode blocks -> the language code their script most likely writes ("kana" and "han"
are settled together: Japanese mixes both, Chinese writes only Han)."""

_BLOCK_STARTS = tuple(start for start, _, _ in SCRIPT_RANGES)


def script_of(char: str) -> str:
    """The code of a non-Latin letter's script (``SCRIPT_RANGES``); "latin" for a Latin
    letter, "" for anything else (digits, marks, punctuation, symbols)."""
    point = ord(char)
    if point < 0x80:
        return "latin" if char.isalpha() else ""
    if point < 0x0250:
        return "latin" if char.isalpha() else ""
    low, high = 0, len(SCRIPT_RANGES)
    while low < high:  # binary search over the sorted blocks
        middle = (low + high) // 2
        if _BLOCK_STARTS[middle] <= point:
            low = middle + 1
        else:
            high = middle
    if low and point <= SCRIPT_RANGES[low - 1][1] and char.isalpha():
        return SCRIPT_RANGES[low - 1][2]
    return ""


def _mark_ranges(*blocks: tuple[int, int]) -> str:
    """A regex character class body of the combining marks (Mn, Mc, Me) in ``blocks``."""
    points = [
        p
        for low, high in blocks
        for p in range(low, high + 1)
        if unicodedata.category(chr(p)) in ("Mn", "Mc", "Me")
    ]
    runs: list[list[int]] = []
    for point in points:
        if runs and runs[-1][1] == point - 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in runs)


MARKS = _mark_ranges((0x0300, 0x036F), (0x0483, 0x0489), (0x0591, 0x05C7), (0x0610, 0x065F))
MARKS += _mark_ranges((0x0900, 0x0DFF), (0x0E31, 0x0EDF), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF))
"""Combining marks of the scripts above, as the body of a character class."""
LETTER = rf"(?:[^\W\d_]|[{MARKS}])"
"""One letter or combining mark, as a regex (``WORD`` repeats it)."""
WORD = rf"[^\W\d_]{LETTER}*"
"""A word of any script: a letter, then letters and marks ("नहीं", "Straße", "e\u0301t\u0301e")."""

DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
"""Devanagari digits -> ASCII: "२०२३" is the year 2023."""


def phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """Any of ``phrases`` as whole words (a space matches any run of whitespace; marks and
    hyphens count as parts of a word), longest first, case-insensitive. Never matches when
    ``phrases`` is empty."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    body = "|".join(r"\s+".join(map(re.escape, p.split())) for p in ordered) or "(?!)"
    return re.compile(rf"(?<![\w{MARKS}-])(?:{body})(?![\w{MARKS}-])", re.IGNORECASE)
