"""An answer's spans read by the question they answer. A span that opens with a pronoun
takes the subject of the span before it, else the question's subject ("It stands in Paris."
answering "Where is the Eiffel Tower?" is checked as "The Eiffel Tower stands in Paris.");
an object pronoun takes what the question asks about. A fragment that answers a question
asking for its subject is read as the sentence the question makes of it: "Lukas Weber."
answering "Who built the Kellan Bridge?" is checked as "Lukas Weber built the Kellan
Bridge.", and judged relevant or not as written. The words come from each language's
``[antecedents]`` table, as a passage's antecedents do (``antecedents``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Protocol

from ragguard.language import kinds_off, lexicon, lexicon_or_fallback, read_as
from ragguard.scoring.checks.antecedents import (
    antecedent_lists,
    capitalized,
    determiners,
    subject,
    with_antecedent,
)
from ragguard.scoring.checks.proper_names import names


@cache
def _after_auxiliary(language: str) -> re.Pattern[str] | None:
    """A question's words after one of its language's ``[antecedents] question_auxiliaries``
    ("Where is the old tower?" -> "the old tower"); None where it lists none."""
    found = lexicon(language)
    auxiliaries = found.antecedents.get("question_auxiliaries") if found is not None else None
    if not auxiliaries:
        return None
    alternation = "|".join(map(re.escape, auxiliaries))
    return re.compile(
        rf"^\W*(?:\w+\s+){{0,2}}?(?:{alternation})\s+(?P<rest>.+?)\W*$", re.IGNORECASE
    )


def question_subject(question: str, language: str = "en") -> str | None:
    """What a question asks about, for an answer's pronoun to take: its first name with a
    leading article ("Where is the Eiffel Tower?" -> "the Eiffel Tower"), else the short
    definite phrase after its auxiliary where the language lists them ("Where is the old
    tower?"). None where a capital marks no name (German capitalizes every noun, Hindi has
    none) or the question names nothing."""
    found_lexicon = lexicon(language)
    if "entity" in kinds_off(language) or (found_lexicon and found_lexicon.nouns_capitalized):
        return None
    found = names(question)  # a lone first word, "¿Quién ..." too, is no name
    if found:
        at = question.find(found[0])
        before = question[:at].split()[-1:]
        if before and before[0].lower() in determiners(language):
            return f"{before[0]} {found[0]}"
        return found[0]
    auxiliary = _after_auxiliary(language)
    match = auxiliary.match(question) if auxiliary is not None else None
    rest = match.group("rest").split() if match else []
    return " ".join(rest) if 1 < len(rest) <= 4 and rest[0].lower() == "the" else None


class _SpanLike(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def language(self) -> str: ...


def answer_readings(
    question: str, spans: Sequence[_SpanLike], follow_spans: bool = True
) -> list[str]:
    """Each span's text read with its antecedent (see the module docstring), in order; a
    span that leans on nothing as written. ``follow_spans`` False: the question's subject
    only, never an earlier span's (``[support] use_context = false``)."""
    asked: dict[str, str | None] = {}
    objects: dict[str, str | None] = {}
    readings: list[str] = []
    previous: str | None = None
    for span in spans:
        language = read_as(span.language)
        if language not in asked:
            asked[language] = question_subject(question, language)
            objects[language] = question_object(question, language) or asked[language]
        read = with_antecedent(span.text, previous or asked[language], language)
        read = with_object(read, previous or objects[language], language)
        if follow_spans:
            previous = subject(read, language) or previous
        readings.append(read)
    return readings


def question_object(question: str, language: str = "en") -> str | None:
    """What a question that asks for its subject asks it of: its phrase from the first
    article after the verb ("Who built the Kellan Bridge?" -> "the Kellan Bridge", "Wer baute
    die Kellan-Brücke?" -> "die Kellan-Brücke"); None for any other question."""
    lists = antecedent_lists(language)
    after = _after_asker(question_words(question), lists)
    rest = after[1] if after is not None else None
    articles = lists.get("determiners", frozenset())
    at = next((i for i, w in enumerate(rest or ()) if i and w.lower() in articles), None)
    return " ".join(rest[at:]) if rest and at is not None else None


_STOPS = ".,;:!?"
"""The marks that may close a word of a sentence."""


def with_object(sentence: str, antecedent: str | None, language: str = "en") -> str:
    """A sentence with the object pronoun after its verb ("Lukas Weber built it.", "hat sie
    gebaut": ``[antecedents] object_pronouns``) or the clitic before it ("Lukas Weber l'a
    construit.", "lo construyó": ``object_clitics``) read as ``antecedent``, which a clitic
    puts after its verb and the participle of an auxiliary. A clitic counts right after a
    name written in lower case only; a pronoun right after a word in lower case and before
    a word in lower case or the end ("sagte, sie habe" has no object)."""
    lists = antecedent_lists(language)
    pronouns, clitics = lists.get("object_pronouns", ()), lists.get("object_clitics", ())
    if not antecedent or not (pronouns or clitics):
        return sentence
    opening = antecedent.split()[0].lower() in lists.get("determiners", ())
    thing = antecedent[:1].lower() + antecedent[1:] if opening else antecedent
    words = sentence.split()
    stop = lexicon_or_fallback(language).stopwords
    for at in range(1, len(words)):
        word, before, rest = words[at], words[at - 1], words[at + 1 :]
        bare = word.rstrip(_STOPS).lower().replace("’", "'")
        after_verb = before[-1:].isalpha() and before[:1].islower()
        if bare in pronouns and after_verb and (not rest or rest[0][:1].islower()):
            return " ".join([*words[:at], thing + word[len(word.rstrip(_STOPS)) :], *rest])
        elided = next((c for c in clitics if c.endswith("'") and bare.startswith(c)), "")
        named = before[:1].isupper() and before[-1:].isalpha() and before.lower() not in stop
        if not (elided or bare in clitics) or not (named and word[:1].islower()):
            continue  # "En la década", "WILLOW, LA", "Greystone, le plus long"
        following = rest[0].rstrip(_STOPS).lower() if rest and not elided else ""
        if following in stop and following not in lists.get("verbs", ()):
            continue  # an article before a relative: "Es Velden la que ..."
        group = [word[len(elided) :]] if elided else rest[:1]
        rest = rest if elided else rest[1:]
        auxiliary = group and group[-1].rstrip(_STOPS).lower() in lists.get("verbs", ())
        if auxiliary and rest:
            group, rest = [*group, rest[0]], rest[1:]
        head = " ".join(group)
        closed = head.rstrip(_STOPS)
        return " ".join([*words[:at], closed, thing + head[len(closed) :], *rest])
    return sentence


NOUN_PHRASE_WORDS = 4
"""Words a noun asker's noun and the phrase that places it may take before the verb ("Which
bridge in Riga is ...")."""

MAX_FRAGMENT_WORDS = 4
"""A longer answer says more than the name the question asks for ("The Kellan Bridge in
Riga." still is one)."""
_CLOSING = ".!?。।"
"""The stops that close an answer, in every script."""


def question_words(question: str) -> list[str]:
    """A question's words, less its opening and closing marks ("¿", "?")."""
    return question.strip().lstrip("¿¡").rstrip(" ?？").split()


def _verbs(lists: dict[str, frozenset[str]]) -> frozenset[str]:
    """The language's listed verbs and question auxiliaries."""
    return lists.get("verbs", frozenset()) | lists.get("question_auxiliaries", frozenset())


def question_reading(question: str, answer: str, language: str = "en") -> str | None:
    """The sentence a question makes of a fragment that answers it, when the question asks
    for its subject ("Who built the Kellan Bridge?" and "Lukas Weber." -> "Lukas Weber built
    the Kellan Bridge."; "रीगा का सबसे लंबा पुल कौन सा है?" and "केलन पुल।"). Read alone, the
    fragment names a person or a bridge of the passage and claims nothing the passage could
    deny. None when the answer is no fragment (a verb, a pronoun, a number; in a script
    with capitals, no name at its end: "Lukas Weber lo construyó.") or the question asks
    for no subject the language's ``[antecedents]`` askers find ("What did Brandt
    write?")."""
    lists = antecedent_lists(language)
    fragment = _fragment(_unframed(answer, lists), lists, language)
    if fragment is None:
        return None
    asked = question_words(question)
    stop = answer.strip()[-1:] if answer.strip()[-1:] in _CLOSING else "."
    if lists.get("askers_in_place"):
        in_place = _in_place(asked, fragment, lists)
        return None if in_place is None else in_place + stop
    after = _after_asker(asked, lists)
    if after is None:
        return None
    return capitalized(" ".join([*fragment, *after[0], *after[1]])) + stop


def _unframed(answer: str, lists: dict[str, frozenset[str]]) -> str:
    """The answer without a frame that only presents it (``[antecedents] answer_frames``: "It
    is the Kellan Bridge." -> "the Kellan Bridge.", "यह केलन पुल है।" -> "केलन पुल।"); as written
    where none holds it."""
    text = answer.strip()
    core = text.rstrip(_CLOSING).rstrip()
    lowered = core.lower().replace("’", "'")
    for frame in sorted(lists.get("answer_frames", ()), key=len, reverse=True):
        opening, _, closing = frame.partition("{}")
        inner = len(core) - len(closing)
        if lowered.startswith(opening) and lowered.endswith(closing) and inner > len(opening):
            return core[len(opening) : inner].strip() + text[len(core) :].strip()
    return text


def _fragment(answer: str, lists: dict[str, frozenset[str]], language: str) -> list[str] | None:
    """The fragment's words without its closing stop, or None where it is no fragment."""
    words = answer.strip().rstrip(_CLOSING).split()
    if not words or len(words) > MAX_FRAGMENT_WORDS or any(map(str.isdigit, answer)):
        return None
    lowered = [w.strip(",;:").lower() for w in words]
    stop = lexicon_or_fallback(language).stopwords
    if not any(c.lower() != c.upper() for c in answer):  # no capitals: Devanagari
        return words if len(words) <= 3 and not stop.intersection(lowered) else None
    if _verbs(lists).union(lists.get("pronouns", ())).intersection(lowered):
        return None
    named = words[-1][:1].isupper() and lowered[-1] not in stop  # "El puente Kellan."
    return words if named else None


def _after_asker(
    asked: list[str], lists: dict[str, frozenset[str]]
) -> tuple[list[str], list[str]] | None:
    """The question's words after the asker that opens it ("Who", "Which station"), when they
    go on with the verb whose subject it asks for: the words that place a noun asker's noun
    ("Which bridge in Riga is ..." -> "in Riga"), then the verb and the rest; None
    otherwise."""
    if len(asked) < 2:
        return None
    first, rest = asked[0].lower(), asked[1:]
    placed: list[str] = []
    if first in lists.get("noun_askers", ()):
        verbs = _verbs(lists)
        at = next((i for i, w in enumerate(rest[:NOUN_PHRASE_WORDS]) if w.lower() in verbs), None)
        if at is None:
            return None
        placed, rest = rest[1:at], rest[at:]  # past the asker's noun: "Which station is ..."
    elif first not in lists.get("askers", ()):
        return None
    verb = rest[0]
    if not verb[:1].islower() or verb in lists.get("object_auxiliaries", ()):
        return None  # "Who did Brandt marry?", "Quel pont Brandt a-t-il construit ?"
    return placed, rest


def _in_place(
    asked: list[str], fragment: list[str], lists: dict[str, frozenset[str]]
) -> str | None:
    """The question with its asker replaced where it stands, in a language that asks in
    place (Hindi: "पुल किसने बनाया?" -> "पुल लुकास वेबर ने बनाया।"); a noun the fragment ends
    with is not said twice ("कौन सा स्टेशन" and "केस्ट्रल स्टेशन"). Without its stop."""
    mark = list(lists.get("doer_mark", ()))  # one word: Hindi "ने"
    marked = {a: [*fragment, *mark] for a in lists.get("doer_askers", ())}
    askers = {a: fragment for a in lists.get("askers_in_place", ())} | marked
    for asker in sorted(askers, key=lambda a: -len(a.split())):
        size = len(asker.split())
        for at in range(len(asked) - size + 1):
            if " ".join(asked[at : at + size]) != asker:
                continue
            after = asked[at + size :]
            if after and after[0] == fragment[-1]:
                after = after[1:]
            return " ".join([*asked[:at], *askers[asker], *after])
    return None
