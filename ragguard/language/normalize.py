"""One normal form for the text the checks and features read, so that invisible or
look-alike characters cannot hide a word from them ("n\u200bot" is "not", "18\u200b89" is
1889, "１８８９" is 1889).

The rules are data (``data/normalization.toml``): remove format characters (Unicode
category Cf), fold the listed characters (full-width forms, fixed-width spaces), then NFC.
Not NFKC, which would also rewrite superscripts ("10²" to "102") and so change a claim.
The text stored on a span is never normalised: offsets into the answer stay the answer's.
"""

from __future__ import annotations

import tomllib
import unicodedata
from functools import cache
from importlib import resources

_FORMAT_PLANES = (*range(0x20000), *range(0xE0000, 0xE1000))
"""Where Unicode puts its format characters (the basic and supplementary multilingual
planes, and the tags): scanning these, not all 1.1 million code points, takes a tenth of
the time at first use."""


@cache
def _table() -> dict[int, str | None]:
    """The ``str.translate`` table: format characters to nothing, folds to their target."""
    rules = tomllib.loads(
        resources.files("ragguard.language").joinpath("data", "normalization.toml").read_text()
    )
    table: dict[int, str | None] = {
        c: None for c in _FORMAT_PLANES if unicodedata.category(chr(c)) == "Cf"
    }
    for block in rules.get("block", []):
        for c in range(block["first"], block["last"] + 1):
            table[c] = chr(block["onto"] + c - block["first"])
    for same in rules.get("same", []):
        for c in same["chars"]:
            table[c] = same["to"]
    return table


def normalized(text: str) -> str:
    """``text`` as the checks and features read it (module docstring); ASCII unchanged."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", text.translate(_table()))
