"""A ranking that puts another thing of its kind first: "Lake Tessel is the largest lake in
Latvia after Lake Vorna", "Nach dem Vorna-See ist der Tessel-See der größte See", "वोर्ना
झील के बाद टेसल झील सबसे बड़ी झील है". Its subject is second: the sentence does not state
that Lake Tessel is the largest lake, it states that Lake Tessel is the second largest and
that Lake Vorna is the largest.

A runner-up word (each language's ``[superlatives] runner_up``: "after", "nach", "après",
"después de", "के बाद") counts only with a word of the ranked kind beside it ("after Lake
Vorna" beside "the largest lake"): "after the war, it was the largest lake" puts no lake
first. The superlative check (``superlatives``) asks this module.
"""

from __future__ import annotations

import re
from functools import cache

from ragguard.language import SuperlativeCues, lexicon_or_fallback
from ragguard.scoring.checks.parse import Sentence
from ragguard.scoring.checks.rankings import ranked_nouns, rankings, same_ranking
from ragguard.scoring.lexical.text import ANY_SCRIPT_TOKEN, stem_in

RUNNER_UP_REACH = 3
"""Words a runner-up word may stand from the thing it names: "after the Orlen Bridge",
"après le lac Vorna"."""
SECOND = 2


def second_to_another(
    sentence: Sentence, key: tuple[str, ...], subject: frozenset[str], cues: SuperlativeCues
) -> str | None:
    """The sentence's ranking of ``key`` with the runner-up phrase that puts another thing
    than ``subject`` (the words naming what a claim ranks) first ("largest after lake
    vorna"); None where the sentence has none, or where ``subject`` is the thing put first."""
    stop = lexicon_or_fallback(sentence.language).stopwords
    parts = {p for w in subject for p in w.split("-")}
    for phrase, its in rankings(sentence.words, cues, stop):
        if not same_ranking(its, key, cues):
            continue
        found = _runner_up(sentence, phrase, its, cues)
        if found is not None and not parts & found[1]:
            return f"{phrase} {found[0]}"
    return None


def _runner_up(
    sentence: Sentence, phrase: str, key: tuple[str, ...], cues: SuperlativeCues
) -> tuple[str, frozenset[str]] | None:
    """The runner-up phrase beside a word the ranking ``phrase`` ranks, within its clause
    ("after the war, Lake Tessel was the largest lake" names no lake after "after"), and the
    other words of the thing it names ("after lake vorna", {"vorna"}); None where there is
    none."""
    language = sentence.language
    written = [r for r in cues.runner_up if set(r.split()) <= sentence.word_set]
    nouns = ranked_nouns(sentence.words, phrase, key, cues, language) if written else None
    if not nouns:
        return None
    stop = lexicon_or_fallback(language).stopwords
    text = sentence.text.lower()
    for item in written:
        for match in _pattern(item, cues.among_follows).finditer(text):
            named = [w.lower() for w in ANY_SCRIPT_TOKEN.findall(match.group("named"))]
            named = named[-RUNNER_UP_REACH:] if cues.among_follows else named[:RUNNER_UP_REACH]
            if not {stem_in(language, w) for w in named} & nouns:
                continue
            others = frozenset(
                w for w in named if w not in stop and stem_in(language, w) not in nouns
            )
            said = [*named, item] if cues.among_follows else [item, *named]
            return " ".join(said), others
    return None


@cache
def _pattern(item: str, follows: bool) -> re.Pattern[str]:
    """A runner-up phrase with the words of its clause on the side of the thing it names."""
    written = r"\s+".join(map(re.escape, item.split()))
    if follows:
        return re.compile(rf"(?P<named>[^,;:.।]*?)(?<!\S){written}(?!\S)")
    return re.compile(rf"(?<!\w){written}(?!\w)(?P<named>[^,;:.।]*)")
