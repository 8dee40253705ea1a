"""The anchor rule every value check shares: a claim's slot (a quantity, a month, a name)
conflicts with the evidence when the sentence that talks about the same thing fills it
with another value."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial

from ragguard.language import lexicon
from ragguard.scoring.checks.parse import Sentence, overlap
from ragguard.scoring.checks.words import (
    NAME_TOKEN,
    WORD,
    told_alike,
    two_words_after,
    two_words_before,
)
from ragguard.scoring.lexical.text import stopwords_of

MIN_ANCHOR = 0.34
"""Share of the claim's other content words an evidence sentence must hold to be about the
same thing. Lower fires on unrelated sentences of a long passage; higher misses
paraphrases."""


@dataclass(frozen=True, slots=True)
class Reading:
    """How one evidence sentence fills a claim's slot."""

    sentence: Sentence
    states: bool
    """It states the claim's value."""
    rivals: tuple[str, ...]
    """Other values of the slot's kind it writes, as written."""
    forms: tuple[str, ...] = ()
    """How it writes the claim's value when not as the claim does ("1960s" for "1960's")."""


@dataclass(frozen=True, slots=True)
class Slot:
    """A value of the claim and how each evidence sentence reads it."""

    claim: Sentence
    value: str
    """The value as the claim writes it."""
    context: frozenset[str]
    """The claim's other content words: what the value is of."""
    readings: tuple[Reading, ...]
    topic: frozenset[str] | None = None
    """The words that weigh which sentence is most about the value, where not ``context``:
    those of the value's own clause (``clauses.topic_words``)."""

    @property
    def stated(self) -> bool:
        return any(r.states for r in self.readings)


@dataclass(frozen=True, slots=True)
class RivalRule:
    """How strictly ``rival_value`` reads a slot."""

    margin: float | None = None
    """A rival must sit in a sentence within this much as on-topic as one stating the value
    (None: any rival of the most on-topic sentence counts)."""
    unstated: str | None = None
    """Returned when the passage states the value nowhere and no on-topic sentence holds a
    rival ("": the value is unsupported; None: nothing fires)."""
    by_lead: bool = False
    """For a value stated nowhere, a rival must follow the word the value follows."""
    lead_after: bool = False
    """A stated value's lead is the two words after it, not before, where the claim writes
    any (a language that puts the verb after the value: "पुल 1838 में बंद हुआ" says with "में
    बंद" what 1838 is of)."""
    by_neighbours: bool = False
    """A value the passage writes beside the same content words as the claim does (two at
    least, on one side) is stated, whatever leads it (``words.told_alike``): a number or
    date, told by the noun beside it; not a name, whose neighbours in a list say nothing of
    its role."""
    led_on_topic: bool = False
    """For a value stated somewhere, a rival the claim's words lead to must sit in a
    sentence about the same thing (``MIN_ANCHOR``): "police on Wednesday" in a sentence
    about a shotgun is no rival of "surrendered to police on Thursday". Not for names: a
    passage names its subject in a title and goes on with "The film was distributed by"."""


_JOINING = frozenset({"and", "or"})
_LISTING = _JOINING | {"of", "the"}
"""Lower-case words a list of names may hold between two of them."""


def listed_together(text: str, first: str, then: str) -> bool:
    """Whether ``then`` follows ``first`` in a list or an apposition ("Des Moines, Iowa",
    "by Kenneth Edmonds, Tracey Edmonds and Robert Teitel"): both fill the slot. One other
    word may close the first name's part right before "and" or "or" ("won the European
    Championship once and the Hardcore Championship once"); one after it gives the next
    name another role ("directed by Mick Jackson and starring Claire Danes")."""
    at = text.find(first)
    if at < 0:
        return False
    head = WORD.findall(then)[:1]
    words = NAME_TOKEN.findall(text[at + len(first) : at + len(first) + 80])
    for index, word in enumerate(words):
        if head and word == head[0]:
            return True
        if word[:1].isupper() or word in _LISTING or not word[:1].isalnum():
            continue
        closing = index == 0 or not words[index - 1][:1].islower()
        if not (closing and words[index + 1 : index + 2] and words[index + 1] in _JOINING):
            return False
    return False


def first_led_rival(slot: Slot, led: Callable[[Sentence, str], bool]) -> str | None:
    """The first rival that the words before it (``led``) put in the claim value's place,
    unless it is listed with the value itself (``listed_together``)."""
    return next(
        (
            rival
            for r in slot.readings
            for rival in r.rivals
            if led(r.sentence, rival) and not listed_together(r.sentence.text, rival, slot.value)
        ),
        None,
    )


def _a_word(token: str) -> bool:
    """Whether a token is a word, not a mark ("'s", "-"): letters or digits throughout,
    with the vowel signs of a script that writes them ("जारी")."""
    return all(c.isalnum() or unicodedata.category(c) in ("Mn", "Mc") for c in token)


@cache
def _words_after(language: str) -> Callable[[str, str], tuple[str, ...]]:
    """``two_words_after`` past the language's month names: a date's own words."""
    found = lexicon(language)
    months = frozenset(found.months) if found is not None else frozenset()
    return partial(two_words_after, skipped=months)


def _lead(
    slot: Slot, rule: RivalRule
) -> tuple[Callable[[str, str], tuple[str, ...]], tuple[str, ...]]:
    """How a stated value's lead is read, and the claim's: the two words before it, or with
    ``lead_after`` the words after it where the claim writes any (else it ends a clause)."""
    if rule.lead_after:
        after = _words_after(slot.claim.language)
        if found := after(slot.claim.text, slot.value):
            return after, found
    return two_words_before, two_words_before(slot.claim.text, slot.value)


def _written_as_claimed(
    slot: Slot,
    rule: RivalRule,
    lead_of: Callable[[str, str], tuple[str, ...]],
    lead: tuple[str, ...],
) -> bool:
    """Whether the passage writes the claim's value where the claim puts it: the claim's lead
    is no word ("der" before "Sedlow-See" as "the"), a stated value has the same lead, or
    (``by_neighbours``) the same content words beside it (``words.told_alike``)."""
    stop = stopwords_of(slot.claim.language)
    if all(w in stop or not _a_word(w) for w in lead):
        return True
    written = [
        (r.sentence.text, f) for r in slot.readings if r.states for f in (slot.value, *r.forms)
    ]
    if any(lead_of(text, form) == lead for text, form in written):
        return True
    return rule.by_neighbours and told_alike(
        slot.claim.text, slot.value, written, stop, after_only=rule.lead_after
    )


def rival_value(slot: Slot, rule: RivalRule = RivalRule()) -> str | None:
    """The rival value of the most on-topic sentence, when no sentence of the passage states
    the claim's value (with a margin: no sentence within it as on-topic).

    A value stated somewhere (the claim may join two sentences) conflicts only when the
    words just before it in the claim ("moved to Ulm") lead to a rival in the passage
    ("moved to Munich") and never to the value itself. Example: "The Eiffel Tower is in
    Berlin" against "The Eiffel Tower is a lattice tower in Paris" gives "Paris". How much a
    sentence is about the value is weighed by ``slot.topic`` where given, else ``context``."""
    best_rival, rival, best_same = 0.0, None, -1.0
    weigh = slot.context if slot.topic is None else slot.topic
    for r in slot.readings:
        on_topic = overlap(weigh, r.sentence)
        if r.states:
            best_same = max(best_same, on_topic)
        elif r.rivals and on_topic > best_rival:
            best_rival, rival = on_topic, r.rivals[0]
    stated = best_same >= 0
    claim_text, context, margin = slot.claim.text, slot.context, rule.margin
    if rule.by_lead and not stated:
        # only the word right before: "is in Berlin" against "a tower in Paris"
        last = two_words_before(claim_text, slot.value)[-1:]
        if not last:
            return None
        return first_led_rival(
            slot,
            lambda s, c: (
                two_words_before(s.text, c)[-1:] == last and overlap(context, s) >= MIN_ANCHOR
            ),
        )
    if stated and (margin is None or best_same + margin >= best_rival):
        lead_of, lead = _lead(slot, rule)
        if _written_as_claimed(slot, rule, lead_of, lead):
            return None
        return first_led_rival(
            slot,
            lambda s, c: (
                lead_of(s.text, c) == lead
                and (margin is None or overlap(context, s) + margin >= best_same)
                and (not rule.led_on_topic or overlap(context, s) >= MIN_ANCHOR)
            ),
        )
    if best_rival >= MIN_ANCHOR:
        return rival
    return None if stated else rule.unstated
