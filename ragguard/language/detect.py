"""Which language a text is written in: its script, then, for Latin script, its function
words.

No model: a count of letters per script names every script that one language writes (or
mostly does: Devanagari is read as Hindi, Cyrillic as Russian). Latin-script text is scored
against each profile of ``lexicons.detection_profiles``: a function word counts 1, shared
by k profiles 1/k ("de" is Spanish and French), and a distinctive letter ("ß", "ñ", "ç")
0.75, at most 3 in all. The best profile wins only clearly (``MIN_SCORE``, ``MIN_LEAD``,
``MIN_UNOPPOSED``);
otherwise the answer is "und", so English text is never routed away on a guess.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import cache

from ragguard.language.scripts import script_of
from ragguard.language.sentences import CALENDAR_WORDS, starts_sentence
from ragguard.language.wordlists import detection_profiles
from ragguard.runtime import memoized

UNDETERMINED = "und"
MIN_SCORE = 1.5
"""Cue weight the winner needs: "Paris." or "100 km" says nothing."""
MIN_UNOPPOSED = 1.0
"""Cue weight enough when the runner-up scores less than 1/``WIDE_LEAD`` of it: one word
that only one language writes ("hat" in "Berlin hat 3,5 Millionen Einwohner.")."""
WIDE_LEAD = 2.0
MIN_LEAD = 1.5
"""How many times the runner-up's score the winner needs."""
LETTER_WEIGHT = 0.75
MAX_LETTER_BONUS = 3.0
READ_CHARS = 600
"""A text's first characters are enough to name its language (a hundred words or so);
long passages stop there, as detection runs on every span and passage."""
_CUE_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_ASCII_LETTER = re.compile(r"[A-Za-z]")
ENGLISH_CLITICS = frozenset(["s", "t", "re", "ll", "ve", "d", "m"])
"""What follows an apostrophe in English ("Lane's", "don't"): not a French elision."""
CLITIC_WEIGHT = 0.5
ENGLISH_SHARE = 0.75
"""An English cue that other languages share ("in", "was") counts this much for English
(at least), so that English wins short sentences; they count 1/k for the others."""


@cache
def _weights() -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """word -> {code: weight}, and distinctive letter -> code. English is favoured, since
    misreading English costs most (it would leave the model it reads best): an English cue
    counts at least ``ENGLISH_SHARE`` for English even where others share it ("in",
    "was"), and English words that other lists hold (``english_words``: "man", "van") are
    no cue of another language."""
    profiles = detection_profiles()
    english = {w for p in profiles if p.code == "en" for w in p.english_words}
    cues = {p.code: set(p.cues) if p.code == "en" else set(p.cues) - english for p in profiles}
    holders = Counter(w for words in cues.values() for w in words)
    weights: dict[str, dict[str, float]] = {}
    for code, words in cues.items():
        for word in words:
            share = 1.0 / holders[word]
            if code == "en":
                share = max(share, ENGLISH_SHARE)
            weights.setdefault(word, {})[code] = share
    letters = {char: p.code for p in profiles for char in p.letters}
    return weights, letters


@cache
def _content_cues() -> frozenset[str]:
    """Cue words that are no function words ("millionen", "tiene"): they count even
    capitalized inside a sentence, as German writes its nouns."""
    return frozenset(w for p in detection_profiles() for w in p.more_cues)


def _script(text: str) -> str:
    """The script with the most letters ("latin", a code of ``SCRIPT_RANGES``), "" if none."""
    if text.isascii():
        return "latin" if _ASCII_LETTER.search(text) else ""
    counts = Counter(script_of(c) for c in _NON_ASCII.findall(text))
    counts["latin"] += len(_ASCII_LETTER.findall(text))
    counts.pop("", None)
    if not counts:
        return ""
    if counts["han"] or counts["kana"]:
        kana, han = counts.pop("kana", 0), counts.pop("han", 0)
        counts["ja" if kana else "zh"] += kana + han
    return counts.most_common(1)[0][0]


def _surname_follows(text: str, end: int) -> bool:
    """Whether a capitalized word follows the one ending at ``end`` after one space."""
    return text[end : end + 1] == " " and text[end + 1 : end + 2].isupper()


def _latin_language(text: str) -> str:
    weights, letters = _weights()
    content = _content_cues()
    scores: defaultdict[str, float] = defaultdict(float)
    bonus: defaultdict[str, float] = defaultdict(float)
    for match in _CUE_WORD.finditer(text):
        word = match.group()
        lower = word.lower()
        plain = word.isascii()
        if plain and "'" not in word and lower not in weights:
            continue  # most words: no cue, no letter
        named = word[0].isupper() and not starts_sentence(text, match.start(), through_marks=True)
        if named and lower not in content:
            continue  # a name inside a sentence ("Van Zant", "La Seine"): no cue
        if word[0].isupper() and lower in CALENDAR_WORDS and _surname_follows(text, match.end()):
            continue  # a month or weekday as a first name ("May Chen a construit"): no cue
        head, _, tail = lower.replace("’", "'").partition("'")
        if len(head) == 1 and not tail:
            continue  # "U.S.", "D-Day": an initial, no word (elided "l'", "d'" count)
        if tail in ENGLISH_CLITICS:
            scores["en"] += CLITIC_WEIGHT
            tail = ""
        for part in (head, tail) if tail else (head,):
            for code, weight in weights.get(part, {}).items():
                scores[code] += weight
        if not plain and not named:  # "Bolívar", "Müller": a name's letters
            for char in lower:
                if char in letters:
                    bonus[letters[char]] += LETTER_WEIGHT
    for code, extra in bonus.items():
        scores[code] += min(extra, MAX_LETTER_BONUS)
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)[:2]
    if not ranked:
        return UNDETERMINED
    best, second = ranked[0][1], (ranked[1][1] if len(ranked) > 1 else 0.0)
    clear = best >= MIN_SCORE and best >= MIN_LEAD * second
    if clear or (best >= MIN_UNOPPOSED and best >= WIDE_LEAD * second):
        return ranked[0][0]
    return UNDETERMINED


@memoized(entries=65_536)
def detect(text: str) -> str:
    """The ISO 639-1 code of the text's language: "en", "de", "es", "fr", "hi" (and "it",
    "pt", "nl" by their function words; "ru", "ar", "zh", "ja", "ko", "el", "he", "th" and
    others by their script); "und" when the text gives too little to tell (empty, numbers,
    a lone name, a tie)."""
    head = text[:READ_CHARS]
    script = _script(head)
    if not script:
        return UNDETERMINED
    if script != "latin":
        return script
    if not any(map(str.islower, head)):  # all in capitals: each word would read as a name
        head = head.lower()
    return _latin_language(head)
