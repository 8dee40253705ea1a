"""Numbers as a language writes them.

In digits, rewritten as English writes them, character for character: "3,5" -> "3.5" and
"1.000" -> "1,000" in German and Spanish, "1 000" -> "1,000" in French, "२०२३" -> "2023",
the Indian "1,00,000" -> " 100,000". Each character is replaced by exactly one, so offsets
into the rewritten text are offsets into the original, and the English number reader reads
every language.

In words (``spelled_numbers``), read by a small grammar from each language's ``[numbers]``
table: "three hundred and thirty", "nineteen twenty-eight", "dreihundertdreißig".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from ragguard.language.scripts import DIGITS, MARKS
from ragguard.language.shapes import PeriodWords
from ragguard.language.wordlists import NumberWordLists, foreign_lexicon, lexicon, section
from ragguard.runtime import memoized

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


# --- numbers in words -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpelledNumber:
    """A number written in words: where it is in the text, its value, and whether it is
    written as a year ("nineteen twenty-eight", "neunzehnhundertachtundzwanzig")."""

    start: int
    end: int
    value: float
    year: bool


@dataclass(frozen=True, slots=True)
class _Token:
    start: int
    end: int
    word: str
    kind: (
        str  # "small" (< 100), "hundreds" (Spanish "trescientos"), "multiplier", "scale",
        # "joiner", "year_zero" ("nineteen oh nine"), "half", "point" ("four point five")
    )
    value: float


@dataclass(frozen=True, slots=True)
class _Grammar:
    lists: NumberWordLists
    run: re.Pattern[str]
    token: re.Pattern[str]
    pieces: frozenset[str] | None
    """The case-folded words the number words are made of, where each stands as a word of its
    own (not in ``glued`` languages): a text with none of them writes no number in words."""


_PIECE = re.compile(rf"[\w{MARKS}]+")
"""A word as the number scan bounds one: letters, digits and the scripts' marks."""


def _alternation(words: Iterable[str]) -> str:
    """Longest first, so that "seventeen" is read before "seven"."""
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in ordered)


@cache
def _grammar(code: str) -> _Grammar | None:
    found = lexicon(code)
    if found is None or not found.numbers.words:
        return None
    lists = found.numbers
    fractions = (*lists.halves, *lists.points)
    number = _alternation(
        [*lists.words, *lists.multipliers, *lists.scales, *lists.year_zeros, *fractions]
    )
    joiner = _alternation(lists.joiners) or "(?!)"
    gap = r"(?:\s*-\s*|\s+)"
    glue = f"|(?:{joiner})?" if lists.glued else ""
    separator = rf"(?:{gap}(?:(?:{joiner}){gap})?{glue})"
    begin, end = rf"(?<![\w{MARKS}])", rf"(?![\w{MARKS}])"
    vocabulary = [*lists.words, *lists.multipliers, *lists.scales]
    pieces = frozenset(p for w in vocabulary for p in _PIECE.findall(w.casefold()))
    return _Grammar(
        lists,
        re.compile(rf"{begin}(?:{number})(?:{separator}(?:{number}))*{end}", re.IGNORECASE),
        re.compile(rf"{joiner}|{number}", re.IGNORECASE),
        None if lists.glued else pieces,
    )


def _tokens(grammar: _Grammar, text: str, start: int, end: int) -> list[_Token]:
    lists = grammar.lists
    out = []
    for m in grammar.token.finditer(text, start, end):
        word = " ".join(m.group().lower().split())
        if word in lists.joiners:
            kind, value = "joiner", 0.0
        elif word in lists.year_zeros:
            kind, value = "year_zero", 0.0
        elif word in lists.halves or word in lists.points:
            kind, value = ("half", 0.5) if word in lists.halves else ("point", 0.0)
        elif word in lists.words:
            value = lists.words[word]
            kind = "small" if value < 100 else "hundreds"
        elif word in lists.multipliers:
            kind, value = "multiplier", lists.multipliers[word]
        else:
            kind, value = "scale", lists.scales.get(word, 1.0)
        out.append(_Token(m.start(), m.end(), word, kind, value))
    return out


def _composes(last: float, value: float, units_first: bool) -> bool:
    """Whether ``value`` goes on the number ending in ``last`` below a hundred: a unit after
    its tens ("twenty-three", "soixante-dix-sept" after sixty and eighty), or, where units
    come first, tens after a unit and a joiner ("dreiundzwanzig")."""
    if last >= 20 and last % 10 == 0:
        return value < 10 or (last in (60, 80) and value < 20)
    if last == 10:
        return 0 < value < 10  # "dix-sept"
    return units_first and last < 10 and value >= 20 and value % 10 == 0


class _Reader:
    """One number read token by token; ``take`` says whether a token goes on it."""

    def __init__(self, units_first: bool) -> None:
        self.units_first = units_first
        self.total = self.current = self.group = 0.0
        self.last: float | None = None
        self.scale = 0.0
        self.pair: float | None = None
        self.hundreds_year = False
        self.tokens = 0
        self.decimals = 0
        """Digits read after a decimal point ("four point five": 1)."""

    def take(self, token: _Token, joined: bool) -> bool:
        kind, value = token.kind, token.value
        if kind in ("half", "point") or self.decimals:
            return self._fraction(kind, value)
        if kind == "small":
            if self.last is None:
                if self.group or (self.pair is None and self.current % 100):
                    return False
                self.group, self.last = value, value
            elif self.group + value < 100 and _composes(
                self.last, value, joined and self.units_first
            ):
                self.group, self.last = self.group + value, value
            elif self._pairs(value, joined):
                self.pair, self.group, self.last = self.group, value, value
            else:
                return False
        elif kind == "year_zero":  # "nineteen oh nine": the pair's second half is a unit
            if self.last is None or not self._pairs(10, joined):
                return False
            self.pair, self.group, self.last = self.group, 0.0, None
        elif kind == "hundreds":
            if self.pair is not None or self.group or self.current:
                return False
            self.current = value
        elif kind == "multiplier":
            if self.pair is not None or (not self.group and self.current):
                return False
            first = not (self.total or self.current)
            self.hundreds_year = first and value == 100 and 11 <= self.group <= 20
            self.current += max(self.group, 1.0) * value
            self.group, self.last = 0.0, None
        else:  # a scale; only "thousand" opens a number ("mille neuf cent", "mil novecientos")
            if (not self.tokens and value != 1000) or self.pair is not None:
                return False
            below = self.current + self.group
            if below == 0 and value > self.scale:
                self.total = max(self.total, 1.0) * value  # "tres mil millones"
            elif self.scale and value >= self.scale:
                return False
            else:
                self.total += max(below, 1.0) * value
            self.current = self.group = 0.0
            self.last, self.scale = None, value
        self.tokens += 1
        return True

    def _fraction(self, kind: str, value: float) -> bool:
        """A half ("four and a half"; of the scale before it: "deux millions et demi") or a
        decimal point and the digits after it, one word each ("four point two five")."""
        if not self.tokens or self.pair is not None:
            return False
        if kind == "half" and not self.decimals:
            if self.scale and not (self.current or self.group):
                self.total += 0.5 * self.scale
            else:
                self.group += 0.5
        elif kind == "point" and not self.decimals and self.group < 100:
            self.decimals = 1
        elif kind == "small" and self.decimals and value < 10 and value.is_integer():
            self.group += value / 10**self.decimals
            self.decimals += 1
        elif kind == "scale" and self.decimals > 1:  # "four point five million"
            self.total += (self.current + self.group) * value
            self.current = self.group = 0.0
            self.decimals, self.scale = 0, value
        else:
            return False
        self.last = None
        self.tokens += 1
        return True

    def _pairs(self, value: float, joined: bool) -> bool:
        """A year written as two numbers: "nineteen twenty-eight", "twenty twenty"."""
        return (
            not joined
            and self.pair is None
            and not (self.total or self.current)
            and 10 <= self.group <= 20
            and value >= 10
        )

    def number(self) -> tuple[float, bool]:
        if self.pair is not None:
            return self.pair * 100 + self.group, True
        value = self.total + self.current + self.group
        year = self.hundreds_year or (1000 <= value < 2100 and value % 1000 != 0)
        return value, year and value.is_integer()


@memoized(entries=65_536)
def spelled_numbers(text: str, code: str) -> tuple[SpelledNumber, ...]:
    """The numbers ``text`` writes in words in a language ``code`` (its ``[numbers]``
    table): "three hundred and thirty" (330), "nineteen twenty-eight" (the year 1928),
    "dreihundertdreißig", "trois cent trente", "trescientos treinta". Words that join no
    number ("two and three") are read as the numbers they are; a lone ``not_alone`` word
    ("one") is none."""
    grammar = _grammar(code)
    if grammar is None:
        return ()
    if grammar.pieces is not None and grammar.pieces.isdisjoint(_PIECE.findall(text.casefold())):
        return ()  # the scan below is a long alternation tried at every character
    out: list[SpelledNumber] = []
    for run in grammar.run.finditer(text):
        tokens = _tokens(grammar, text, run.start(), run.end())
        at = 0
        while at < len(tokens):
            if tokens[at].kind == "joiner":
                at += 1
                continue
            reader, joined, first, last = _Reader(grammar.lists.units_first), False, at, at
            while at < len(tokens):
                token = tokens[at]
                if token.kind == "joiner" and grammar.lists.glued and at > first:
                    if text[tokens[at - 1].end : token.start]:
                        break  # "neunzehnhundertvierundneunzig und zweitausendsechs": two
                    joined = True
                elif token.kind == "joiner":
                    joined = True
                elif token.kind == "point" and not _digit_follows(tokens, at):
                    break  # "at this point": no decimal part
                elif reader.take(token, joined):
                    joined, last = False, at
                else:
                    break
                at += 1
            if reader.tokens == 0:
                at = max(at, first + 1)
                continue
            at = last + 1
            alone = reader.tokens == 1 and tokens[first].word in grammar.lists.not_alone
            if not alone:
                value, year = reader.number()
                out.append(SpelledNumber(tokens[first].start, tokens[last].end, value, year))
    return tuple(out)


def _digit_follows(tokens: list[_Token], at: int) -> bool:
    """Whether a word of one digit follows the token at ``at`` ("point five")."""
    after = tokens[at + 1] if at + 1 < len(tokens) else None
    return after is not None and after.kind == "small" and after.value < 10


def english_number_words() -> NumberWordLists:
    """English's ``[numbers]`` table (``data/en.toml``)."""
    english = lexicon("en")
    return english.numbers if english is not None else NumberWordLists()


def _english_spelled() -> Mapping[str, float]:
    english = lexicon("en")
    return english.spelled if english is not None else {}


WORD_NUMBERS: Mapping[str, float] = MappingProxyType(dict(_english_spelled()))
"""English's number words that are numbers by themselves ("three", "hundred"; not "one"),
from ``data/en.toml``: the edit generator writes a changed small count with them."""


@cache
def decade_words_pattern(code: str) -> re.Pattern[str] | None:
    """A decade in words of the language's ``[periods] decade_words`` ("the twenties", "die
    zwanziger Jahre"), after its ``decade_before`` where it has one ("les années vingt",
    "los años veinte"): groups ``lead``, ``word`` and ``glued`` (the rest of a joined word,
    "zwanzigerjahre"). None where the language lists no decade words."""
    words = section(code, "periods", PeriodWords)
    if not words.decade_words:
        return None
    ordered = sorted(words.decade_words, key=len, reverse=True)
    lead = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words.decade_before)
    lead = rf"(?P<lead>(?:{lead})\s+)" if lead else "(?P<lead>)"
    edge = rf"(?<![\w{MARKS}])"
    return re.compile(
        rf"{edge}{lead}(?P<word>{'|'.join(map(re.escape, ordered))})(?P<glued>[^\W\d_]*)",
        re.IGNORECASE,
    )
