"""Clauses: one sentence often holds the dates of several events, so a value is read with
the words of its own clause ("founded in 1994, and acquired ... in 2002")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ragguard.language import lexicon, section
from ragguard.runtime import memoized
from ragguard.scoring.checks.antecedents import antecedent_lists, listed_verb, subject
from ragguard.scoring.checks.dates import months_in
from ragguard.scoring.checks.named_numbers import ends_a_name
from ragguard.scoring.checks.numbers import Quantity, quantities
from ragguard.scoring.checks.parse import Sentence, content_of
from ragguard.scoring.checks.quantity_match import comparable, same_quantity
from ragguard.scoring.checks.ranges import ranges
from ragguard.scoring.checks.words import WORD, lower_content, told_alike
from ragguard.scoring.lexical.text import stem, stopwords_of

MIN_PREDICATE = 0.5
"""A clause is about the claim's value when it holds more than this share of the words
that say what the value is of (``clause_rival``)."""
CLAUSE_BREAK = re.compile(r"\s*(?:[;()\[\]]|[:,](?!\s*\d)|\s--?\s|–|—|-[LR]RB-)\s*")
"""Where a clause ends: punctuation and dashes, but not a comma or colon before a digit
("March 30, 2015", "87,894", "8:33")."""
VALUE_CLAUSE_BREAK = re.compile(
    r"\s*(?:[;()\[\]]|[:,](?!\s*\d)|(?<=[^\W\d_]|[\u0900-\u0963]),|(?:\s--?\s|–)(?!\s*\d)|—|-[LR]RB-)\s*"
)
"""Where the clause a value is read in ends: as ``CLAUSE_BREAK``, and a comma after a word
before a digit too ("wurde 1912 gebaut, 1942 geschlossen"), but not a dash before a digit
(the span "1963 -- 2006" is one value)."""

MAX_SHARED_SUBJECT = 10
"""Words a sentence's subject may take before its verb, when clauses without a subject of
their own share it ("Le vieux pont du port de Riga a été construit en 1862, fermé en
1931")."""


@dataclass(frozen=True, slots=True)
class ClauseValues:
    """What a value check reads of one clause: its lower-case content words
    (``lower_content``) and its quantities (``ragguard.spans.clauses.Clause`` is the other
    kind: a clause an opinion can be set aside by)."""

    content: frozenset[str]
    quantities: tuple[Quantity, ...]
    own: frozenset[str]
    """The content words the clause writes itself: ``content`` less its sentence's subject
    words, which a clause with no subject of its own holds too."""
    spans: tuple[tuple[float, float], ...] = ()
    """Its spans of values ("1914 -- 1918"), low to high."""


@memoized(entries=16_384)
def clauses(sentence: str, language: str = "en") -> tuple[ClauseValues, ...]:
    """A sentence cut into clauses, each with its words and its quantities. A clause with no
    subject of its own ("The old bridge was built in 1862, closed in 1931, and ...") is
    about the sentence's subject, so it holds that subject's words too."""
    parts = [p for p in VALUE_CLAUSE_BREAK.split(sentence) if p]
    found = _shared_subject(sentence, parts[0], language) if len(parts) > 1 else None
    shared = _content(found, language) if found else frozenset()
    out: list[ClauseValues] = []
    for i, part in enumerate(parts):
        own = _content(part, language)
        inherited = shared if i and _continues(part, language) else frozenset()
        if i and _gapped(part, language):  # the verb it leaves out is the clause's before
            own, inherited = own | out[-1].own, out[-1].content
        values = quantities(part, language)
        out.append(ClauseValues(own | inherited, values, own, ranges(part, language)))
    return tuple(out)


def _gapped(clause: str, language: str) -> bool:
    """Whether a clause leaves out the verb of the clause before it: a conjunction, then one
    of the language's ``[clauses] gap_openers`` ("and into the Vocal Group Hall of Fame in
    2001", "et au conseil du prix Larsen en 1920"), a word that is no function word, and no
    verb (``[antecedents] verbs`` and ``verb_endings``). Not "and Frey in 2001": a name right
    after the conjunction is a subject of its own; nor "and in 1952, he won ...": a value
    alone opens the next clause."""
    found = lexicon(language)
    if found is None:
        return False
    if verb_final(language):
        return _gapped_at_end(clause, language, found.clauses.get("gap_closers", ()))
    words = _LETTERS.findall(clause)
    openers = found.clauses.get("gap_openers", ())
    if len(words) < 3 or words[0] not in _conjunctions(language) or words[1] not in openers:
        return False
    stops = stopwords_of(language)
    rest = [w.lower() for w in words[2:]]
    if any(listed_verb(w, language) for w in rest):
        return False
    return any(w not in stops for w in rest)


def _gapped_at_end(clause: str, language: str, closers: tuple[str, ...]) -> bool:
    """In a language whose verb closes the clause, a clause that opens with a conjunction
    and a value, names something and closes with one of ``[clauses] gap_closers`` (a
    postposition, no verb): "और 1810 में ऑर्विन पुरस्कार बोर्ड के लिए" leaves out the verb
    before. Not "और लुकास वेबर 1810 में ...": a subject of its own comes before its value."""
    text = clause.strip().rstrip("।.!? ")
    joined, rest = _after_conjunction(text, language)
    closes = any(text.endswith(f" {c}") for c in closers)
    return joined and rest[:1].isdigit() and closes and bool(content_of(rest, language))


@cache
def _conjunctions(language: str) -> tuple[str, ...]:
    """The language's ``[clauses] conjunctions``."""
    found = lexicon(language)
    return found.clauses.get("conjunctions", ()) if found is not None else ()


def _after_conjunction(clause: str, language: str) -> tuple[bool, str]:
    """Whether a clause (split at its first space) opens with a conjunction, and what
    follows it; the whole clause where none opens it ("और 1838 में ...": "1838 में ...")."""
    text = clause.strip()
    head, _, rest = text.partition(" ")
    return (True, rest) if head in _conjunctions(language) else (False, text)


@dataclass(frozen=True, slots=True)
class ValueOrder:
    """A language's ``[values]`` table: where its sentences say what a value is of."""

    verb_final: bool = False
    """The verb comes last ("पुल 1942 में बना, 1838 में बंद हुआ"): a sentence's subject is the
    words before its first value, and a clause opening with a value shares it."""
    lead_after: bool = False
    """A value stands before the verb that says what it is of ("1838 में बंद हुआ", "wurde
    1931 veröffentlicht"): the words after it lead to it, not the subject before it."""


@cache
def value_order(language: str) -> ValueOrder:
    return section(language, "values", ValueOrder)


def verb_final(language: str) -> bool:
    return value_order(language).verb_final


_FIRST_VALUE = re.compile(r"\d")


def _shared_subject(sentence: str, first: str, language: str) -> str | None:
    """The subject a sentence's clauses share: ``antecedents.subject``, or in a verb-final
    language the words of its first clause before its first value."""
    if not verb_final(language):
        return subject(sentence, language, MAX_SHARED_SUBJECT)
    value = _FIRST_VALUE.search(first)
    return first[: value.start()] if value else None


_LETTERS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
"""A word, not a number: a clause's first word after a date is still its first word ("1931
geschlossen")."""


def _continues(clause: str, language: str) -> bool:
    """Whether a clause opens, after a conjunction, with a verb: one of the language's
    ``[antecedents] verbs`` or a lower-case word that is no function word ("closed in 1931",
    "and was demolished", "fermé en 1987") and has no subject before a verb ("adjusted EBITDA
    was up 21%"). An article or pronoun opens a subject of its own. In a verb-final language,
    a clause opening with a value continues ("1838 में बंद हुआ")."""
    if verb_final(language):  # "1838 में बंद हुआ": a value, then its verb
        return _after_conjunction(clause, language)[1][:1].isdigit()
    first = _LETTERS.search(clause)
    if first and first.group() in _conjunctions(language):
        clause = clause[first.end() :]
        first = _LETTERS.search(clause)
    if first is None:
        return False
    word = first.group()
    verbs = antecedent_lists(language).get("verbs", frozenset())
    opens = word in verbs or (word.islower() and word not in stopwords_of(language))
    return opens and subject(clause, language) is None


@memoized(entries=1024)
def _clause_texts(text: str) -> tuple[str, ...]:
    """A claim's clauses as written, split once however many values ask."""
    return tuple(VALUE_CLAUSE_BREAK.split(text))


MIN_TOPIC = 3
"""Content words a value's clause must give, with its sentence's subject, for passage
sentences to be weighed by them; with fewer ("In 2002, ..."), the whole claim weighs."""


def topic_words(claim: Sentence, q: Quantity, written: frozenset[str]) -> frozenset[str]:
    """What ``q`` is about, less ``written`` (the value's own words), to weigh which passage
    sentence talks of it: in a claim of several clauses, the content words of its own clause
    and of the sentence's subject. "The U.K. business will do well for the rest of 2021, and
    earnings rose on the first quarter of 2019" weighs 2021 by the business, not by the
    earnings of another clause."""
    topics = _clause_topics(claim.text, claim.language)
    words = next((w - written for clause, w in topics if q.text in clause), frozenset())
    return words if len(words) >= MIN_TOPIC else claim.content - written


@memoized(entries=1024)
def _clause_topics(text: str, language: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each clause of a claim of several, with its ``topic_words``: read once per claim,
    however many values ask (none for a claim of one clause)."""
    parts = [c for c in _clause_texts(text) if c]
    if len(parts) < 2:
        return ()
    found = _shared_subject(text, parts[0], language)
    shared = content_of(found, language) if found else frozenset()
    return tuple((c, content_of(c, language) | shared) for c in parts)


def predicate_words(claim: Sentence, q: Quantity) -> frozenset[str]:
    """The words that say what ``q`` is of: the lower-case content of the claim's clause
    holding it, or of the whole claim when that clause has none ("In 2002, ...")."""
    clause = next((c for c in _clause_texts(claim.text) if q.text in c), "")
    return _content(clause, claim.language) or _content(claim.text, claim.language)


@memoized(entries=16_384)
def _content(text: str, language: str = "en") -> frozenset[str]:
    """``lower_content`` less the language's own function words ("wurde", "de") and months
    written in lower case ("juin": part of a date, not of what it dates); in a script with no
    case, every content word. Read once per clause: every value of a claim asks for its
    clause, and a one-clause claim with n numbers would otherwise be read n times."""
    found = lower_content(text)
    read = lexicon(language)
    if read is not None and read.script != "latin":  # no case: every content word counts
        words = content_of(text, language)
        return frozenset(w for w in words if not w[:1].isdigit() and not months_in(w, language))
    stops = stopwords_of(language)
    kept = (w for w in WORD.findall(text) if w.islower() and w not in stops)
    return frozenset(stem(w) for w in kept if not months_in(w, language)) & found


def clause_rival(
    claim: Sentence,
    q: Quantity,
    sentences: tuple[Sentence, ...],
    claimed: Callable[[Quantity], bool] | None = None,
) -> str | None:
    """A value the passage states, but never in a clause with most of the claim's predicate
    words, which sit in a clause beside another value of its kind ("founded in 1994, and
    acquired ... in 2002" against "founded in 2002" gives "1994"). ``claimed``: whether an
    evidence value is one the claim states (worked out once per claim by the caller).

    A number that ends a title ("Flight 77", "Team Fortress 2") is left to the other rules."""
    if ends_a_name(claim, q):
        return None
    predicate = predicate_words(claim, q)
    stop = stopwords_of(claim.language)
    written = ((s.text, e.text) for s in sentences for e in s.quantities if same_quantity(q, e))
    after_only = value_order(claim.language).lead_after
    if not predicate or told_alike(claim.text, q.text, written, stop, after_only):
        return None  # "the 2011 Giro d'Italia" in a clause of its own: told by what it is of
    if claimed is None:
        claimed = stated_in_claim(claim)
    best, rival, stated = MIN_PREDICATE, None, 0.0
    for sentence in sentences:
        for clause in clauses(sentence.text, sentence.language):
            cover = len(predicate & clause.content) / len(predicate)
            if cover <= MIN_PREDICATE or not predicate & clause.own:
                continue  # a clause is about the value by a word of its own ("ended in 1977")
            spanned = not q.bound and any(low <= q.value <= high for low, high in clause.spans)
            if spanned or any(same_quantity(q, e) for e in clause.quantities):
                stated = max(stated, cover)
                continue
            same_kind = [e for e in clause.quantities if comparable(q, e)]
            if any(claimed(e) for e in same_kind):
                continue  # the clause of another value of the claim ("19% and 38%")
            if same_kind and cover > best:
                best, rival = cover, same_kind[0].text
    return rival if best > stated else None


def stated_in_claim(claim: Sentence, *, spans: bool = False) -> Callable[[Quantity], bool]:
    """Whether an evidence value is one of the claim's own (``same_quantity`` with any of
    them; ``spans``: or a decade or century that holds one), remembered per value, so a claim
    with n values costs O(n) per distinct evidence value, not per pair of claim values."""
    known: dict[Quantity, bool] = {}

    def claimed(e: Quantity) -> bool:
        found = known.get(e)
        if found is None:
            wide = spans and e.kind in ("decade", "century")
            found = known[e] = any(
                same_quantity(c, e) or (wide and same_quantity(e, c)) for c in claim.quantities
            )
        return found

    return claimed
