"""A bare yes or no, read as the statement its yes/no question makes of it.

"Yes." answering "Is the Kellan Bridge the longest bridge in Riga?" claims "The Kellan
Bridge is the longest bridge in Riga."; "No." claims "The Kellan Bridge is not the longest
bridge in Riga.". Read alone, "Yes." states nothing a passage could support, so a right
answer was flagged for low support, and "No." read as a negation of the whole passage.

The language's ``[polar]`` table gives the words: ``yes`` and ``no``; the verbs that open
such a question (``verbs``: "is", "did", "ist", "es") or the words that open it and are
dropped (``openers``: Hindi "क्या", French "est-ce que"); the subject pronouns a French
question repeats after its verb (``inverted``: "est-il"); and how a denial is written about
the verb (``denial``: "{} not", "no {}", "ne {} pas", with ``denial_elided`` before a vowel:
"n'{} pas"). Where the verb stands last (``verb_last``: Hindi), the denial goes before the
sentence's last word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragguard.language import section
from ragguard.scoring.checks.answers import question_words
from ragguard.scoring.checks.antecedents import determiners

_WORD = re.compile(r"[^\s,;:.!?。।¿¡]+")


@dataclass(frozen=True, slots=True)
class PolarWords:
    """A language's ``[polar]`` table (see the module docstring)."""

    yes: tuple[str, ...] = ()
    no: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    openers: tuple[str, ...] = ()
    inverted: tuple[str, ...] = ()
    tails: tuple[str, ...] = ()
    """Words that may follow the yes or no and add nothing ("Yes, it is.", "No, it did not.")."""
    denial: str = ""
    denial_elided: str = ""
    verb_last: bool = False


MAX_SUBJECT_WORDS = 5
"""Words a yes/no question's subject may take after its verb ("the Kellan Bridge")."""


def polar_reading(question: str, answer: str, language: str = "en") -> str | None:
    """The statement a bare yes or no makes of its yes/no question; None when the answer is
    more than a yes or no or the question is no yes/no question the language's ``[polar]``
    table reads."""
    words = section(language, "polar", PolarWords)
    replied = [w.lower() for w in _WORD.findall(answer)]
    if not replied or not words.denial:
        return None
    yes = _reply(replied, words.yes, words)
    no = _reply(replied, words.no, words)
    if yes == no:
        return None
    statement = _statement(question, language, words)
    if statement is None:
        return None
    subject_and_verb, verb, rest = statement
    if yes:
        said = [*subject_and_verb, verb, *rest]
    else:
        template = words.denial_elided if verb[:1].lower() in "aeiouéèê" else ""
        said = [*subject_and_verb, (template or words.denial).format(verb), *rest]
    text = " ".join(w for w in said if w)
    return text[:1].upper() + text[1:] + "."


def _reply(replied: list[str], of: tuple[str, ...], words: PolarWords) -> bool:
    """Whether the answer is one of ``of`` and, after it, only ``tails`` words."""
    size = _opening(replied, of)
    return size is not None and all(w in words.tails for w in replied[size:])


def _opening(words: list[str], phrases: tuple[str, ...]) -> int | None:
    """How many of ``words`` the longest of ``phrases`` that opens them takes; None where
    none does."""
    for phrase in sorted(phrases, key=lambda p: -len(p.split())):
        if words[: len(phrase.split())] == phrase.split():
            return len(phrase.split())
    return None


def _statement(
    question: str, language: str, words: PolarWords
) -> tuple[list[str], str, list[str]] | None:
    """The question as a statement: the words before its verb, the verb, the rest."""
    asked = question_words(question)
    opener = _opening([w.lower() for w in asked], words.openers) or 0  # "क्या", "est-ce que"
    asked = asked[opener:]
    lowered = [w.lower() for w in asked]
    if not asked:
        return None
    if words.verb_last:
        return asked[:-1], asked[-1], []
    for at, word in enumerate(lowered):  # "Le pont Kellan est-il le plus long ?"
        pronoun = word.partition("-")[2]
        if pronoun and pronoun.split("-")[-1] in words.inverted and at:
            return asked[:at], asked[at].split("-")[0], asked[at + 1 :]
    if lowered[0] in words.verbs:
        subject = _subject(asked[1:], language)
        if subject is None:
            return None
        return asked[1 : 1 + subject], asked[0].lower(), asked[1 + subject :]
    subject = _subject(asked, language)  # "est-ce que le pont Kellan est ...": in order
    if subject is None or subject >= len(asked) or lowered[subject] not in words.verbs:
        return None
    return asked[:subject], asked[subject], asked[subject + 1 :]


def _subject(words: list[str], language: str) -> int | None:
    """How many words open ``words`` as their subject: an article or a capitalized word, and
    the words after it up to the next article or the first lower-case word after a
    capitalized one ("the Kellan Bridge | the longest", "el puente Kellan | el puente", "the
    Kellan Bridge | open in 1931"); None where no such subject opens them."""
    articles = determiners(language)
    if not words or not (words[0].lower() in articles or words[0][:1].isupper()):
        return None
    for at in range(1, min(len(words), MAX_SUBJECT_WORDS + 1)):
        word, before = words[at], words[at - 1]
        if word.lower() in articles or (before[:1].isupper() and not word[:1].isupper()):
            return at
    return None
