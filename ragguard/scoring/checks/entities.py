"""The entity check: a name of the claim in the slot where the on-topic sentence names
another ("in Kenya" against "in Tanzania", "designed by Eiffel" against "designed by
Koechlin", "Koechlin designed the tower" against "Eiffel designed the tower")."""

from __future__ import annotations

import re
from functools import cache

from ragguard.language import lexicon, phrase_pattern
from ragguard.runtime import memoized
from ragguard.schema import edit_distance
from ragguard.scoring.checks.antecedents import opens_with_pronoun, subject
from ragguard.scoring.checks.classes import class_rival
from ragguard.scoring.checks.holders import clauses_of
from ragguard.scoring.checks.marked_names import marked_name_findings
from ragguard.scoring.checks.name_frames import (
    AGENT_BEFORE,
    SUBJECT_ANCHOR,
    after_copula,
    anchored_reading,
    neighbour_rival,
    only_other_person,
    unplaced_name_findings,
)
from ragguard.scoring.checks.openings import opening_name_findings
from ragguard.scoring.checks.parse import MIN_SHARED, Sentence, content_of, overlap
from ragguard.scoring.checks.places import PlaceWords, in_cleft, place_words, placed
from ragguard.scoring.checks.proper_names import (
    name_articles,
    name_keys,
    spelled_out_acronym,
    word_keys,
)
from ragguard.scoring.checks.slots import (
    MIN_ANCHOR,
    Reading,
    RivalRule,
    Slot,
    first_led_rival,
    listed_together,
    rival_value,
)
from ragguard.scoring.checks.words import (
    WORD,
    lower_case_words,
    two_words_before,
    written_two_ways,
)
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in, stopwords_of

_BY_LEAD = RivalRule(by_lead=True)


@cache
def _opening_article(language: str) -> re.Pattern[str]:
    """An article of the language's ``[clauses] articles`` opening a sentence, a whole word
    ("Elena Marsh" opens with no "el"; "Die Harlow-Brücke" with "Die"), or an elided one
    ("L'entreprise")."""
    found = lexicon(language)
    articles = found.clauses.get("articles", ()) if found is not None else ()
    whole = phrase_pattern(a for a in articles if not a.endswith("'")).pattern
    elided = "".join(f"|{re.escape(a)}" for a in articles if a.endswith("'"))
    return re.compile(rf"^\W*(?:{whole}{elided})\s*", re.IGNORECASE)


def _without_article(text: str, language: str) -> str:
    """``text`` less the article it opens with."""
    return _opening_article(language).sub("", text, count=1)


def name_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """Names of the claim that the on-topic sentence fills with another name, none of whose
    words or roots the claim holds. A verb that says where a thing is (the language's
    ``[names]`` ``place_verbs``: "Der Eiffelturm steht in Berlin") is no part of what a name
    is of: a passage says where a thing is with other verbs, or none. The name opening the
    claim, where the passage states it nowhere and opens with a pronoun ("She took a teaching
    position at Concord High School"), is what the pronoun may stand for: the passage's other
    names fill other slots."""
    found = _findings(claim, sentences)
    if not found or not sentences or not opens_with_pronoun(sentences[0].text, claim.language):
        return found
    opening = _without_article(claim.text, claim.language)
    return [r for r in found if not _pronoun_subject(r, opening, sentences)]


def _pronoun_subject(reason: Reason, opening: str, sentences: tuple[Sentence, ...]) -> bool:
    """Whether the reason reads the claim's opening name, which the passage states nowhere."""
    own = name_keys(reason.claim)
    return opening.startswith(reason.claim) and not any(own & s.keys for s in sentences)


def _findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    findings: list[Reason] = []
    if not claim.names:
        return marked_name_findings(claim, sentences) or opening_name_findings(claim, sentences)
    found = lexicon(claim.language)
    place_verbs = found.place_verbs if found is not None else frozenset()
    common = _common_words(claim, sentences)
    rivals = [
        tuple(
            n
            for n, keys in zip(s.names, s.name_keys, strict=True)
            if keys and not holds_name(_core_keys(n, keys, common), n, claim)
        )
        for s in sentences
    ]
    for name, keys in zip(claim.names, claim.name_keys, strict=True):
        own = _less_article(name, keys, claim.language)
        if not own:
            continue  # a lone letter ("Q2", "A & E") has no key to look up
        core = _core_keys(name, own, common)
        readings = tuple(
            Reading(s, holds_name(core if _sibling(name, others, common) else own, name, s), others)
            for s, others in zip(sentences, rivals, strict=True)
        )
        context = claim.content - content_of(name, claim.language) - place_verbs
        slot = Slot(claim, name, context, readings)
        value = rival_value(slot, _BY_LEAD)
        # a cleft's place ("C'est Dunmore qui ...") is a subject: read by the name nearest it
        cleft = not slot.stated and in_cleft(claim.language, claim.text, name)
        if value is None and not slot.stated:
            value = _short_claim_rival(slot)
            value = value or (None if cleft else _place_rival(slot, place_words(claim.language)))
        if value is None:
            value = _subject_rival(slot, own) or class_rival(slot, own)
        if value is None and not slot.stated:
            value = _swapped_name(slot, claim, name) or neighbour_rival(slot, claim, name, cleft)
            value = value or only_other_person(claim, sentences, name)
        if value is not None and not written_two_ways(name, value):
            findings.append(Reason("entity", name, value))
    findings = findings or unplaced_name_findings(claim, sentences, rivals, place_verbs)
    return findings or opening_name_findings(claim, sentences)


def _less_article(name: str, keys: frozenset[str], language: str) -> frozenset[str]:
    """A name's keys less those of an article opening it ("Le" of "Le Cyrrus", "La" of "La
    Norvège"): a passage writes the article before other words too ("Le lac Vatna"), which
    says nothing of the name."""
    first, _, rest = name.partition(" ")
    if not rest or first.lower() not in name_articles(language):
        return keys
    return (keys - word_keys(first)) or keys


def holds_name(keys: frozenset[str], name: str, sentence: Sentence) -> bool:
    """Whether a sentence holds one of a name's keys. Where the only key it holds is the
    acronym the name spells out, the sentence must write that acronym ("UN" for "United
    Nations"): another name of many words with the same initials is another name ("Li Wei"
    is no "Lukas Weber")."""
    hits = keys & sentence.keys
    if len(hits) != 1:
        return bool(hits)
    acronym = spelled_out_acronym(name)
    if hits != {acronym}:
        return True
    written = zip(sentence.names, sentence.name_keys, strict=True)
    return any(acronym in word_keys(w) for w in sentence.words) or any(
        acronym in k and not spelled_out_acronym(n) for n, k in written
    )


def _common_words(claim: Sentence, sentences: tuple[Sentence, ...]) -> frozenset[str]:
    """Words the claim or passage writes in lower case: a name's first or last word among
    them is a common noun ("bridge" of "Rowan Bridge" in "the longest bridge"). Where the
    language capitalizes every noun, its words outside names too ("Brücke" of "die längste
    Brücke")."""
    found = lower_case_words(claim.text).union(*(lower_case_words(s.text) for s in sentences))
    found |= _shared_edges(claim, sentences)
    read = lexicon(claim.language)
    if read is None or not read.nouns_capitalized:
        return found
    named = {w.lower() for s in (claim, *sentences) for n in s.names for w in n.split()}
    nouns = {w.lower() for s in (claim, *sentences) for w in WORD.findall(s.text)}
    return found | {w for w in nouns if "-" not in w} - named


def _shared_edges(claim: Sentence, sentences: tuple[Sentence, ...]) -> frozenset[str]:
    """Words that say what kind of thing two names are, or whose family, not which: the
    first or last word of a claim's name that opens or ends a passage name of as many
    words, all its other words plainly other words ("Lake" of "Lake Tessel" and "Lake
    Vorna", "Museum" of "Brask Museum" and "Orlen Museum", "Lukas" of "Lukas Brandt" and
    "Lukas Weber"; not of "Phillip D'Antoni" and "Philip D'Antoni")."""
    mine = [words for n in claim.names if len(words := _lower_words(n)) > 1]
    lengths = {len(words) for words in mine}
    passage = {w for s in sentences for n in s.names if len(w := _lower_words(n)) in lengths}
    shared: set[str] = set()
    for words in mine:
        for other in passage:
            if len(other) != len(words):
                continue
            if other[-1] == words[-1] and _plainly_other(words[:-1], other[:-1]):
                shared.add(words[-1])
            if other[0] == words[0] and _plainly_other(words[1:], other[1:]):
                shared.add(words[0])
    return frozenset(shared)


OTHER_LETTERS = 2
"""Letters from their start two name words share where they may be one name spelt two ways
("Phillip" and "Philip", "Steven" and "Stephen")."""


def _plainly_other(words: tuple[str, ...], others: tuple[str, ...]) -> bool:
    """Whether the words differ from those in their places, each that differs plainly
    (``_spelt_alike``) and none an initial ("R.", "F.C."); a word may be the same in both
    ("de" of "Musée Brask de Tallinn" and "Musée Orlen de Tallinn")."""
    elided = [(_unelided(a), _unelided(b)) for a, b in zip(words, others, strict=True)]
    differing = [(a, b) for a, b in elided if a != b]
    return bool(differing) and all(
        not _spelt_alike(a, b)
        and len(a) > OTHER_LETTERS
        and len(b) > OTHER_LETTERS
        and "." not in a + b
        for a, b in differing
    )


def _spelt_alike(first: str, second: str) -> bool:
    """Whether two name words may be one name spelt two ways: the same first letters, and one
    a short form of the other ("Alex", "Alexander") or a few letters apart, a third of the
    longer at most ("Aleksandr", "Alexander"). "Weber" and "Wegener", "Durand" and "Dupont"
    are two names."""
    if first[:OTHER_LETTERS] != second[:OTHER_LETTERS]:
        return False
    if first.startswith(second) or second.startswith(first):
        return True
    return edit_distance(first, second) <= max(1, max(len(first), len(second)) // 3)


def _unelided(word: str) -> str:
    """A name's word less an elided particle ("neill" of "o'neill", "antoni" of "d'antoni"):
    "O'Neill" and "O'Brien" differ from their first letters on."""
    return re.sub(r"^[^\W\d_]['’]", "", word)


def _core_keys(name: str, keys: frozenset[str], common: frozenset[str]) -> frozenset[str]:
    """A name's keys less a first or last word that is a common noun (``_common_words``):
    "Rowan Bridge" and "Millbrook Bridge" are two bridges, not one name."""
    words = _name_words(name)
    if len(words) > 1 and words[-1].lower() in common:
        return name_keys(" ".join(words[:-1]))
    if len(words) > 1 and words[0].lower() in common:
        return name_keys(" ".join(words[1:]))
    return keys


@memoized(entries=16_384)
def _name_words(name: str) -> tuple[str, ...]:
    """A name's words, a hyphen's parts apart ("Kellan-Brücke": "Kellan", "Brücke"), less a
    particle written in lower case inside a name with capitals ("di" of "Marco di Lauro": it
    says nothing of which family). Memoized: each claim name meets every passage name."""
    words = tuple(re.split(r"[\s-]+", name.strip()))
    if not any(w[:1].isupper() for w in words):
        return words
    return tuple(w for w in words if not w.islower()) or words


def _lower_words(name: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _name_words(name))


def _sibling(name: str, others: tuple[str, ...], common: frozenset[str]) -> bool:
    """Whether a rival ends or opens with the same common noun as ``name`` ("Millbrook
    Bridge" beside "Rowan Bridge"): there that word says what kind of thing, not which."""
    edges = _edges(name) & common
    return bool(edges) and any(_edges(o) & edges for o in others)


@memoized(entries=16_384)
def _edges(name: str) -> frozenset[str]:
    """A name's first and last word, lower case; none for a one-word name."""
    words = _name_words(name.lower())
    return frozenset((words[0], words[-1])) if len(words) > 1 else frozenset()


def _swapped_name(slot: Slot, claim: Sentence, name: str) -> str | None:
    """The one full name of the on-topic sentence that the claim does not hold, when the
    claim holds a full name (two words or more) the passage states nowhere and the sentence
    states everything else the claim says: one person put for another, wherever the name
    stands ("David Okoye's firm, Willow Press, began in Berlin" against "Diego Navarro
    started Willow Press in Berlin"; "la création de Mira Chandra" against "Greta Holm a
    créé"). One word ("Century", "Langley") may be anything."""
    if len(name.split()) < 2:
        return None
    best = anchored_reading(slot, claim, name)
    if best is None:
        return None
    rivals = [r for r in best.rivals if len(r.split()) > 1]
    if len(rivals) > 1:  # a person for a person, a place for a place ("in New York")
        places = place_words(claim.language)
        is_place = placed(places, claim.text, name)
        rivals = [r for r in rivals if placed(places, best.sentence.text, r) == is_place]
    return rivals[0] if len(rivals) == 1 else None


def _short_claim_rival(slot: Slot) -> str | None:
    """A claim too short for the anchor's shared words ("Kilimanjaro is in Kenya"): the
    sentence that holds all its other content words and fills the value's place (the same
    word before it) with another name."""
    if not slot.context or len(slot.context) >= MIN_SHARED:
        return None
    last = two_words_before(slot.claim.text, slot.value)[-1:]
    if not last:
        return None
    for reading in slot.readings:
        if slot.context <= reading.sentence.content:
            for rival in reading.rivals:
                if two_words_before(reading.sentence.text, rival)[-1:] == last:
                    return rival
    return None


def _place_rival(slot: Slot, places: PlaceWords | None) -> str | None:
    """A place the passage states nowhere, after a word that says where ("near Bordeaux"),
    where the on-topic sentence has another place after one ("in Hamburg"). A sentence is
    on topic when it holds the claim's share of context words, or every word the claim
    capitalizes besides the place: a one-word subject anchors a short claim ("Amberline
    comes from Vilnius" against "Nora Quist started Amberline in Tallinn")."""
    if not placed(places, slot.claim.text, slot.value):
        return None
    named = _capitalized_context(slot)
    return first_led_rival(
        slot,
        lambda s, rival: (
            placed(places, s.text, rival)
            and (overlap(slot.context, s) >= MIN_ANCHOR or bool(named and named <= s.content))
        ),
    )


def _capitalized_context(slot: Slot) -> frozenset[str]:
    """The claim's content words it writes capitalized, other than the value's words."""
    language = slot.claim.language
    capitalized = {w.lower() for w in WORD.findall(slot.claim.text) if w[:1].isupper()}
    return slot.context & {stem_in(language, w) for w in capitalized}


def _may_join(slot: Slot, sentence: Sentence) -> bool:
    """Whether a sentence that names the claim's subject may give part of what the claim
    says of it: it shares the claim's other words, or says nothing but names (a title: "Charles
    Manson ."); not "Her partner Lukas Weber ran the sales office." against "Lukas Weber
    founded Northwind Works", which the sentence about the founding gives to another. A
    sentence right before that one may join too (``_subject_rival``)."""
    named = frozenset().union(*sentence.name_keys)
    return bool(overlap(slot.context, sentence)) or len(sentence.content - named) < MIN_SHARED


def _of_another(slot: Slot, reading: Reading) -> bool:
    """Whether the sentence, naming the claim's subject, says the claim's words of another
    thing: a name it writes stands where another name of the claim stands (after the same
    word: "designed the Rowan Bridge" against "designed the Kellan Bridge"), so it gives
    that name nothing to join."""
    claim = slot.claim
    for other in claim.names:
        lead = two_words_before(claim.text, other)[-1:]
        if other == slot.value or not lead:
            continue
        if any(two_words_before(reading.sentence.text, r)[-1:] == lead for r in reading.rivals):
            return True
    return False


VERB_PREFIX = 4
"""Letters two forms of one verb share from their start ("entwarf", "entworfen"; "diseñó",
"diseñado") in a language the checks do not stem."""


def _agent_of(slot: Slot, text: str, rival: str) -> bool:
    """Whether ``rival`` is the agent of a passive whose verb the claim writes ("designed by
    Eiffel" for "Koechlin designed the tower"; "wurde von Brandt entworfen" for "Weber
    entwarf den Turm"): "It was directed by Steven Soderbergh, and stars George Clooney"
    gives the directing to another, not the starring. The verb is the word before "by", or
    the word after the agent where the language puts it there."""
    before, _, after = text.partition(rival)
    if not AGENT_BEFORE.search(before):
        return False
    claim, stops = slot.claim, stopwords_of(slot.claim.language)
    verbs = WORD.findall(before)[-2:-1]  # "designed" of "was designed by "
    following = WORD.match(after.lstrip(" "))  # no mark between: "von Brandt entworfen"
    if following is not None:
        verbs.append(following.group())
    prefixes = {w[:VERB_PREFIX] for w in set(claim.words) - stops}
    return any(
        stem_in(claim.language, verb) in claim.content
        or (len(verb) >= VERB_PREFIX and verb[:VERB_PREFIX] in prefixes)
        for verb in (v.lower() for v in verbs)
        if verb not in stops
    )


def _subject_rival(slot: Slot, own: frozenset[str]) -> str | None:
    """The claim's subject, when the on-topic sentence says the same of another subject
    ("Koechlin designed the tower" against "Eiffel designed the tower"): the claim opens with
    the name, the sentence holding most of the claim's other words (at least
    ``SUBJECT_ANCHOR`` of them) has another name for subject, or for the agent of its
    passive ("built by Mira Chandra"), and names the claim's only
    outside its subject ("Tamil Nadu is a composer" against "Harris Jayaraj is a composer
    from Chennai, Tamil Nadu"), or not at all."""
    opening = _without_article(slot.claim.text, slot.claim.language)
    if not opening.startswith(slot.value) or len(slot.context) < MIN_SHARED:
        return None
    best, share = None, 0.0
    for reading in slot.readings:
        held = len(slot.context & reading.sentence.content) / len(slot.context)
        if held > share:
            best, share = reading, held
    if best is None or share < max(SUBJECT_ANCHOR, MIN_ANCHOR):
        return None
    at = slot.readings.index(best)
    for index, reading in enumerate(slot.readings):
        if index == at or not reading.states:
            continue
        near = index == at - 1  # it may be what the best sentence's pronoun stands for
        if (near or _may_join(slot, reading.sentence)) and not _of_another(slot, reading):
            return None  # named elsewhere beside the claim's words: it may join two sentences
    text = best.sentence.text
    leading = _without_article(text, best.sentence.language)
    rival = next((r for r in best.rivals if re.match(rf"{re.escape(r)}\b", leading)), None)
    if rival is None:  # the agent of a passive ("was built by Mira Chandra")
        rival = next((r for r in best.rivals if _agent_of(slot, text, r)), None)
    if rival is not None and listed_together(text, rival, slot.value):
        return None  # "produced by Kenneth Edmonds, Tracey Edmonds and Robert Teitel"
    if rival is None or not best.states:
        return rival
    found = subject(text, best.sentence.language)
    before = text.split(slot.value)[0]
    if found is None or own & name_keys(found) or AGENT_BEFORE.search(before):
        return None  # the claim's name is the subject too, or the agent of a passive
    if after_copula(before, slot.claim.language):
        return None  # "The most successful traveller was undoubtedly Serge Diaghileff"
    for clause in clauses_of((best.sentence,))[1:]:  # "..., and the Rowan Bridge opened"
        of_clause = subject(clause.text, clause.language)
        said = slot.context & clause.content and slot.context <= best.sentence.content
        if said and of_clause is not None and own & name_keys(of_clause):
            return None  # the subject of a clause that says the claim's words, or its sentence
    return rival
