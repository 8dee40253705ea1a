"""Names read by the frame around them: a name the passage states nowhere, matched to the
rival that stands where it stands. A sentence's frame may move a name ("Dunmore is where
Willow Press has its head office" against "settled in Ashcombe, where Willow Press has its
head office"; "Berlin's Willow Press" against "Willow Press in Oslo"); its neighbours stay."""

from __future__ import annotations

import itertools
import re
from functools import cache

from ragguard.language import NameFrameWords, lexicon, section
from ragguard.scoring.checks.parse import Sentence, content_of, overlap
from ragguard.scoring.checks.places import PlaceWords, place_words, placed
from ragguard.scoring.checks.polar_answers import PolarWords
from ragguard.scoring.checks.proper_names import name_keys, opens_sentences
from ragguard.scoring.checks.slots import MIN_ANCHOR, Reading, Slot
from ragguard.scoring.checks.words import WORD, first_words, one_stem, written_two_ways
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stopwords_of
from ragguard.scoring.lexical.vocabulary import NAME_JOINERS

SUBJECT_ANCHOR = 0.75
"""Share of the claim's other content words the sentence must hold for its subject to be
the claim subject's rival: the sentence says the same of someone else."""


def anchored_reading(slot: Slot, claim: Sentence, name: str) -> Reading | None:
    """The one most on-topic sentence, when it says the rest of the claim: every other name
    of the claim and ``MIN_ANCHOR`` of its words, or ``SUBJECT_ANCHOR`` of them when the
    claim names nothing else; short of that, the one sentence holding every word the claim
    capitalizes, when one word is all it says besides (``_named_reading``). A sentence that
    names nothing the claim does not ("It covers 82 square kilometres.") fills no slot, so
    it is no rival to one as much about the claim that does."""
    others = [
        keys
        for other, keys in zip(claim.names, claim.name_keys, strict=True)
        if other != name and keys
    ]
    shares = [(overlap(slot.context, r.sentence), r) for r in slot.readings]
    if not shares:
        return None
    share, best = max(shares, key=lambda pair: (pair[0], bool(pair[1].rivals)))
    if share < (MIN_ANCHOR if others else SUBJECT_ANCHOR):
        return _named_reading(slot, claim, name)
    if others and not all(keys & best.sentence.keys for keys in others):
        return None
    if any(o is not best and on_topic >= share and o.rivals for on_topic, o in shares):
        return None  # another sentence is as much about it, and names another too
    return best


def _named_reading(slot: Slot, claim: Sentence, name: str) -> Reading | None:
    """The one sentence that holds the claim's other names, the word opening it (a subject
    in capitals) and a name after an elision ("d'Amberline"), when the claim says but one
    word besides ("Tomas Reyes started Amberline." against "Nora Quist founded Amberline in
    Tallinn"): those words anchor it where its verb is another's."""
    words = WORD.findall(claim.text)
    elided = [w.replace("’", "'").split("'")[-1] for w in words if "'" in w or "’" in w]
    opening = [w for w in [*words[:1], *elided] if w[:1].isupper()]  # "d'Amberline"
    capitalized = [n for n in claim.names if n != name] + opening
    named = slot.context & content_of(" ".join(capitalized), claim.language)
    held = [r for r in slot.readings if named and named <= r.sentence.content]
    if len(held) != 1 or len(slot.context - named) > 1:
        return None
    return held[0]


def neighbour_rival(slot: Slot, claim: Sentence, name: str, opening: bool = False) -> str | None:
    """The one rival of the anchored sentence (``anchored_reading``) that stands beside what
    the claim's name stands beside (``words_beside``), when the passage states the claim's name
    nowhere. A name opening the claim, a subject, may also match the rival nearest the name
    it is nearest (``nearest_name``: "Dunmore abrite le siège de l'entreprise Willow");
    elsewhere that is too loose ("built in the 19th Century" is no "tip of Jamaica")."""
    if _describes(claim, name):
        return None
    places = place_words(claim.language)
    is_place = placed(places, claim.text, name)
    best = anchored_reading(slot, claim, name)
    if best is None:
        return _placed_rival(slot, claim, name, places) if is_place else None
    my_before, my_after = words_beside(claim, name)
    theirs = {r: words_beside(best.sentence, r) for r in best.rivals}
    # the same word on the same side settles it first, then on either side, then the
    # nearest name
    found = [r for r, (b, a) in theirs.items() if _alike(b, my_before) or _alike(a, my_after)]
    if len(found) != 1:
        either = [r for r, (b, a) in theirs.items() if _alike(b | a, my_before | my_after)]
        found = either
        if len(either) != 1:
            near = nearest_name(claim, name) if opening else frozenset()
            found = [r for r in best.rivals if r in either or nearest_name(best.sentence, r) & near]
    if len(found) > 1:  # a person for a person, a place for a place ("in Oslo")
        found = [r for r in found if placed(places, best.sentence.text, r) == is_place]
    if len(found) != 1 and is_place:  # "Madrid is where ..."
        found = [r for r in best.rivals if placed(places, best.sentence.text, r)]
        found = _said_of(slot, best, found) if len(found) > 1 else found
    if not found and is_place:
        return _placed_rival(slot, claim, name, places)
    return found[0] if len(found) == 1 else None


def _said_of(slot: Slot, reading: Reading, places: list[str]) -> list[str]:
    """The one of several places whose stretch of the sentence, from the rival before it to
    the rival after it, holds the most of the claim's other words ("vit à Velden, où se
    trouve le siège de l'entreprise Willow" against "est née à Madrid et vit à"): the place
    the claim's words are said of; none on a tie."""
    text = reading.sentence.text
    spans = [(at, at + len(r)) for r in reading.rivals if (at := text.find(r)) >= 0]
    shares: dict[str, int] = {}
    for place in places:
        at = text.find(place)
        start = max((end for _, end in spans if end <= at), default=0)
        stop = min((begin for begin, _ in spans if begin >= at + len(place)), default=len(text))
        shares[place] = len(slot.context & content_of(text[start:stop], slot.claim.language))
    most = max(shares.values(), default=0)
    said = [p for p, share in shares.items() if share == most]
    return said if most and len(said) == 1 else []


def _placed_rival(slot: Slot, claim: Sentence, name: str, places: PlaceWords | None) -> str | None:
    """The one place the passage's sentences about every other name of the claim set after a
    word that says where, for a place the claim's frame makes of ``name``, when no sentence
    is the one most on topic or that one names no place: another sentence of the passage,
    its subject a pronoun, may share more of the claim's words ("Dublin accueille
    l'entreprise Willow" against "L'entreprise Willow a son siège à Madrid. Elle accueille
    920 visiteurs.")."""
    others = [k for n, k in zip(claim.names, claim.name_keys, strict=True) if n != name and k]
    if not others:
        return None
    found = {
        rival
        for reading in slot.readings
        if all(keys & reading.sentence.keys for keys in others)
        for rival in reading.rivals
        if placed(places, reading.sentence.text, rival)
    }
    return found.pop() if len(found) == 1 else None


def _alike(theirs: frozenset[str], mine: frozenset[str]) -> bool:
    """Whether two sides share a word or a name's key, or a word in two inflections
    ("créée" after "créé", "fundada" after "fundó"; ``one_stem``): the languages whose words
    are kept whole (``stem_in``) write one verb many ways."""
    return bool(theirs & mine) or any(one_stem(a, b) for a in theirs for b in mine)


def _describes(claim: Sentence, name: str) -> bool:
    """Whether the name describes rather than names: after a word of ``describing`` ("an
    American"), or inside a noun phrase it opens, before the noun the name qualifies ("a
    western U.S state": a state of the kind, which the passage's "California" may be); or
    the head of a joined name ("Kingdom" of "the Kingdom of the Netherlands"), whose other
    part says what it is."""
    at = claim.text.find(name)
    preceding = WORD.findall(claim.text, 0, at)[::-1] if at > 0 else []
    after = WORD.findall(claim.text, at + len(name))[:1]
    if after and after[0][:1].islower():  # the name qualifies the noun after it
        stop = stopwords_of(claim.language)
        adjectives = itertools.takewhile(lambda w: w[:1].islower() and w not in stop, preceding)
        preceding = preceding[min(len(list(adjectives)), MAX_TITLE) :]
    before = preceding[:1]
    describing = section(claim.language, "name_frames", NameFrameWords).describing
    return bool(before and before[0].lower() in describing) or bool(
        after and after[0] in NAME_JOINERS
    )


def words_beside(sentence: Sentence, name: str) -> tuple[frozenset[str], frozenset[str]]:
    """What stands next to ``name`` before it and after it, function words, marks and a
    possessive's "s" passed over: a content word (lower case), or a name's keys
    (``name_keys``). A title right before the name ("by the architect Lukas Weber",
    "par l'architecte allemand") is passed over too: the word before it stands beside the
    name as well (``_title_length``)."""
    text = sentence.text
    at = text.find(name)
    if at < 0:
        return frozenset(), frozenset()
    stop = stopwords_of(sentence.language) | {"s"}
    spans = [
        (start, start + len(other), keys)
        for other, keys in zip(sentence.names, sentence.name_keys, strict=True)
        if name not in other
        for start in _occurrences(other, text)
    ]

    def unit(m: re.Match[str]) -> frozenset[str]:
        inside = (keys for start, end, keys in spans if start <= m.start() < end)
        return next(inside, frozenset([m.group().lower()]))

    preceding = list(reversed(list(WORD.finditer(text, 0, at))))
    title = _title_length(preceding, stop)
    content = (unit(m) for m in preceding if m.group().lower() not in stop)
    before = itertools.islice(content, title + 1)
    after = (unit(m) for m in WORD.finditer(text, at + len(name)) if m.group().lower() not in stop)
    return frozenset().union(*before), next(after, frozenset())


def _occurrences(part: str, text: str) -> list[int]:
    """Where ``part`` starts in ``text``, each occurrence after the end of the one before."""
    found, at = [], text.find(part)
    while at >= 0 and part:
        found.append(at)
        at = text.find(part, at + len(part))
    return found


AGENT_BEFORE = re.compile(r"\b(?:by|par|por|von)\s*$", re.IGNORECASE)
"""The word that closes a text right before the agent of a passive ("was built by ")."""
MAX_TITLE = 3
"""Words a title before a name may run to ("the famous German architect")."""


def _title_length(preceding: list[re.Match[str]], stop: frozenset[str]) -> int:
    """How many words right before a name make a title set before it: words in lower case
    after a function word, or with one elided onto the first ("the famous architect",
    "l'architecte allemand"); none where no function word opens them."""
    for count, match in enumerate(preceding[:MAX_TITLE]):
        word = match.group()
        if not word[:1].islower() or word.lower() in stop:
            return count if count and word.lower() in stop else 0
        elided = re.split("['’]", word)[0].lower()
        if elided != word.lower() and elided in stop:
            return count + 1
    opening = preceding[MAX_TITLE : MAX_TITLE + 1]
    return MAX_TITLE if opening and opening[0].group().lower() in stop else 0


def after_copula(before: str, language: str) -> bool:
    """Whether the text right before a name ends in a copula of the language's ``[name_frames]
    copulas``, or one and a word of its own ("was undoubtedly"): the name is what the
    sentence's subject is, so the claim may open with either."""
    copulas = section(language, "name_frames", NameFrameWords).copulas
    words = [w.lower() for w in WORD.findall(before)[-2:]]
    if words[-1:] and words[-1] in copulas:
        return True
    own = len(words) == 2 and words[1] not in stopwords_of(language)
    return own and words[0] in copulas and before.rstrip()[-1:].isalpha()


def nearest_name(sentence: Sentence, name: str) -> frozenset[str]:
    """The keys of the sentence's other name nearest to ``name``, or none."""
    text = sentence.text
    at = text.find(name)
    if at < 0:
        return frozenset()
    end, best, gap = at + len(name), frozenset[str](), len(text)
    for other, keys in zip(sentence.names, sentence.name_keys, strict=True):
        there = text.find(other)
        if name in other or there < 0:
            continue
        distance = there - end if there >= end else at - (there + len(other))
        if 0 <= distance < gap:
            best, gap = keys, distance
    return best


def only_other_person(
    claim: Sentence, sentences: tuple[Sentence, ...], name: str, possessor: bool = False
) -> str | None:
    """The passage's one full name (two words or more, no place), when the claim puts a full
    name the passage states nowhere beside a name the passage states ("David Okoye's
    Amberline", "Amberline de David Okoye", "Amberline, créée par David Okoye" against "Nora
    Quist started Amberline"): one person put for another, wherever it stands; a name of
    one word too where it is the ``possessor`` joined to that name ("el puente Kellan de
    Oldecott"). None where the passage writes two such names, or none."""
    own = name_keys(name)
    if (len(name.split()) < 2 and not possessor) or not own or any(own & s.keys for s in sentences):
        return None
    places = place_words(claim.language)
    if placed(places, claim.text, name):
        return None
    others = [k for n, k in zip(claim.names, claim.name_keys, strict=True) if name not in n]
    full, shared = set(), any(k & s.keys for k in others for s in sentences)
    for sentence in sentences:
        for other, keys in zip(sentence.names, sentence.name_keys, strict=True):
            if keys & claim.keys:
                shared = True
            elif len(other.split()) > 1 and not placed(places, sentence.text, other):
                full.add(other)
    return full.pop() if shared and len(full) == 1 else None


def unplaced_name_findings(
    claim: Sentence,
    sentences: tuple[Sentence, ...],
    rivals: list[tuple[str, ...]],
    place_verbs: frozenset[str],
) -> list[Reason]:
    """Names ``names`` does not part out, read by their frame alone (``neighbour_rival``)
    when the passage states them nowhere: a lone capitalized word opening the claim, which
    may be a name or any word ("Dunmore is where ...", "Water boils ..."), and the last part
    of a joined name whose first part the passage states ("Copperfield de Lisbonne"
    against "Copperfield à Dublin")."""
    findings = []
    opening = lone_opening(claim)
    readings = tuple(Reading(s, False, others) for s, others in zip(sentences, rivals, strict=True))
    for name in (opening, *joined_tails(claim, sentences)):
        own = name_keys(name) if name else frozenset()
        if not own or any(own & s.keys for s in sentences):
            continue
        context = claim.content - content_of(name, claim.language) - place_verbs
        slot = Slot(claim, name, context, readings)
        value = neighbour_rival(slot, claim, name, opening=name == opening)
        value = value or only_other_person(claim, sentences, name, possessor=name != opening)
        if value and not written_two_ways(name, value):
            findings.append(Reason("entity", name, value))
    return findings


def joined_tails(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[str]:
    """The part after the last joiner of each joined name of the claim ("Lisbonne" of
    "Copperfield de Lisbonne") whose part before it the passage states."""
    out = []
    for name in claim.names:
        words = name.split()
        cut = max((i for i, w in enumerate(words) if w in NAME_JOINERS), default=0)
        if 0 < cut < len(words) - 1:
            head = name_keys(" ".join(words[:cut]))
            if head and any(head & s.keys for s in sentences):
                out.append(" ".join(words[cut + 1 :]))
    return out


def lone_opening(claim: Sentence) -> str:
    """The claim's first word when it is capitalized, alone, and no function word, opener,
    pronoun or number ("Someone", "One country that ..."), in a script with capitals."""
    found = lexicon(claim.language)
    if found is None or found.script != "latin":
        return ""
    tokens = first_words(claim.text, 2)
    first = tokens[0] if tokens else ""
    if not (first[:1].isupper() and first.isalpha() and len(first) > 2):
        return ""
    if len(tokens) > 1 and tokens[1][:1].isupper():
        return ""
    lower = first.lower()
    if _opens_a_verb(claim.text, lower, claim.language):
        return ""
    no_name = found.stopwords, found.indefinites, found.numbers.words, _answer_openers(found.code)
    return "" if opens_sentences(lower) or any(lower in words for words in no_name) else first


_FIRST_TWO = re.compile(r"\W*\w+[ \t]+(\w+)")


def _opens_a_verb(text: str, first: str, language: str) -> bool:
    """Whether the text's first word is a verb or participle by the word right after it
    (``after_verbs``, ``participle_endings``); a comma between ("Weber, the architect")
    leaves it a name."""
    second = _FIRST_TWO.match(text)
    if second is None:
        return False
    words = section(language, "name_frames", NameFrameWords)
    after = second.group(1).lower()
    return after in words.after_verbs or (
        first.endswith(words.participle_endings) and after in words.after_participles
    )


@cache
def _answer_openers(code: str) -> frozenset[str]:
    """Words that open an answer and name no one: a yes or no ("Non, le pont ...") and the
    words of an opinion or hedge cue ("Selon moi, ...", "Personalmente, ...")."""
    found = lexicon(code)
    polar = section(code, "polar", PolarWords)
    cues = found.subjective.values() if found is not None else ()
    phrases = [*polar.yes, *polar.no, *(p for group in cues for p in group)]
    return frozenset(p.lower().split()[0] for p in phrases if p.strip())
