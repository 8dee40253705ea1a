"""Per-language word lists, read from ``data/<code>.toml``: rules that are lists live as
data, so a language is added by writing a file, not code. English's file holds every English
list too, the scoring vocabulary the shipped heads were trained on among them
(``ragguard.scoring.lexical.vocabulary`` and ``ragguard.spans.cues`` name its tables).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from ragguard.language.shapes import SuperlativeCues
from ragguard.language.tables import Shape, read_table
from ragguard.language.tables import pairs as _pairs
from ragguard.language.tables import table as _table
from ragguard.language.tables import words as _words

SUPPORTED: tuple[str, ...] = ("en", "de", "es", "fr", "hi")
"""The languages with a lexicon: their checks read their own words."""
FALLBACK = "en"
"""The language a text is read in when its own cannot be told (``read_as``)."""
NAMES: dict[str, str] = {
    "en": "English",
    "de": "German",
    "es": "Spanish",
    "fr": "French",
    "hi": "Hindi",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "ru": "Russian",
    "ar": "Arabic",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "el": "Greek",
    "he": "Hebrew",
    "th": "Thai",
    "bn": "Bengali",
    "ta": "Tamil",
    "te": "Telugu",
    "und": "undetermined",
}
"""Code -> English name, for messages ("language: de (German) ...")."""


@dataclass(frozen=True, slots=True)
class NumberWordLists:
    """A language's ``[numbers]`` table: the words of its cardinals and years."""

    words: Mapping[str, float] = field(default_factory=dict)
    """Values below a hundred, and whole hundreds written as one word (Spanish)."""
    multipliers: Mapping[str, float] = field(default_factory=dict)
    """Words that multiply the number before them ("three hundred")."""
    scales: Mapping[str, float] = field(default_factory=dict)
    """Words that multiply everything before them ("two thousand")."""
    joiners: frozenset[str] = frozenset()
    """Words between the parts ("three hundred and thirty", "treinta y tres")."""
    not_alone: frozenset[str] = frozenset()
    """Words that are no number by themselves ("one of them", "un livre")."""
    glued: bool = False
    """Whether the parts are written as one word (German "dreihundertdreißig")."""
    units_first: bool = False
    """Whether a unit comes before its tens, after a joiner (German "dreiundzwanzig")."""
    year_zeros: frozenset[str] = frozenset()
    """Words for the zero of a year said in two halves ("nineteen oh nine")."""
    halves: frozenset[str] = frozenset()
    """Words that add a half to the number before them, or to its scale ("four and a half",
    "viereinhalb", "deux millions et demi", "cuatro y medio")."""
    points: frozenset[str] = frozenset()
    """Words before the digits of a decimal part ("four point five", "zwei Komma fünf")."""


def _numbers(data: Mapping[str, Any]) -> NumberWordLists:
    table = data.get("numbers", {})
    return NumberWordLists(
        words=_table(table.get("words")),
        multipliers=_table(table.get("multipliers")),
        scales=_table(table.get("scales") or data.get("scales")),
        joiners=frozenset(_words(table.get("joiners"))),
        not_alone=frozenset(_words(table.get("not_alone"))),
        glued=bool(table.get("glued", False)),
        units_first=bool(table.get("units_first", False)),
        year_zeros=frozenset(_words(table.get("year_zeros"))),
        halves=frozenset(_words(table.get("halves"))),
        points=frozenset(_words(table.get("points"))),
    )


@cache
def section(code: str, name: str, shape: type[Shape]) -> Shape:
    """A language's ``[name]`` table (``data/<code>.toml``) read into ``shape``
    (``read_table``); the shape's defaults for a language without the table or a lexicon.
    A language-aware check declares its table's shape beside its code and reads it here, so
    adding one needs no change to this module."""
    table = _read(f"{code}.toml").get(name, {}) if code in SUPPORTED else {}
    return read_table(table, shape, f"{code}.toml [{name}]")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """One language's word lists (lower case, NFC)."""

    code: str
    name: str
    script: str = "latin"
    cues: tuple[str, ...] = ()
    """Words that tell the language apart: its stopwords, negations, ``more_cues``
    (frequent words no other language writes: "millionen", "tiene") and number words
    ("novecientos": a short answer may be a number said in words), or ``cues``."""
    more_cues: frozenset[str] = frozenset()
    """The cues that are no function words ("millionen"): they count even capitalized."""
    english_words: frozenset[str] = frozenset()
    """English only: words English writes that other languages' cues hold ("die"): no cue."""
    letters: str = ""
    """Letters only this language (of those detected) writes often ("ß", "ñ")."""
    stopwords: frozenset[str] = frozenset()
    negations: frozenset[str] = frozenset()
    particles: frozenset[str] = frozenset()
    """Words that make the next cue of ``particle_negations`` a negation (French "ne")."""
    particle_negations: frozenset[str] = frozenset()
    not_negating: frozenset[tuple[str, ...]] = frozenset()
    """A cue and the words after it that negate nothing ("nicht nur": not only)."""
    decimal_comma: bool = False
    group_separators: tuple[str, ...] = (",",)
    percent: tuple[str, ...] = ()
    measures: tuple[str, ...] = ()
    """Words after a number that make it a measure, never a year ("1.310 Quadratkilometer")."""
    scales: Mapping[str, float] = field(default_factory=dict)
    spelled: Mapping[str, float] = field(default_factory=dict)
    """Each number word that is a number by itself ("three", "hundred"): ``[numbers]``'s
    ``words`` and ``multipliers`` less ``not_alone``."""
    numbers: NumberWordLists = field(default_factory=lambda: NumberWordLists())
    """The words numbers are written in (``[numbers]``; ``ragguard.language.numerals``)."""
    superlatives: SuperlativeCues = field(default_factory=lambda: SuperlativeCues())
    """The words of a ranking claim (``[superlatives]``)."""
    lower_case_after: frozenset[str] = frozenset()
    """``[names]``: the words after which a name typed in lower case is read ("in berlin")."""
    common_endings: tuple[str, ...] = ()
    """``[names]``: endings of common nouns, never read as a name typed in lower case."""
    plural_endings: tuple[str, ...] = ()
    """``[names]``: the endings of ``common_endings`` that mark a plural; a claim written
    without any capital does not read them ("in paris", "à bordeaux")."""
    nouns_capitalized: bool = False
    """``[names]``: the language capitalizes every noun (German), so a capital marks no name;
    names are read only right after ``bare_after``."""
    bare_after: frozenset[str] = frozenset()
    """``[names]``: words after which capitalized words with no article are a name ("nach
    Berlin") where ``nouns_capitalized``."""
    not_names: frozenset[str] = frozenset()
    """``[names]``: nouns written there without an article that name nothing ("in Kraft")."""
    indefinites: frozenset[str] = frozenset()
    """``[names]``: words for someone or something unnamed ("someone"): never a name."""
    place_verbs: frozenset[str] = frozenset()
    """``[names]``: verbs that say where a thing is ("steht"): no part of what a place names."""
    place_phrases: tuple[str, ...] = ()
    """``[names]``: words before a place that all say where ("in", "at", "near", "près de"):
    a claim's place after one is the slot of a passage's place after another."""
    opening_place_verbs: tuple[str, ...] = ()
    """``[names]``: verbs that make a name opening the text a place ("Le Cyrrus possède")."""
    place_clauses: tuple[str, ...] = ()
    """``[names]``: words after a name that make it the place of what follows ("is where":
    "Madrid is where she founded it" says "she founded it in Madrid")."""
    postpositions: Mapping[str, int] = field(default_factory=dict)
    """``[names]``: words after a name that give its role (Hindi "में", in; "ने", the
    doer), each to its role's number (the words of one entry give one role: "ने द्वारा",
    the doer of an active and of a passive), where no capital marks a name: a claim's name
    before one fills the slot of the passage's name before one of the same role."""
    place_attributes: tuple[str, ...] = ()
    """``[names]``: nouns a place before them names the home of ("a Tallinn firm")."""
    titles: frozenset[str] = frozenset()
    """``[names]``: titles written with a stop before a name ("Dr."): no sentence ends there."""
    place_postpositions: frozenset[str] = frozenset()
    """``[names]``: two words after a name that make it a place ("के पास", "वह जगह")."""
    possessive_postpositions: frozenset[str] = frozenset()
    """``[names]``: the words of ``postpositions`` that make a name an owner ("तावरिन का")."""
    place_nouns: frozenset[str] = frozenset()
    """``[names]``: nouns between a place's name and its postposition ("ओस्लो शहर में")."""
    destination_verbs: frozenset[str] = frozenset()
    """``[names]``: two words after a bare name that make it where one went ("बर्गन चली गईं")."""
    about: tuple[str, ...] = ()
    at_most: tuple[str, ...] = ()
    at_least: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    bounds_after: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Bounds written after the number (Hindi "100 से अधिक"), by bound name."""
    months: Mapping[str, float] = field(default_factory=dict)
    weekdays: Mapping[str, float] = field(default_factory=dict)
    months_lower_case: bool = False
    """Whether month names are written in lower case (Spanish, French)."""
    subjective: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Subjectivity cues by the class names of ``ragguard.spans.cues.LEXICON``."""
    quantity_words: tuple[str, ...] = ()
    """Spelled-out quantities and ordinals that make an opinion checkable (English)."""
    factual: tuple[str, ...] = ()
    """Verbs and phrases of a factual relation ("entdeckte", "liegt in"): an evaluative span
    holding one states a checkable fact, so it stays objective."""
    antecedents: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """What reading a sentence with its antecedent needs (``ragguard.scoring.checks.antecedents``):
    ``pronouns``, ``possessives``, ``determiners``, ``verbs``, ``verb_endings``, ``expletives``."""
    abstention: tuple[str, ...] = ()
    """Phrases that say the answer abstains ("ich weiß nicht", "मुझे नहीं पता")."""
    abstention_sources: tuple[str, ...] = ()
    """What an answer is drawn from ("el documento"): one, then within a few words one of
    ``abstention_denials``, abstains ("el texto no dice nada de eso")."""
    abstention_denials: tuple[str, ...] = ()
    """What a source is said not to do ("no menciona", "ne précise pas", "nennt nicht")."""
    checks_off: tuple[str, ...] = ()
    """"CHECK: reason" for each check switched off in this language."""
    clauses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Where one sentence holds several clauses (``ragguard.spans.clauses``):
    ``conjunctions``, ``openers``, ``relatives``, ``first_person``."""
    trained_reading: bool = False
    """``[reading] trained``: read as the shipped heads were trained (ASCII word tokens,
    digits as written, the light stemmer, the head's negation words); otherwise by Unicode
    classes, unstemmed (``ragguard.scoring.lexical.text``)."""
    negation_suffixes: tuple[str, ...] = ()
    """``[negation] suffixes``: endings that make a word a negation ("n't")."""
    number_signs: frozenset[str] = frozenset()
    """``[negation] number_signs``: cues that before a digit are the sign for a number."""
    alternatives: frozenset[str] = frozenset()
    """``[negation] alternatives``: after one, a cue negates nothing ("agree or not")."""
    not_negating_after: tuple[tuple[str, ...], ...] = ()
    """``[negation] not_negating_after``: words after any cue that make it negate nothing."""
    negating_prefixes: tuple[str, ...] = ()
    """``[negation] prefixes``: a prefix that makes a word's opposite ("unknown")."""
    not_prefixed: frozenset[str] = frozenset()
    """``[negation] not_prefixed``: words that only look prefixed ("increase")."""
    antonyms: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """``[antonyms]``: each word -> its opposites ("open" -> "closed"), either way round."""
    date_starts: frozenset[str] = frozenset()
    """``[dates] starting``: words before a date that make it a span's start ("born in")."""
    date_ends: frozenset[str] = frozenset()
    """``[dates] ending``: words before a date that make it a span's end ("died in")."""
    configured_subjectivity: bool = False
    """Whether ``[spans] add_subjective``/``remove_subjective`` edit this language's cues,
    read with the configured ``SubjectivityRule`` (``ragguard.spans.categorize``)."""
    abstention_by_examples: bool = False
    """Whether the labelled abstention examples are in this language, so a text in it is
    compared with them (``ragguard.spans.abstention``)."""


def opposites_by_word(pairs: tuple[tuple[str, ...], ...]) -> dict[str, frozenset[str]]:
    """Each word of ``pairs`` -> the words it is paired with, either way round."""
    return {
        word: frozenset(b for a, b in pairs if a == word)
        | frozenset(a for a, b in pairs if b == word)
        for pair in pairs
        for word in pair
    }


def _from_table(code: str, data: Mapping[str, Any]) -> Lexicon:
    """A language's lists from its data file; the helpers below read a group of fields each."""
    stopwords, negations = _words(data.get("stopwords")), _words(data.get("negations"))
    numbers = _numbers(data)
    spoken = (*numbers.words, *numbers.multipliers)  # "novecientos": a year said in words
    return Lexicon(
        code=code,
        name=str(data.get("name", NAMES.get(code, code))),
        script=str(data.get("script", "latin")),
        cues=(_words(data.get("cues")) or stopwords + negations + _words(data.get("more_cues")))
        + spoken,
        more_cues=frozenset(_words(data.get("more_cues"))),
        english_words=frozenset(_words(data.get("english_words"))),
        letters=str(data.get("letters", "")),
        stopwords=frozenset(stopwords),
        negations=frozenset(negations),
        particles=frozenset(_words(data.get("particles"))),
        particle_negations=frozenset(_words(data.get("particle_negations"))),
        not_negating=frozenset(tuple(p.split()) for p in _words(data.get("not_negating"))),
        superlatives=read_table(data.get("superlatives", {}), SuperlativeCues),
        months=_table(data.get("months")),
        weekdays=_table(data.get("weekdays")),
        months_lower_case=bool(data.get("months_lower_case", False)),
        subjective={k: _words(v) for k, v in data.get("subjective", {}).items()},
        factual=_words(data.get("factual")),
        quantity_words=_words(data.get("quantity_words")),
        antecedents={k: _words(v) for k, v in data.get("antecedents", {}).items()},
        abstention=_words(data.get("abstention")),
        abstention_sources=_words(data.get("abstention_sources")),
        abstention_denials=_words(data.get("abstention_denials")),
        checks_off=tuple(str(c) for c in data.get("checks_off", ())),
        clauses={k: _words(v) for k, v in data.get("clauses", {}).items()},
        trained_reading=bool(data.get("reading", {}).get("trained", False)),
        date_starts=frozenset(_words(data.get("dates", {}).get("starting"))),
        date_ends=frozenset(_words(data.get("dates", {}).get("ending"))),
        configured_subjectivity=bool(data.get("configured_subjectivity", False)),
        abstention_by_examples=bool(data.get("abstention_by_examples", False)),
        **_number_fields(data),
        **_bound_fields(data),
        **_name_fields(data.get("names", {})),
        **_negation_fields(data.get("negation", {}), data.get("antonyms", {})),
    )


def _number_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """How numbers are written and spelt."""
    numbers = _numbers(data)
    alone = {**numbers.words, **numbers.multipliers}
    return {
        "decimal_comma": bool(data.get("decimal_comma", False)),
        "group_separators": tuple(data.get("group_separators", (",",))),
        "percent": _words(data.get("percent")),
        "measures": _words(data.get("measures")),
        "scales": _table(data.get("scales")),
        "spelled": MappingProxyType({w: v for w, v in alone.items() if w not in numbers.not_alone}),
        "numbers": numbers,
    }


def _bound_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The words that bound a number or a date ("about", "at most", "before")."""
    return {
        "about": _words(data.get("about")),
        "at_most": _words(data.get("at_most")),
        "at_least": _words(data.get("at_least")),
        "before": _words(data.get("before")),
        "after": _words(data.get("after")),
        "bounds_after": {
            bound: words
            for bound in ("at_least", "at_most", "before", "after")
            if (words := _words(data.get(f"{bound}_after")))
        },
    }


def _name_fields(names: Mapping[str, Any]) -> dict[str, Any]:
    """``[names]``: how a name is told from a word."""
    return {
        "lower_case_after": frozenset(_words(names.get("lower_case_after"))),
        "common_endings": _words(names.get("common_endings")),
        "plural_endings": _words(names.get("plural_endings")),
        "nouns_capitalized": bool(names.get("nouns_capitalized", False)),
        "bare_after": frozenset(_words(names.get("bare_after"))),
        "not_names": frozenset(_words(names.get("not_names"))),
        "indefinites": frozenset(_words(names.get("indefinites"))),
        "place_verbs": frozenset(_words(names.get("place_verbs"))),
        "place_phrases": _words(names.get("place_phrases")),
        "place_clauses": _words(names.get("place_clauses")),
        "opening_place_verbs": _words(names.get("opening_place_verbs")),
        "place_attributes": _words(names.get("place_attributes")),
        "place_postpositions": frozenset(_words(names.get("place_postpositions"))),
        "possessive_postpositions": frozenset(_words(names.get("possessive_postpositions"))),
        "destination_verbs": frozenset(_words(names.get("destination_verbs"))),
        "place_nouns": frozenset(_words(names.get("place_nouns"))),
        "titles": frozenset(_words(names.get("titles"))),
        "postpositions": {
            word: role
            for role, entry in enumerate(_words(names.get("postpositions")))
            for word in entry.split()
        },
    }


def _negation_fields(negation: Mapping[str, Any], antonyms: Mapping[str, Any]) -> dict[str, Any]:
    """``[negation]`` and ``[antonyms]``: what makes a word or a clause its opposite."""
    return {
        "negation_suffixes": _words(negation.get("suffixes")),
        "number_signs": frozenset(_words(negation.get("number_signs"))),
        "alternatives": frozenset(_words(negation.get("alternatives"))),
        "not_negating_after": _pairs(negation.get("not_negating_after")),
        "negating_prefixes": _words(negation.get("prefixes")),
        "not_prefixed": frozenset(_words(negation.get("not_prefixed"))),
        "antonyms": MappingProxyType(
            opposites_by_word(_pairs(antonyms.get("edit")) + _pairs(antonyms.get("check_only")))
        ),
    }


@cache
def _read(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def language_data(code: str) -> Mapping[str, Any]:
    """A supported language's data file as written (case and order kept), for the tables a
    ``Lexicon`` does not type: English's scoring vocabulary (``ragguard.scoring.lexical``)."""
    if code not in SUPPORTED:
        raise KeyError(f"no data file for language {code!r}; supported: {', '.join(SUPPORTED)}")
    return MappingProxyType(_read(f"{code}.toml"))


@cache
def lexicon(code: str) -> Lexicon | None:
    """The lexicon of a supported language; None for any other code."""
    if code not in SUPPORTED:
        return None
    return _from_table(code, _read(f"{code}.toml"))


def read_as(code: str) -> str:
    """The language whose lists read a ``code`` text: its own, ``FALLBACK`` if undetermined."""
    return FALLBACK if code == "und" else code


def lexicon_or_fallback(code: str) -> Lexicon:
    """The lexicon of ``code``, or ``FALLBACK``'s for a code without one (a Russian text's
    tokens are read with English's stopwords)."""
    found = lexicon(code) or lexicon(FALLBACK)
    if found is None:  # pragma: no cover - FALLBACK is supported
        raise KeyError(FALLBACK)
    return found


@cache
def detection_profiles() -> tuple[Lexicon, ...]:
    """Every Latin-script language detection tells apart: the supported ones and the
    detection-only profiles of ``others.toml``."""
    found = [lexicon(code) for code in SUPPORTED]
    latin = [lex for lex in found if lex is not None and lex.script == "latin"]
    others = [_from_table(code, table) for code, table in _read("others.toml").items()]
    return (*latin, *others)


def foreign_lexicon(code: str) -> Lexicon | None:
    """The word lists the generic number and calendar readers read (``english_numerals``,
    ``ragguard.scoring.checks.numbers`` and ``dates``); None for English, which the readers
    the shipped heads were tuned on read (through ``ragguard.scoring.lexical.vocabulary``,
    from the same file), and for a code without a lexicon."""
    return None if code == "en" else lexicon(code)


NO_LEXICON = "all: ragguard has no word lists for this language, so its typed checks are off"


def checks_off(code: str) -> tuple[str, ...]:
    """The typed checks switched off for a language, each "CHECK: reason" (CHECK: a check
    kind such as "entity", or "subjective", "antonym"; "all" for a language without a
    lexicon). English and "und" (read as English) switch nothing off."""
    if code in ("en", "und"):
        return ()
    found = lexicon(code)
    return found.checks_off if found is not None else (NO_LEXICON,)


@cache
def kinds_off(code: str) -> frozenset[str]:
    """The CHECK part of each ``checks_off`` entry ("entity", "subjective", "antonym", "all")."""
    return frozenset(entry.split(":", 1)[0] for entry in checks_off(code))
