"""Words of a claim or passage as the checks read them, and the words around a value."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable

from ragguard.runtime import memoized
from ragguard.schema import edit_distance
from ragguard.scoring.lexical.text import ANY_SCRIPT_TOKEN, stem, stem_in
from ragguard.scoring.lexical.vocabulary import STOPWORDS

WORD = re.compile(r"[^\W\d_]++(?=['’]s\b)|[^\W\d_]+(?:['’][^\W\d_]+)?|\d+(?:[.,]\d+)*")
"""A word ("Paris", "don't"; the "s" of a possessive apart) or a number ("8,849"). The
possessive ``++`` gives up a word at once where no "'s" follows it: no shorter run of its
letters is followed by one either, so reading it back letter by letter found nothing."""
WORD_OR_MARK = re.compile(WORD.pattern + r"|[^\w\s]")
NAME_TOKEN = re.compile(
    r"\b[A-Z]\.|\b(?:[a-zà-ÿ]{1,5}+|[LDJMNST]|Qu)['’](?=[A-ZÀ-Þ])|" + WORD_OR_MARK.pattern
)
"""Words and marks, with an initial and its dot as one word ("J. Smith", "U.S.") and an
elided word apart from the name it opens ("d'" of "d'Anna Brandt", "qu'" of "qu'Émile", "L'"
of "L'Arvenia" opening a sentence; not the "O'" of "O'Brien")."""


@memoized(entries=65_536)
def two_words_before(text: str, surface: str) -> tuple[str, ...]:
    """The two words before ``surface`` in ``text`` (empty when it is not there), less a
    currency or number sign ("income of $ 87,894")."""
    at = text.find(surface)
    if at < 0:
        return ()
    width = 48
    while True:  # read back only as far as three words: a long passage is parsed per value
        start = max(at - width, 0)
        before = [w.lower() for w in WORD_OR_MARK.findall(text, start, at) if w not in "$#£€"]
        if len(before) > 2 or start == 0:  # the first word read may be cut: never returned
            return tuple(before[-2:])
        width *= 2


def two_words_after(
    text: str, surface: str, skipped: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The two words after ``surface`` in ``text`` (empty when it is not there), past numbers
    and ``skipped`` words (a date's month): what a value is of in a language that puts the
    verb after it ("1838 में बंद हुआ", "am 3. März 1881 geboren")."""
    at = text.find(surface)
    if at < 0:
        return ()
    end = at + len(surface)
    after = (w.lower() for w in ANY_SCRIPT_TOKEN.findall(text, end, end + 64))
    return tuple(w for w in after if not w[:1].isdigit() and w not in skipped)[:2]


NEAREST_WINDOW = 48
"""Characters read on each side of a value for the words that tell what it is of."""
NEAREST_WORDS = 3
"""Content words read on each side: two tell what a value is of, a third tells two names
apart that end alike ("American Basketball Association", "National Basketball
Association")."""
_CLAUSE_MARK = re.compile(r"[,;:.!?()\[\]\"“”«»]|\s[-–—]+\s")


def nearest_words(text: str, value: str, stop: frozenset[str], after: bool) -> tuple[str, ...]:
    """The content words nearest ``value`` on one side (up to ``NEAREST_WORDS``), past
    function words, with no mark or other number between ("la course Brisac de 1978" gives
    "brisac course"; "the 2011 Giro d'Italia with" gives "giro italia"): what the value is
    of, as the text writes it. Fewer where a mark or a number comes first ("grew 5% in 2020
    and 7%": 7% is told by nothing)."""
    at = text.find(value)
    if at < 0:
        return ()
    if after:
        side = text[at + len(value) : at + len(value) + NEAREST_WINDOW]
        mark = _CLAUSE_MARK.search(side)
        side = side[: mark.start()] if mark else side
    else:
        side = text[max(at - NEAREST_WINDOW, 0) : at]
        marks = list(_CLAUSE_MARK.finditer(side))
        side = side[marks[-1].end() :] if marks else side
    tokens = [w.lower() for w in ANY_SCRIPT_TOKEN.findall(side)]
    found: list[str] = []
    for token in tokens if after else reversed(tokens):
        if token[:1].isdigit() or len(found) == NEAREST_WORDS:
            break
        if token not in stop:
            found.append(token)
    return tuple(found)


def told_alike(
    claim: str,
    value: str,
    written: Iterable[tuple[str, str]],
    stop: frozenset[str],
    after_only: bool = False,
) -> bool:
    """Whether the content words nearest the claim's value on one side (``nearest_words``),
    two at least, stand beside it in one of the passage's ``written`` places (a sentence,
    and the value as it writes it) too, as far as both sides read: the passage writes the
    value of the same thing, whatever else its sentence says ("won the 2011 Giro d'Italia"
    against "won the 2010 Tour de France ..., and the 2011 Giro d'Italia").
    ``after_only`` where the words before a value are its sentence's subject (Hindi "पुल
    1862 में बना")."""
    claimed = [(side, nearest_words(claim, value, stop, side)) for side in (False, True)]
    claimed = [(side, words) for side, words in claimed if len(words) >= 2]
    if after_only:
        claimed = [(side, words) for side, words in claimed if side]
    return any(
        same_neighbours(words, nearest_words(text, form, stop, side))
        for text, form in written
        for side, words in claimed
    )


def same_neighbours(ours: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether two values' nearest words (``nearest_words``) agree, two at least, as far as
    both sides read."""
    shared = min(len(ours), len(theirs))
    return shared >= 2 and ours[:shared] == theirs[:shared]


def first_words(text: str, count: int) -> list[str]:
    """The first ``count`` words (``WORD``) of ``text``, read no further."""
    return [m.group() for m in itertools.islice(WORD.finditer(text), count)]


def words_before(text: str, at: int, count: int) -> list[str]:
    """The last ``count`` words (``WORD``) of ``text[:at]`` (``at`` as a slice end), read back
    from ``at`` only as far as needed: every value of a claim asks, so reading the whole
    prefix each time would make a long claim quadratic. The first word a window reads may be
    cut; it is returned only when the window starts at the text's start."""
    at = at if at >= 0 else max(len(text) + at, 0)
    width = 64
    while True:
        start = max(at - width, 0)
        found = WORD.findall(text, start, at)
        if len(found) > count or start == 0:
            return found[-count:] if count else []
        width *= 4


@memoized(entries=65_536)
def unit_after(text: str, surface: str) -> str:
    """The stemmed content word right after ``surface`` in ``text``: a number's unit ("57
    elevators" -> "elevator"); empty when a function word or nothing follows."""
    return _unit(_words_after(text, surface, 40))


def _words_after(text: str, surface: str, width: int) -> list[str]:
    """The words in the ``width`` characters after ``surface`` in ``text``."""
    at = text.find(surface)
    return WORD.findall(text[at + len(surface) : at + len(surface) + width]) if at >= 0 else []


def _unit(after: list[str]) -> str:
    return stem(after[0].lower()) if after and after[0].lower() not in STOPWORDS else ""


def units_after(text: str, surface: str) -> frozenset[str]:
    """The unit after a number (``unit_after``) and, where a name stands between ("four
    Buffalo Soldiers", "nine Filmfare nominations"), the name's words and the word after."""
    return _units(_words_after(text, surface, 60))


def _units(after: list[str]) -> frozenset[str]:
    first = _unit(after)
    if not first:
        return frozenset()
    found = {first}
    if after[0][:1].isupper():
        for word in after[1:3]:
            if word.lower() in STOPWORDS or word[:1].isdigit():
                break
            found.add(stem(word.lower()))
            if not word[:1].isupper():
                break
    return frozenset(found)


def counts_unit(text: str, surface: str, unit: str) -> bool:
    """Whether ``surface`` in ``text`` is a number of ``unit``: the word right after it, or
    one of a list it opens ("its seventh and final season" counts seasons)."""
    after = _words_after(text, surface, 60)
    if after and after[0] in ("and", "or"):
        return unit in {stem(w.lower()) for w in after[1:4]}
    return unit in _units(after)


@memoized(entries=16_384)
def lower_case_words(text: str) -> frozenset[str]:
    """The words ``text`` writes in lower case ("bridge" of "the longest bridge")."""
    return frozenset(w for w in WORD.findall(text) if w.islower())


def lower_content(text: str) -> frozenset[str]:
    """Stemmed content words written in lower case: what a clause says, not whom about
    (names, a sentence's capitalized first word and numbers are left out)."""
    return frozenset(stem(w) for w in WORD.findall(text) if w.islower() and w not in STOPWORDS)


def misspelt(first: str, second: str) -> bool:
    """Whether two words of three letters or more are one edit apart (a letter changed,
    added, dropped or two swapped: "Eliat" and "Eilat", "FFA" and "FAA"): one name
    misspelt, not two names. Two acronyms are one only by a swap: each letter of one
    stands for a word, so "GDP" and "GWP", "NSA" and "NASA" are two names."""
    a, b = first.lower(), second.lower()
    if min(len(a), len(b)) < 3 or edit_distance(a, b) != 1:
        return False
    acronyms = first.isupper() and second.isupper() and first.isalpha() and second.isalpha()
    return not acronyms or sorted(a) == sorted(b)


def written_two_ways(first: str, second: str) -> bool:
    """Whether two names are one name: misspelt (``misspelt``), or of as many words, one of
    them the same in both and each other in another inflection ("Girl Scouts", "Girl
    Scouting"; ``one_stem``). A name of one word may be another's root ("Austria",
    "Australia"), so one word alone is never inflected."""
    if misspelt(first, second):
        return True
    mine, theirs = first.lower().split(), second.lower().split()
    if len(mine) < 2 or len(mine) != len(theirs) or not set(mine) & set(theirs):
        return False
    return all(one_stem(a, b) for a, b in zip(mine, theirs, strict=True))


def has_ending(word: str, endings: tuple[str, ...] | frozenset[str]) -> bool:
    """Whether the word ends with one of ``endings`` and keeps three letters or more before
    it ("tallest" of "-est", "built" not of "-t"): a form, not a short word that happens to
    end so."""
    return any(word.endswith(end) and len(word) > len(end) + 2 for end in endings)


def one_stem(first: str, second: str, at_least: int = 4) -> bool:
    """Whether two words are one stem in two inflections: the same word, or sharing all but
    the last two letters of the shorter, and at least ``at_least`` ("busier", "busiest";
    "fréquentée", "fréquentées"; "bacteria", "bacterium")."""
    if first == second:
        return True
    shared = next(
        (i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
        min(len(first), len(second)),
    )
    return shared >= max(at_least, min(len(first), len(second)) - 2)


def unmarked(word: str) -> str:
    """``word`` without its combining marks ("älteste" -> "alteste", "possédait" ->
    "possedait"): one stem written with and without an accent."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


OBJECT_WORDS = 3
"""Content words after a function word read as what it governs."""


def objects_after(
    words: tuple[str, ...], word: str, stops: frozenset[str], language: str
) -> set[str]:
    """The stems of the first ``OBJECT_WORDS`` content words after each place ``words``
    holds ``word``: what a preposition there governs ("after three days": "three", "day")."""
    found: set[str] = set()
    for at, written in enumerate(words):
        if written == word:
            after = [w for w in words[at + 1 :] if w not in stops][:OBJECT_WORDS]
            found.update(stem_in(language, w) for w in after)
    return found
