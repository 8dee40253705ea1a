"""Bidirectional overrides applied as a renderer shows them, so that "\u202eton\u202c", which
shows "not", is read "not" and not "ton" (``ragguard.language.normalize``).

Only what can be settled without the whole Unicode Bidirectional Algorithm is applied: an
override (LRO, RLO) up to its PDF or the end of its paragraph, over text with no
right-to-left letter and no other bidirectional control inside. Within such a run every
character takes the override's direction, so an RLO run shows in reverse order (mirrored
brackets swapped) and an LRO run as written. Any other override is left in place, with its
controls, for ``unreadable`` to name: the text is then not read at all rather than read in
an order nobody sees.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

LRO, RLO, PDF = "\u202d", "\u202e", "\u202c"
OVERRIDES = frozenset((LRO, RLO))
EXPLICIT = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The embeddings, overrides, isolates and their terminators (PDF, PDI)."""
_PARAGRAPH = re.compile(r"([\n\r\x1c-\x1e\x85\u2029])")
"""Paragraph separators (bidirectional class B): an override ends at one."""
_RTL = frozenset(("R", "AL"))


def apply_overrides(text: str, mirrored: Mapping[str, str]) -> str:
    """``text`` with each override it can settle applied and its controls removed; the
    others kept as written (module docstring). ``mirrored``: bracket -> its mirror."""
    if not OVERRIDES.intersection(text):
        return text
    parts = _PARAGRAPH.split(text)
    return "".join(_paragraph(p, mirrored) if OVERRIDES.intersection(p) else p for p in parts)


def _paragraph(text: str, mirrored: Mapping[str, str]) -> str:
    out: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char not in OVERRIDES:
            out.append(char)
            at += 1
            continue
        end = text.find(PDF, at + 1)
        end = len(text) if end < 0 else end
        run = text[at + 1 : end]
        if any(c in EXPLICIT or unicodedata.bidirectional(c) in _RTL for c in run):
            return text  # not settled: left as written, for ``unreadable``
        out.append(_reversed(run, mirrored) if char == RLO else run)
        at = end + 1
    return "".join(out)


def _reversed(run: str, mirrored: Mapping[str, str]) -> str:
    """``run`` as a right-to-left override shows it: characters in reverse order, each with
    its combining marks after it, brackets mirrored."""
    clusters: list[str] = []
    for char in run:
        if clusters and unicodedata.category(char).startswith("M"):
            clusters[-1] += char
        else:
            clusters.append(mirrored.get(char, char))
    return "".join(reversed(clusters))
