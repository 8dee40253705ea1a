"""One normal form for the text the checks and features read, so that invisible or
look-alike characters cannot hide a word from them ("n\u200bot" is "not", "18\u200b89" is
1889, "１８８９" is 1889, "\u202eton\u202c", which shows "not", is "not").

The rules are data (``data/normalization.toml``): apply bidirectional overrides
(``ragguard.language.bidi``), remove the other format characters (Unicode category Cf) and
the letters that render blank (Hangul fillers), fold the listed characters (full-width
forms, fixed-width spaces), then NFC. Not NFKC, which would also rewrite superscripts ("10²"
to "102") and so change a claim. The text stored on a span is never normalised: offsets into
the answer stay the answer's.

``skeleton`` goes further, for the typed checks alone: digits of every form read as ASCII
digits ("⑤⓪⓪", "𝟏𝟖𝟖𝟗") and letters that look like an ASCII letter read as it ("nоt" with a
Cyrillic o, "ɴᴏᴛ", "𝐧𝐨𝐭", "nøt"). The models read ``normalized`` text, not the skeleton.
"""

from __future__ import annotations

import tomllib
import unicodedata
from functools import cache
from importlib import resources
from typing import Any

from ragguard.language.bidi import OVERRIDES, apply_overrides

_FORMAT_PLANES = (*range(0x20000), *range(0xE0000, 0xE1000))
"""Where Unicode puts its format characters and digits (the basic and supplementary
multilingual planes, and the tags): scanning these, not all 1.1 million code points, takes a
tenth of the time at first use."""

UNREADABLE = "unreadable: a bidirectional override over right-to-left or nested text"
"""``unreadable``'s reason (docs/hardening.md)."""


@cache
def _rules() -> dict[str, Any]:
    text = resources.files("ragguard.language").joinpath("data", "normalization.toml")
    return tomllib.loads(text.read_text(encoding="utf-8"))


def _points(rule: dict[str, Any]) -> list[int]:
    """The code points a rule lists: ``chars``, and each ``[first, last]`` of ``ranges``."""
    ranged = (c for first, last in rule.get("ranges", []) for c in range(first, last + 1))
    return [*rule.get("chars", []), *ranged]


@cache
def _mirrored() -> dict[str, str]:
    pairs = _rules()["bidi"]["mirrored"]
    return {**{a: b for a, b in pairs}, **{b: a for a, b in pairs}}


@cache
def _table() -> dict[int, str | None]:
    """The ``str.translate`` table: format characters to nothing (the overrides kept, where
    ``bidi`` could not apply them), folds to their target."""
    rules = _rules()
    table: dict[int, str | None] = {
        c: None for c in _FORMAT_PLANES if unicodedata.category(chr(c)) == "Cf"
    }
    for override in OVERRIDES:
        del table[ord(override)]
    for block in rules.get("block", []):
        for c in range(block["first"], block["last"] + 1):
            table[c] = chr(block["onto"] + c - block["first"])
    for same in rules.get("same", []):
        for c in _points(same):
            table[c] = same["to"] or None
    return table


def normalized(text: str) -> str:
    """``text`` as the checks and features read it (module docstring); ASCII unchanged."""
    if text.isascii():
        return text
    text = apply_overrides(text, _mirrored())
    return unicodedata.normalize("NFC", text.translate(_table()))


def unreadable(text: str) -> str | None:
    """Why ``normalized`` text cannot be read in the order it is shown (an override that
    ``bidi`` left in place), else None. Such a claim or passage is left unscored."""
    return UNREADABLE if not text.isascii() and OVERRIDES.intersection(text) else None


@cache
def _skeleton_table() -> dict[int, str]:
    """``skeleton``'s ``str.translate`` table (the checks-only sections of the data)."""
    rules = _rules()
    table: dict[int, str] = {}
    for rule in rules.get("confusable", []):
        for c in _points(rule):
            table[c] = rule["to"]
    for rule in rules.get("compatibility", []):
        for c in _points(rule):
            form = unicodedata.normalize("NFKC", chr(c))
            if len(form) == 1 and form != chr(c):
                table[c] = table.get(ord(form), form)
    for c in _FORMAT_PLANES:
        if c > 0x7F and unicodedata.category(chr(c)) == "Nd":
            table[c] = str(unicodedata.decimal(chr(c)))
    for rule in rules.get("digits", []):
        for c in _points(rule):
            value = unicodedata.numeric(chr(c), None)
            if value is not None and value == int(value):
                table[c] = str(int(value))
    return table


def skeleton(text: str) -> str:
    """``normalized`` text as the typed checks read it: every digit an ASCII digit and every
    look-alike letter the ASCII letter it looks like (module docstring). Only for what the
    checks compare: the fold is applied to claim and passage alike."""
    if text.isascii():
        return text
    return text.translate(_skeleton_table())
