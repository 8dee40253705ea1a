"""Names in any case: a claim written all in lower case or all in capitals, or with a name
typed in lower case ("The Eiffel Tower is in berlin."), is read with its names capitalized,
so the entity check, which finds names by their capitals, reads them.

Two rules, both read off the passage: in a claim without capitals, a word the passage
writes capitalized inside a name takes the passage's writing ("eiffel tower" -> "Eiffel
Tower"); in any claim, a word the passage never writes, in the place where the passage
writes a name (after the same word of the language's ``[names]`` ``lower_case_after``:
"in paris" -> "in berlin"), closing its phrase and without a common noun's ending ("in
movies", "in activism"), is capitalized. A claim with no lower-case letter is read in lower
case first, so that its capitals mark nothing.
"""

from __future__ import annotations

import re

from ragguard.language import lexicon
from ragguard.runtime import memoized
from ragguard.scoring.checks.numbers import quantities
from ragguard.scoring.checks.parse import parse, parse_passage
from ragguard.scoring.checks.words import WORD, one_stem
from ragguard.scoring.lexical.text import stem_in, stopwords_of

_PHRASE_END = re.compile(r"\s*(?:[,.;:!?)]|$|\s(?:and|und|et|y|or)\b)")
"""What closes a name's phrase after it: a mark, the end, or a conjunction ("in berlin and
I love it"); "in good condition" is no name ("good" does not close the phrase). A number or
the lead word of another name's phrase closes it too (``_closes_phrase``)."""
MIN_CAPITALS_WORDS = 3
"""Words a claim in capitals needs to be read as shouting, not as an acronym ("NASA")."""


@memoized(entries=16_384)
def _name_words(
    passage: str, language: str
) -> tuple[dict[str, str], frozenset[str], frozenset[str], frozenset[str]]:
    """The passage's name words by their lower case (as written), the words written right
    before a name ("in" of "in Paris"), every word of the passage (lower case), and the
    words written right after a name ("started" of "Mira Chandra started")."""
    written: dict[str, str] = {}
    before: set[str] = set()
    following: set[str] = set()
    sentences = parse_passage(passage, language)
    found = lexicon(language)
    after = found.lower_case_after if found is not None else frozenset()
    for s in sentences:
        for name in s.names:
            for word in WORD.findall(name):
                if word[:1].isupper():
                    written.setdefault(word.lower(), word)
            previous, next_word = _beside(s.text, name)
            before.update(p for p in previous if p in after)
            following.update(next_word)
    words = frozenset().union(*(s.word_set for s in sentences))
    return written, frozenset(before), words, frozenset(following)


@memoized(entries=16_384)
def _claim_words(
    claim: str, language: str
) -> tuple[str, bool, tuple[tuple[int, int, str, str], ...]] | None:
    """What of ``claim`` may take a capital, read once per claim whatever the passage: the
    claim as read (in lower case when it shouts), whether it writes no capital at all, and
    its candidate words (start, end, text, the word before in lower case): in a caseless
    claim every lower-case word that is no stopword or pronoun ("by someone"), else only one
    written after a word of ``lower_case_after``. None: no word in lower case, nothing to recase."""
    words = list(WORD.finditer(claim))
    shouting = len(words) >= MIN_CAPITALS_WORDS and (
        not any(map(str.islower, claim))
        or all(w.group()[:1].isupper() for w in words if not w.group()[:1].isdigit())
    )
    if shouting and len(claim.lower()) == len(claim):
        claim = claim.lower()
        words = list(WORD.finditer(claim))
    elif not any(w.group()[:1].islower() for w in words):
        return None
    caseless = not any(w.group()[:1].isupper() for w in words)
    found = lexicon(language)
    stop = stopwords_of(language) | (found.indefinites if found is not None else frozenset())
    after = found.lower_case_after if found is not None else frozenset()
    candidates = []
    for index, word in enumerate(words):
        text = word.group()
        if not text[:1].islower() or text.lower() in stop:
            continue
        previous = words[index - 1].group().lower() if index > 0 else ""
        if caseless or previous in after:
            candidates.append((word.start(), word.end(), text, previous))
    return claim, caseless, tuple(candidates)


def _opening_name(
    claim: str,
    candidates: tuple[tuple[int, int, str, str], ...],
    passage_words: frozenset[str],
    following: frozenset[str],
) -> frozenset[int]:
    """The starts of the words that open a caseless ``claim`` as a name: none of them
    written in the passage, and the word after them one the passage writes right after a
    name (the subject's place: "lukas weber started" against "Mira Chandra started")."""
    run: list[tuple[int, int]] = []
    for start, end, text, _ in candidates:
        if start != (run[-1][1] + 1 if run else 0) or text.lower() in passage_words:
            break
        run.append((start, end))
    if not run:
        return frozenset()
    after = WORD.match(claim, run[-1][1] + 1)
    if after is None or after.group().lower() not in following:
        return frozenset()
    return frozenset(start for start, _ in run)


def recased(claim: str, passage: str, language: str) -> str:
    """``claim`` with the names it writes in lower case capitalized by the ``passage``'s
    (the module docstring's rules); unchanged when it needs none."""
    view = _claim_words(claim, language)
    if view is None:
        return claim
    claim, caseless, candidates = view
    out = list(claim)
    if candidates:
        written, before, passage_words, following = _name_words(passage, language)
        opening = (
            _opening_name(claim, candidates, passage_words, following) if caseless else frozenset()
        )
        found = lexicon(language)
        common = found.common_endings if found is not None else ()
        # in a claim of one case, a number or another lead closes a name's phrase too
        leads = found.lower_case_after if caseless and found is not None else frozenset()
        if caseless and found is not None:  # no capital anywhere: "in paris" may be a name
            common = tuple(e for e in common if e not in found.plural_endings)
        # a number in words is no name ("en mil ochocientos sesenta y seis")
        stop = stopwords_of(language) | {
            w.lower() for q in quantities(claim, language) for w in WORD.findall(q.text)
        }
        for start, end, text, previous in candidates:
            lower = text.lower()
            name = written.get(lower) if caseless else None
            if name is not None or start in opening:
                name = name or text[:1].upper() + text[1:]
            elif (
                previous in before  # the cheap tests first: most words follow no lead
                and lower not in passage_words
                and lower not in stop
                and not any(one_stem(lower, w, INFLECTION_STEM) for w in passage_words)
                and (
                    not lower.endswith(common)
                    or _in_a_name_slot(claim, lower, previous, passage, language)
                )
            ):
                # a previous in ``before`` (a subset of ``lower_case_after``) leads a name
                # of up to three words the passage never writes ("by mira chandra.")
                rest = _name_run(claim, end, passage_words, stop, leads)
                for a, b in rest:
                    out[a:b] = claim[a].upper() + claim[a + 1 : b]
                if rest or _closes_phrase(claim, end, leads):
                    name = text[:1].upper() + text[1:]
            if name is not None and len(name) == len(text):
                out[start:end] = name
    if out and out[0].islower():
        out[0] = out[0].upper()  # a sentence's first word, as the name reader expects it
    return "".join(out)


SLOT_ANCHOR = 0.75
"""Share of the claim's other content words a passage sentence must hold for a word after
the lead word of one of its names to stand in that name's place."""


def _in_a_name_slot(claim: str, word: str, lead: str, passage: str, language: str) -> bool:
    """Whether ``word``, after ``lead``, stands where a sentence about the same thing writes
    a name after the same lead, closing its phrase: then an ending of a common noun does
    not make it one ("in paris", "en atenas" against "in London", "en Roma"; "in movies"
    against "in American comic books" is no name)."""
    read, stop = parse(claim, language), stopwords_of(language)
    other = read.content - {stem_in(language, word)}
    if not other:
        return False
    for sentence in parse_passage(passage, language):
        if len(other & sentence.content) < SLOT_ANCHOR * len(other):
            continue
        for name in sentence.names:
            previous, following = _beside(sentence.text, name)
            attributive = following and following[0] not in stop  # "American comic books"
            if previous == [lead] and not attributive:
                return True
    return False


def _beside(text: str, name: str) -> tuple[list[str], list[str]]:
    """The word right before the first ``name`` of ``text`` and the one right after it, in
    lower case (an empty list where there is none)."""
    at = text.find(name)
    previous = WORD.findall(text, 0, at)[-1:] if at > 0 else []
    following = WORD.findall(text, at + len(name))[:1]
    return [w.lower() for w in previous], [w.lower() for w in following]


INFLECTION_STEM = 6
"""Letters a word must share from its start with a passage word (``one_stem``) to be read
as that word in another inflection ("bacteria" of "bacterium", "criteria" of "criterion"):
a common noun the passage writes, not a name it never writes ("athens" is no "athenian")."""


_NEXT_WORD = re.compile(r"\s+(" + WORD.pattern + ")")


def _name_run(
    claim: str,
    end: int,
    passage_words: frozenset[str],
    stop: frozenset[str],
    leads: frozenset[str],
) -> list[tuple[int, int]]:
    """The one or two words after a name's first word (ending at ``end``) that go on with
    it to the end of its phrase ("mira chandra." of "by mira chandra."), none of them a word
    the passage writes or a stop word; none when the phrase does not end there."""
    run: list[tuple[int, int]] = []
    at = end
    for _ in range(2):
        if run and _closes_phrase(claim, at, leads):
            return run
        word = _NEXT_WORD.match(claim, at)
        if word is None:
            return []
        text = word.group(1)
        if not text[:1].islower() or text.lower() in passage_words or text.lower() in stop:
            return []
        run.append(word.span(1))
        at = word.end()
    return run if _closes_phrase(claim, at, leads) else []


def _closes_phrase(claim: str, at: int, leads: frozenset[str]) -> bool:
    """Whether the phrase of a name ending at ``at`` ends there: ``_PHRASE_END``, or, given
    ``leads`` (the language's ``lower_case_after``, for a claim written in one case), a
    number or a lead comes next ("in gdansk in 1994", "à gdansk en 1994"; "in good
    condition" goes on; "in control in Khartoum" has capitals and is read as written)."""
    if _PHRASE_END.match(claim, at):
        return True
    if not leads:
        return False
    word = _NEXT_WORD.match(claim, at)
    return word is not None and (word.group(1).lower() in leads or word.group(1)[0].isdigit())
