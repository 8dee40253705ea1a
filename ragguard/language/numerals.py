"""Numbers as another language writes them, rewritten as English writes them, character for
character: "3,5" -> "3.5" and "1.000" -> "1,000" in German and Spanish, "1 000" -> "1,000"
in French, "२०२३" -> "2023", the Indian "1,00,000" -> " 100,000".

Each character is replaced by exactly one, so offsets into the rewritten text are offsets
into the original, and the English number reader reads every language.
"""

from __future__ import annotations

import re
from functools import cache

from ragguard.language.scripts import DIGITS
from ragguard.language.wordlists import foreign_lexicon
from ragguard.runtime.caches import memoized

_INDIAN = re.compile(r"(?<![\d.,])\d{1,2}(?:,\d\d)+,\d{3}(?![\d,]|\.\d)")
"""Lakh grouping: "1,00,000" is one hundred thousand, "2,50,00,000" 25 million."""


@cache
def _numeral(separators: str) -> re.Pattern[str]:
    """A run of digits joined by a decimal comma or by the language's group separators (a
    space only before exactly three digits)."""
    joiners = "".join(re.escape(s) for s in separators if s != " ")
    space = "| (?=\\d{3}(?!\\d))" if " " in separators else ""
    return re.compile(rf"(?<![\d.,])\d+(?:(?:[,{joiners}]{space})\d+)*")


def _english(numeral: str, separators: str) -> str:
    """One numeral in English notation, or unchanged where its grouping is irregular."""
    whole, comma, fraction = numeral.partition(",")
    if comma and "," in fraction:
        return numeral  # "1,000,000": already English
    groups = re.split(r"\D", whole)
    marks = re.findall(r"\D", whole)
    grouped = marks and len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
    if marks and not (grouped and len(set(marks)) == 1 and marks[0] in separators):
        return numeral  # "24.12.2020", "1.5", "1.000 000": not grouped thousands, or mixed
    english = ",".join(groups) if marks else whole
    return english + ("." + fraction if comma else "")


@memoized(entries=65_536)
def english_numerals(text: str, code: str) -> str:
    """``text`` with its numbers written the English way for a language ``code`` (length
    and offsets unchanged). English and unknown codes only get their digits mapped."""
    text = text.translate(DIGITS)
    found = foreign_lexicon(code)
    if found is None:
        return text
    if not found.decimal_comma:
        return _INDIAN.sub(_western, text) if "," in text else text
    separators = "".join(found.group_separators)
    return _numeral(separators).sub(lambda m: _english(m.group(), separators), text)


def _western(match: re.Match[str]) -> str:
    written = match.group()
    western = f"{int(written.replace(',', '')):,}"
    return western.rjust(len(written))
