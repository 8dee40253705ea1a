"""A short claim that says what kind of thing a name is ("Tamil Nadu is a composer.") against
a passage that says that kind of another name, its subject ("Harris Jayaraj (born 1975) is an
Indian film composer from Chennai, Tamil Nadu."). The slot rules (``entities``) read such a
claim by its other content words, and it has one.

Read only where the claim is that sentence and nothing else: a name, a copula of the
language's ``[name_frames] copulas``, an article of ``describing`` and at most
``MAX_CLASS_WORDS`` words, none a function word. Nothing fires where a sentence says the
class of the claim's name: it is in the subject ("Ivan Cary Elwes, known as Cary Elwes, is
an English actor"), right after the class ("by country music artist Eric Church"), or in a
clause of its own after the class ("... a convicted murderer who was a member of the Manson
Family"). A language without copulas listed (Hindi, whose verb closes the sentence) reads
none.
"""

from __future__ import annotations

import re
from functools import cache

from ragguard.language import NameFrameWords, lexicon, section
from ragguard.scoring.checks.antecedents import class_after_copula, determiners
from ragguard.scoring.checks.proper_names import name_keys
from ragguard.scoring.checks.slots import Slot
from ragguard.scoring.checks.words import has_ending
from ragguard.scoring.lexical.text import stem_in, stopwords_of

MAX_CLASS_WORDS = 3
"""Words the claim's class may run to ("a composer", "an American film director", "a
plus-size model")."""


def class_rival(slot: Slot, own: frozenset[str]) -> str | None:
    """The subject of the first passage sentence that gives the claim's class to another
    name, where no sentence gives it to the claim's name; None otherwise."""
    claim, language = slot.claim, slot.claim.language
    head = _claimed_class(claim.text, slot.value, language)
    if head is None:
        return None
    found = None
    for reading in slot.readings:
        parts = _class_parts(reading.sentence.text, language)
        if parts is None:
            continue
        subject, kind, rest = parts
        if head not in {stem_in(language, w) for w in _words(kind)} or _passive(kind, language):
            continue
        if own & name_keys(subject) or _right_after(kind, head, slot.value, language):
            return None  # the passage gives the class to the claim's name
        if own & frozenset().union(*(name_keys(w) for w in _words(rest))):
            return None  # a clause of its own may say what the name is
        lead = subject.lstrip()
        rival = next((r for r in reading.rivals if lead.startswith(r)), None)
        if found is None and rival is not None and not own & name_keys(rival):
            found = rival
    return found


def _claimed_class(text: str, name: str, language: str) -> str | None:
    """The stem of the class noun of a claim "<name> <copula> <article> <class>.", else None."""
    at = text.find(name)
    before = text[:at].split()
    if at < 0 or len(before) > 1 or (before and before[0].lower() not in determiners(language)):
        return None
    kind = class_after_copula(_words(text[at + len(name) :]), language)
    if not kind:
        return None
    stops = stopwords_of(language)
    if len(kind) > MAX_CLASS_WORDS or any(
        w in stops or not w.replace("-", "").isalpha() for w in kind
    ):
        return None
    return stem_in(language, kind[-1])


def _class_parts(text: str, language: str) -> tuple[str, str, str] | None:
    """A sentence split at its first copula: the subject before it, the class after it up to
    a relative word or a stop, and the rest."""
    found = _copula(language).search(text)
    if found is None:
        return None
    subject, after = text[: found.start()], text[found.end() :]
    stop = _class_end(language).search(after)
    cut = stop.start() if stop else len(after)
    return subject, after[:cut], after[cut:]


def _passive(kind: str, language: str) -> bool:
    """Whether the copula opens a passive or a progressive ("was interviewed by NPR about
    plus-size modeling"): a participle follows it (``participle_endings``, with three
    letters before the ending: "king" and "red" are nouns), no class."""
    endings = section(language, "name_frames", NameFrameWords).participle_endings
    first = _words(kind)[:1]
    return bool(first) and has_ending(first[0], endings)


def _right_after(kind: str, head: str, name: str, language: str) -> bool:
    """Whether the name stands right after the class noun ("artist Eric Church")."""
    return any(
        stem_in(language, word.group().lower()) == head
        and kind[word.end() :].lstrip().startswith(name)
        for word in re.finditer(r"\w+", kind)
    )


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[\w'’-]+", text)]


@cache
def _copula(language: str) -> re.Pattern[str]:
    """Asked only where ``_claimed_class`` read a copula, so the list is never empty."""
    copulas = section(language, "name_frames", NameFrameWords).copulas
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, copulas))})\b")


@cache
def _class_end(language: str) -> re.Pattern[str]:
    found = lexicon(language)
    relatives = found.clauses.get("relatives", ()) if found is not None else ()
    words = "".join(rf"|\b{re.escape(w)}\b" for w in relatives)
    return re.compile(rf"[.;:]{words}", re.IGNORECASE)
