"""What makes a name a place: a word that says where before it ("in Berlin"), or words after
it that make it the place of what follows ("Madrid is where ...", "Dunmore abrite ...",
"C'est Dunmore qui abrite ..."). A verb of place is read in any tense ("abritait", "a
accueilli", "hat ... beherbergt"): a family of sentences, not the one form a list holds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ragguard.language import lexicon, phrase_pattern, section
from ragguard.runtime import memoized
from ragguard.scoring.checks.words import WORD, one_stem, unmarked


@dataclass(frozen=True, slots=True)
class PlaceFrameWords:
    """A language's ``[places]`` table."""

    cleft_openers: tuple[str, ...] = ()
    """What opens a cleft before its name ("C'est", "It is"): the name is then the subject
    of the clause after ``cleft_relatives``."""
    cleft_relatives: tuple[str, ...] = ()
    """The relative right after a cleft's name ("qui", "that", "la que")."""
    auxiliaries: tuple[str, ...] = ()
    """Auxiliaries of a compound tense ("a" of "a accueilli", "hat" of "hat ... beherbergt")."""


@dataclass(frozen=True, slots=True)
class PlaceWords:
    """The words that make a name a place."""

    before: re.Pattern[str]
    """The language's ``place_phrases`` closing a text ("... near ")."""
    after: re.Pattern[str] | None
    """Its ``place_clauses`` opening a text (" is where ...")."""
    attribute: re.Pattern[str] | None = None
    """Its ``place_attributes`` opening a text (" company ...": "the Vilnius company")."""
    opening: re.Pattern[str] | None = None
    """Its ``opening_place_verbs`` opening a text (" possède ..."), for a name that opens
    the claim."""
    cleft: tuple[re.Pattern[str], re.Pattern[str]] | None = None
    """Its ``[places]`` cleft openers, the whole text before a name ("C'est "), and
    relatives opening the text after it (" qui ...")."""
    verbs: tuple[str, ...] = ()
    """The one-word ``place_clauses`` ("abrite"), read in any tense after a name; without
    their accents (``unmarked``), as the words they meet are read."""
    opening_verbs: tuple[str, ...] = ()
    """The one-word ``opening_place_verbs`` ("possède"), read in any tense; unmarked too."""
    auxiliaries: frozenset[str] = frozenset()
    """Its ``[places]`` auxiliaries."""
    language: str = ""
    """The language these words are of."""


@cache
def place_words(language: str) -> PlaceWords | None:
    """The words that make a name a place in the language, or None."""
    found = lexicon(language)
    if found is None or not found.place_phrases:
        return None
    clauses, attributes = found.place_clauses, found.place_attributes
    verbs = found.opening_place_verbs
    frames = section(language, "places", PlaceFrameWords)
    cleft = (
        (
            re.compile(rf"\W*{phrase_pattern(frames.cleft_openers).pattern}\s*", re.IGNORECASE),
            re.compile(rf"\W*{phrase_pattern(frames.cleft_relatives).pattern}", re.IGNORECASE),
        )
        if frames.cleft_openers
        else None
    )
    return PlaceWords(
        re.compile(rf"{phrase_pattern(found.place_phrases).pattern}\s*$", re.IGNORECASE),
        re.compile(rf"\W*{phrase_pattern(clauses).pattern}", re.IGNORECASE) if clauses else None,
        re.compile(rf"\s+{phrase_pattern(attributes).pattern}") if attributes else None,
        re.compile(rf"\s+{phrase_pattern(verbs).pattern}", re.IGNORECASE) if verbs else None,
        cleft,
        tuple(unmarked(c) for c in clauses if " " not in c),
        tuple(unmarked(v) for v in verbs if " " not in v),
        frozenset(unmarked(a) for a in frames.auxiliaries),
        language,
    )


def placed(places: PlaceWords | None, text: str, name: str) -> bool:
    """Whether a word that says where comes right before the name ("in Berlin"), or words
    that make it the place of what follows right after it ("Madrid is where ...", "the
    Vilnius company", "Dunmore abritait ...")."""
    return places is not None and _placed(places.language, text, name)


@memoized(entries=65_536)
def _placed(language: str, text: str, name: str) -> bool:
    """``placed`` with the language's words. Memoized: each name of a passage is asked of
    again for each claim, by several rules."""
    places = place_words(language)
    if places is None:
        return False
    before, _, after = text.partition(name)
    opens = len(WORD.findall(before)) <= 1  # "Le Cyrrus possède ...", "Cyrrus possède ..."
    return (
        places.before.search(before) is not None
        or bool(places.after and places.after.match(after))
        or bool(places.attribute and places.attribute.match(after))
        or bool(places.opening and opens and places.opening.match(after))
        or _verb_after(places.verbs + (places.opening_verbs if opens else ()), places, after)
        or _cleft_placed(places, before, after)
    )


def in_cleft(language: str, text: str, name: str) -> bool:
    """Whether ``name`` is the place a cleft puts first ("C'est Dunmore qui abrite ..."): a
    subject, read by the name nearest it as one opening the claim is."""
    places = place_words(language)
    before, _, after = text.partition(name)
    return places is not None and _cleft_placed(places, before, after)


def _cleft_placed(places: PlaceWords, before: str, after: str) -> bool:
    """Whether a cleft makes the name the place of its clause ("C'est Dunmore qui abrite
    ..."): a place clause or opening verb anywhere in the clause after the relative, or a
    one-word one in any tense opening it."""
    if places.cleft is None or not places.cleft[0].fullmatch(before):
        return False
    relative = places.cleft[1].match(after)
    if relative is None:
        return False
    clause = " " + after[relative.end() :]
    verbs = places.verbs + places.opening_verbs
    return any(p is not None and p.search(clause) for p in (places.after, places.opening)) or (
        _verb_after(verbs, places, clause)
    )


def _verb_after(verbs: tuple[str, ...], places: PlaceWords, after: str) -> bool:
    """Whether one of ``verbs``, in any inflection and with or without its accents
    (``one_stem``: "abritait", "albergó", "possédait"), opens ``after``'s clause; after an
    auxiliary opening it, the participle right after it or closing the clause ("a
    accueilli", "hat die Firma ... beherbergt")."""
    if not verbs:
        return False
    clause = re.split(r"[,;:.!?]", after, maxsplit=1)[0]
    words = [unmarked(w.lower()) for w in WORD.findall(clause)]
    read = words[:1]
    if words and words[0] in places.auxiliaries:
        read = [*words[1:2], *words[-1:]]
    return any(one_stem(word, verb) for word in read for verb in verbs)
