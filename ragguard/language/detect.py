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

from ragguard.caches import memoized
from ragguard.language.lexicons import detection_profiles
from ragguard.language.scripts import script_of

UNDETERMINED = "und"
MIN_SCORE = 1.5
"""Cue weight the winner needs: "Paris." or "100 km" says nothing."""
MIN_UNOPPOSED = 1.0
"""Cue weight enough when no other profile scores at all: one word that only one language
writes ("hat" in "Berlin hat 3,5 Millionen Einwohner.")."""
MIN_LEAD = 1.5
"""How many times the runner-up's score the winner needs."""
LETTER_WEIGHT = 0.75
MAX_LETTER_BONUS = 3.0
READ_CHARS = 2_000
"""A text's first characters are enough to name its language; long passages stop there."""
_CUE_WORD = re.compile(r"[^\W\d_]+(?:n't)?")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@cache
def _weights() -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """word -> {code: weight}, and distinctive letter -> code."""
    profiles = detection_profiles()
    holders = Counter(w for p in profiles for w in set(p.cues))
    weights: dict[str, dict[str, float]] = {}
    for profile in profiles:
        for word in set(profile.cues):
            weights.setdefault(word, {})[profile.code] = 1.0 / holders[word]
    letters = {char: p.code for p in profiles for char in p.letters}
    return weights, letters


def _script(text: str) -> str:
    """The script with the most letters ("latin", a code of ``SCRIPT_RANGES``), "" if none."""
    latin = sum(c.isalpha() for c in text) if text.isascii() else 0
    if text.isascii():
        return "latin" if latin else ""
    counts = Counter(script_of(c) for c in _NON_ASCII.findall(text))
    counts["latin"] += sum(c.isascii() and c.isalpha() for c in text)
    counts.pop("", None)
    if not counts:
        return ""
    if counts["han"] or counts["kana"]:
        kana, han = counts.pop("kana", 0), counts.pop("han", 0)
        counts["ja" if kana else "zh"] += kana + han
    return counts.most_common(1)[0][0]


def _latin_language(text: str) -> str:
    weights, letters = _weights()
    scores: defaultdict[str, float] = defaultdict(float)
    for word in _CUE_WORD.findall(text.lower()):
        for code, weight in weights.get(word, {}).items():
            scores[code] += weight
    bonus: defaultdict[str, float] = defaultdict(float)
    for char in _NON_ASCII.findall(text.lower()):
        if char in letters:
            bonus[letters[char]] += LETTER_WEIGHT
    for code, extra in bonus.items():
        scores[code] += min(extra, MAX_LETTER_BONUS)
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)[:2]
    unopposed = len(ranked) == 1 and ranked[0][1] >= MIN_UNOPPOSED
    if not ranked or (ranked[0][1] < MIN_SCORE and not unopposed):
        return UNDETERMINED
    if len(ranked) > 1 and ranked[0][1] < MIN_LEAD * ranked[1][1]:
        return UNDETERMINED
    return ranked[0][0]


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
    return _latin_language(head)
