"""The shapes of tables every language may have, read by ``section`` and the lexicon: how it
writes a decade and a century, how a claim ranks its subject, and the frames around a name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PeriodWords:
    """A language's ``[periods]`` table: how it writes a decade and a century."""

    decade_before: tuple[str, ...] = ()
    """Words before a decade's first year ("années" 1890)."""
    decade_after: tuple[str, ...] = ()
    """Words after it, spaced ("1960 के दशक") or glued (German "1960er")."""
    decade_parts: Mapping[str, float] = field(default_factory=dict)
    """Words before a decade naming a part of it, by the part's first year ("late": 6)."""
    century_before: tuple[str, ...] = ()
    """Words before a century's rank ("siglo" XVIII)."""
    century_after: tuple[str, ...] = ()
    """Words after it ("18. Jahrhundert", "XVIIIe siècle", "18वीं सदी")."""
    rank_endings: tuple[str, ...] = ()
    """What a rank in digits or Roman numerals ends with ("XVIIIe siècle", "der 2. größte",
    "la 6.ª estación": ``checks.digit_ranks``)."""
    decade_words: Mapping[str, float] = field(default_factory=dict)
    """A decade in words, by its tens ("twenties": 20); after ``decade_before`` where the
    language has it ("années vingt"): its century is the passage's."""
    century_parts: Mapping[str, float] = field(default_factory=dict)
    """Words before a century naming a part of it, by the part's first year within it
    ("late": 60; ``checks.periods.CENTURY_PART_YEARS`` long)."""
    century_halves: Mapping[str, float] = field(default_factory=dict)
    """Words before a century naming a half of it, by its first year ("second half of
    the": 50)."""
    decade_written: str = "{year}"
    """How a decade is written in digits ("{year}s": "1920s")."""
    century_nouns: tuple[str, ...] = ()
    """The words after a century's rank in words, where ``century_after`` is not read."""
    century_written: str = ""
    """How a century's rank is written in digits before ``century_after`` ("{rank}th")."""
    ordinal_endings: tuple[str, ...] = ()
    """The ending of a rank in words and, after a space, the ending of its number in words
    ("ieth y", "th"): a century's rank in words ("the nineteenth century") is read as its
    number ("nineteen") in digits, the longest ending first."""


@dataclass(frozen=True, slots=True)
class SuperlativeCues:
    """A language's ``[superlatives]`` table: the words a claim ranks its subject with."""

    after: frozenset[str] = frozenset()
    """Words a cue follows ("the"); none: a cue counts anywhere."""
    ordinals: Mapping[str, float] = field(default_factory=dict)
    """Ranks that may stand between ("the second-largest"), by value: "segundo" and
    "segunda" rank alike, and "the 2nd" reads as the first word of its value."""
    analytic: frozenset[str] = frozenset()
    """Cues read with the word after them ("most visited", "plus haute")."""
    words: frozenset[str] = frozenset()
    """Cues by themselves ("only", "first")."""
    endings: tuple[str, ...] = ()
    """Endings that make a word a cue ("tallest")."""
    not_superlative: frozenset[str] = frozenset()
    """Words with such an ending that rank nothing ("forest")."""
    compounds: bool = False
    """Whether the language joins nouns into one word, so that a word ending in one of
    ``not_superlative`` ranks nothing either ("Fahrgäste": "Gäste")."""
    noun_between: bool = False
    """Whether a noun may stand between ``after`` and an analytic cue ("el puente más
    largo")."""
    adverb_endings: tuple[str, ...] = ()
    """Endings that make an adjective an adverb ("directly"): "sunlight strikes directly"
    may say "the most direct sunlight"."""
    ranking_words: frozenset[str] = frozenset()
    """Words that rank without a cue's form ("leading", "debut", "than"): a passage that
    writes one may state a claim's ranking in other words."""
    among: tuple[str, ...] = ()
    """Phrases that rank a thing among others, not alone ("one of", "l'une des"): "one of
    the busiest" does not state "the busiest"."""
    among_follows: bool = False
    """Whether ``among`` comes after the ranking ("सबसे व्यस्त स्टेशनों में से एक"), not
    before it."""
    than: frozenset[str] = frozenset()
    """The words that name what a comparison is against ("than", "als", "que", "से"): "no
    bridge is longer than A" ranks A as "the longest"; "A is higher than B" and "B is lower
    than A" say one thing with opposite words."""
    none: frozenset[str] = frozenset()
    """Words that say no thing of a kind ("no", "kein", "aucun", "ningún", "कोई"): a negated
    comparison ranks only after one ("no bridge is longer than A"; "A is not longer than B"
    ranks nothing)."""
    than_equal: frozenset[str] = frozenset()
    """The words that close a comparison of equals ("as" of "as long as", "wie", "como",
    "जितना"): negated, it ranks as ``than`` does ("no other bridge is as long as A")."""
    partitive: tuple[str, ...] = ()
    """Words between a ranking with no noun and the group it ranks within ("the longest of
    Riga's bridges", "le plus long des ponts", "el más largo de los puentes")."""
    widest: frozenset[str] = frozenset()
    """Words of the widest scope a ranking may have ("world": "the longest bridge in the
    world"): a passage that ranks within a narrower one does not state it."""
    coordinators: frozenset[str] = frozenset()
    """Words that join two rankings of one thing ("the longest and oldest bridge"): the
    second ranks what the first does."""
    than_all: tuple[str, ...] = ()
    """Phrases that make a comparison one with all others ("than any other", "als jede
    andere", "किसी भी अन्य ... से"): "A is longer than any other bridge" ranks A "the
    longest"."""
    than_others: tuple[str, ...] = ()
    """Phrases that make a comparison one with all others only where nothing but a place
    follows their noun ("than the other bridges in Riga", "que les autres ponts de Riga");
    "than the other lakes nearby" compares with a few."""
    compared_after: bool = False
    """Whether the compared word follows ``than`` ("से लंबा"), not precedes it ("longer
    than")."""
    modifiers_follow: bool = False
    """Whether an adjective that narrows a ranked noun follows it ("le plus grand lac
    naturel"), as well as standing between ("el lago natural más grande")."""
    scope_before: bool = False
    """Whether the place a ranking ranks within stands before it ("रीगा की सबसे ऊँची
    इमारत"), not after it ("the tallest building in Riga")."""
    qualifiers: frozenset[str] = frozenset()
    """Words that open a restriction right after a ranking's place ("that", "built":
    "the longest bridge in Riga built of stone"): the ranking is within what it restricts."""
    participle_endings: tuple[str, ...] = ()
    """Endings of the past participles that open such a restriction ("ed", "é", "ado")."""
    relatives_after_comma: frozenset[str] = frozenset()
    """Relative pronouns that open a restriction after a ranking's place past a comma, where
    the language writes one before every relative clause (German "die einzige Brücke in Riga,
    die Züge trägt"): read so where the clause ends in a word with no capital, its verb."""
    place_kinds: frozenset[str] = frozenset()
    """Nouns that name a place's kind, not a part of it ("the city of Riga", "la ville de
    Riga"): they narrow no ranking's scope."""
    held_until: tuple[str, ...] = ()
    """Phrases beside a ranking that bound it in time ("until 1960", "once", "einst",
    "jusqu'en", "hasta", "तक"): it does not state that the ranking holds now."""
    past: frozenset[str] = frozenset()
    """Past forms of the verb a ranking is stated with ("was", "war", "était", "era", "था"):
    beside it and a year ("In 1900 it was the longest"), the ranking held then."""
    present: frozenset[str] = frozenset()
    """Verbs that claim a ranking holds now ("is", "ist", "est", "es", "है")."""
    runner_up: tuple[str, ...] = ()
    """Words before another thing of the kind a ranking ranks that make its subject second
    ("the largest lake in Latvia after Lake Vorna", "nach dem Vorna-See", "après le lac
    Vorna"); after it where ``among_follows`` ("वोर्ना झील के बाद")."""
    first_ranks: frozenset[str] = frozenset()
    """The first rank as an ordinal ("first", "erster", "premier", "primer", "पहले"), read
    beside a ranked noun with no superlative ("ranks first among the lakes")."""
    occasions: frozenset[str] = frozenset()
    """Nouns of idioms a first rank opens that rank no thing ("in the first place", "at
    first sight"): a passage that ranks nothing does not deny them, though a rival ranking
    may."""
    intensifiers: tuple[str, ...] = ()
    """Phrases that may stand between ``after`` and a cue and say only how plainly it ranks
    ("the very largest", "der mit Abstand größte"): the ranking is the plain one."""
    dimensions: tuple[str, ...] = ()
    """The plain words of one measure each, space-separated ("tall high large big", "old
    ancient"): a sentence that ranks a thing by one measure under another noun states no
    ranking of it by another ("the tallest tower" against "the oldest building")."""
    measured_by: tuple[str, ...] = ()
    """A compared word's plain form, the kind of number it is read by and its direction
    ("long number +", "old year -"): "A is longer than B" against the lengths the passage
    gives each."""
    opposites: tuple[str, ...] = ()
    """Pairs of a word of one of ``dimensions`` and one of the opposite measure ("long
    short"): "A is shorter than B" says "B is longer than A"."""
    not_compared: frozenset[str] = frozenset()
    """Words beside ``than`` that compare nothing ("other than", "rather than"): no
    comparative."""


@dataclass(frozen=True, slots=True)
class NameFrameWords:
    """A language's ``[name_frames]`` table."""

    describing: tuple[str, ...] = ()
    """Words after which a capitalized word describes, not names ("by an American")."""
    after_verbs: tuple[str, ...] = ()
    """Words that follow a verb and never a name: a sentence's capitalized first word that one
    follows is a verb ("Book your trip", "Turn the corner"), no name."""
    participle_endings: tuple[str, ...] = ()
    """Endings of a participle or gerund: a sentence's first word with one, followed by one of
    ``after_participles``, opens a phrase ("Located in Dublin", "Predicting the demand")."""
    after_participles: tuple[str, ...] = ()
    copulas: tuple[str, ...] = ()
    """Verbs that give the subject a class ("is", "was"): ``classes`` reads "X is a composer"."""
