"""The scoring vocabulary: every word list the head features, the typed checks and the edit
generator read, in one place so that they cannot drift apart.

Where a head feature reads fewer words than the checks, the smaller list is a named subset
here (``HEAD_NEGATION_WORDS`` of ``NEGATION_CUES``): the shipped heads were trained on it, and
widening it would change their inputs without a retrain. Lists are lower case; the modules
that use them compile their own patterns.
"""

from __future__ import annotations

from ragguard.language.sentences import MONTHS

STOPWORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once
    here there when where why how all any both each few more most other some such only own
    same so than too very s t can will just don should now is are was were be been being have
    has had having do does did doing i me my we our you your he him his she her it its they
    them their what which who whom this that these those am as until while also would could
    may might must shall upon""".split()  # noqa: SIM905 - a word list reads better as prose
)
"""Function words: no content of their own, left out of overlaps and coverage."""

# --- negation ---------------------------------------------------------------------------

HEAD_NEGATION_WORDS: tuple[str, ...] = (
    *("not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without"),
    "cannot",
)
"""The negation words of the support head's ``negation_mismatch`` feature (with "n't" and
``HEAD_NEGATING_VERBS`` + "to"): the heads were trained on exactly these."""
HEAD_NEGATING_VERBS: tuple[str, ...] = ("fail", "failed", "fails")
"""Verbs that negate the verb after "to" ("failed to win"), for the head feature."""
NEGATING_VERBS: tuple[str, ...] = (
    *HEAD_NEGATING_VERBS,
    *("lack", "lacks", "lacked", "unable", "refused"),
)
"""Words that negate what they govern ("failed to get", "lack cell walls"); the checks read
them with or without "to"."""
NEGATION_CUES = frozenset([*HEAD_NEGATION_WORDS, "n't", "nowhere", *NEGATING_VERBS])
"""What the negation check reads as negating: the head's words, "nowhere" and the negating
verbs."""
EDIT_NEGATION_WORDS: tuple[str, ...] = ("not", "never")
"""The negations the edit generator removes from a claim (with "n't")."""
NOT_NEGATING = frozenset(
    [("not", "only"), ("not", "just"), ("not", "least"), ("no", "doubt"), ("no", "matter")]
)
"""A cue and the word after it that negate nothing ("not only", "no doubt")."""
NEGATING_PREFIXES: tuple[str, ...] = ("un", "in", "im", "il", "ir", "non", "dis")
NOT_PREFIXED = frozenset(
    """discount discharge dispatch distract dissolve dissent disgrace dismantle dispose
    increase income indeed inspire instance install insight inside invest intend inflame
    inhabit insist inform impress impart import impose implant imprint improve impound
    universal union unite instead""".split()  # noqa: SIM905
)
"""Words that only look as if a negating prefix were added to another word."""

EDIT_ANTONYM_PAIRS: tuple[tuple[str, str], ...] = (
    *(("open", "closed"), ("opened", "closed"), ("increase", "decrease")),
    *(("increased", "decreased"), ("rise", "fall"), ("rose", "fell"), ("win", "lose")),
    *(("won", "lost"), ("alive", "dead"), ("higher", "lower"), ("larger", "smaller")),
    *(("largest", "smallest"), ("more", "less"), ("most", "least"), ("first", "last")),
    *(("north", "south"), ("east", "west"), ("northern", "southern"), ("eastern", "western")),
    *(("approved", "rejected"), ("accepted", "rejected"), ("legal", "illegal")),
    *(("true", "false"), ("success", "failure"), ("successful", "unsuccessful")),
    *(("male", "female"), ("maximum", "minimum"), ("majority", "minority")),
    *(("before", "after"), ("earlier", "later"), ("older", "younger"), ("oldest", "youngest")),
    *(("positive", "negative"), ("private", "public"), ("possible", "impossible")),
    *(("always", "never"), ("allowed", "banned"), ("internal", "external")),
    *(("import", "export"), ("born", "died")),
)
"""Cheap antonym pairs: "closed" where the evidence says "open" flips polarity. The edit
generator swaps these."""
CHECK_ONLY_ANTONYM_PAIRS: tuple[tuple[str, str], ...] = (
    *(("grew", "fell"), ("grew", "shrank"), ("grow", "shrink"), ("increased", "declined")),
    *(("increased", "fell"), ("increased", "dropped"), ("rose", "declined")),
    *(("rose", "dropped"), ("rise", "drop"), ("rise", "decline"), ("rises", "falls")),
    *(("increases", "decreases"), ("gained", "lost"), ("gain", "loss"), ("profit", "loss")),
    *(("surplus", "deficit"), ("passed", "rejected"), ("allowed", "prohibited")),
    *(("allows", "prohibits"), ("allowed", "forbidden"), ("permitted", "prohibited")),
    *(("permitted", "banned"), ("hired", "fired"), ("succeeded", "failed")),
    *(("guilty", "innocent"), ("convicted", "acquitted"), ("victory", "defeat")),
    *(("winner", "loser"), ("improved", "worsened"), ("strengthened", "weakened")),
    *(("included", "excluded"), ("bought", "sold"), ("buy", "sell"), ("present", "absent")),
    *(("above", "below"), ("inside", "outside"), ("early", "late"), ("earliest", "latest")),
    *(("hot", "cold"), ("full", "empty"), ("doubled", "halved"), ("doubled", "tripled")),
    *(("tripled", "halved"), ("signed", "vetoed"), ("approved", "vetoed")),
    ("passed", "vetoed"),
)
"""Pairs the check knows but the edit generator does not swap (the history page says why)."""


def opposites_by_word(pairs: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    """Each word of ``pairs`` -> the words it is paired with, either way round."""
    return {
        word: frozenset(b for a, b in pairs if a == word)
        | frozenset(a for a, b in pairs if b == word)
        for pair in pairs
        for word in pair
    }


EDIT_ANTONYMS = opposites_by_word(EDIT_ANTONYM_PAIRS)
"""The antonyms the edit generator swaps."""
ANTONYMS = opposites_by_word(EDIT_ANTONYM_PAIRS + CHECK_ONLY_ANTONYM_PAIRS)
"""The antonyms the check knows."""

# --- numbers ----------------------------------------------------------------------------

SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
SCALES |= {"mln": 1e6, "bn": 1e9, "bln": 1e9}
"""Scale words after a number ("5 billion", "8 bn")."""
SUFFIXES = {"k": 1e3, "m": 1e6, "mn": 1e6, "b": 1e9} | {
    abbreviation: SCALES[abbreviation] for abbreviation in ("mln", "bn", "bln")
}
"""Scales written onto the number ("$8.2m", "5bn"); a one-letter one only after a currency
sign, where it cannot be a unit ("5m" may be metres)."""
CURRENCY_SIGNS = "$£€¥"
_ONES_TO_TWENTY = (
    *("zero", "_", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)
"""Index = value; "one" is left out ("one of them" is no count), so its slot holds "_"."""
WORD_NUMBERS = {word: float(value) for value, word in enumerate(_ONES_TO_TWENTY) if word != "_"} | {
    w: 10.0 * (i + 3)
    for i, w in enumerate(["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])
}
WORD_NUMBERS |= {"hundred": 100.0, "dozen": 12.0}
"""Spelled numbers and their values."""
UNIT_WORDS: tuple[str, ...] = (
    *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
)
"""The words that end a compound number ("seventy-two")."""
ORDINAL_WORDS = {
    word: float(value)
    for value, word in enumerate(
        ["third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"], start=3
    )
} | {"eleventh": 11.0, "twelfth": 12.0, "twentieth": 20.0, "first": 1.0, "second": 2.0}
"""Ordinals; "first" and "second" count only after "the" or a possessive."""
APPROXIMATING_WORDS: tuple[str, ...] = (
    *("about", "around", "approximately", "roughly", "nearly", "almost", "some", "circa"),
    "an estimated",
)
AT_MOST_WORDS: tuple[str, ...] = (
    *("less than", "fewer than", "under", "up to", "at most", "below", "no more than"),
    "in or before",
)
AT_LEAST_WORDS: tuple[str, ...] = (
    *("more than", "over", "at least", "above", "exceeding", "greater than", "upwards of"),
    "in or after",
)

# --- the calendar -----------------------------------------------------------------------

MONTH_ABBREVIATIONS = {m[:3]: m for m in MONTHS if len(m) > 3} | {"sept": "september"}
STARTING_WORDS = frozenset(
    """born birth began begin begins begun start started starts founded established opened
    launched debuted formed created premiered since from""".split()  # noqa: SIM905
)
"""Words before a date that make it the start of a span ("born in 1879")."""
ENDING_WORDS = frozenset(
    """died dies death ended ends end finished completed closed dissolved disbanded retired
    abolished demolished until""".split()  # noqa: SIM905
)
"""Words before a date that make it the end of a span ("died in 1955")."""

# --- names ------------------------------------------------------------------------------

NOT_NAMES = frozenset(["I", "TV", "DVD", "CD", "DJ", "CEO", "OK"])
"""Capitalized words that name nothing."""
NAME_JOINERS = frozenset(["of", "van", "von", "de", "der", "den", "da", "del", "di", "du", "bin"])
"""Lower-case words inside a name: "University of Chicago", "Guido van Rossum"."""
SENTENCE_OPENERS = frozenset(
    """yesterday today tomorrow however although though despite unlike meanwhile following
    according born since because later earlier""".split()  # noqa: SIM905
)
"""Capitalized at the start of a sentence only: "Yesterday John Smith" names John Smith."""
IRREGULAR_DEMONYMS = {
    **{"french": "france", "dutch": "netherlands", "spanish": "spain", "british": "uk"},
    **{"britain": "uk", "england": "uk", "english": "uk", "welsh": "wales"},
    **{"danish": "denmark", "swiss": "switzerland", "greek": "greece", "scottish": "scotland"},
    **{"scots": "scotland", "irish": "ireland", "polish": "poland", "finnish": "finland"},
    **{"turkish": "turkey", "swedish": "sweden", "thai": "thailand"},
    **{"filipino": "philippines", "peruvian": "peru", "norwegian": "norway"},
    **{"america": "us", "usa": "us"},
}
"""Demonyms that share no root with their country, keyed to it (or to its acronym)."""
DEMONYM_ENDINGS: tuple[str, ...] = (
    *("ians", "ian", "ans", "an", "ns", "n", "ese", "ish", "i"),
    *("ic", "s", "a", "y", "e", "ia"),
)
"""Endings cut from a name's word to meet its root ("Kenyan" and "Kenya" -> "keny")."""

# --- units of measure -------------------------------------------------------------------


def _units(dimension: str, *groups: str) -> dict[str, tuple[str, str]]:
    """Written unit -> (dimension, the unit's first form) for each space-separated group."""
    return {w: (dimension, g.split()[0]) for g in groups for w in g.split()}


UNITS = (
    _units(
        "length",
        "metre metres meter meters m",
        "kilometre kilometres kilometer kilometers km",
        "centimetre centimetres centimeter centimeters cm",
        "millimetre millimetres millimeter millimeters mm",
        "mile miles mi",
        "foot feet ft",
        "inch inches",
        "yard yards yd",
    )
    | _units("mass", "gram grams", "kilogram kilograms kg kilo kilos", "pound pounds lb lbs")
    | _units("mass", "ounce ounces oz", "tonne tonnes", "ton tons")
    | _units("temperature", "celsius centigrade c", "fahrenheit f", "kelvin k")
    | _units("time", "second seconds", "minute minutes", "hour hours", "day days")
    | _units("time", "week weeks", "month months", "year years", "decade decades")
    | _units("volume", "litre litres liter liters", "millilitre millilitres ml", "gallon gallons")
    | _units("area", "acre acres", "hectare hectares")
    | _units("speed", "mph", "kph km/h")
    | _units("data", "kb kilobyte kilobytes", "mb megabyte megabytes", "gb gigabyte gigabytes")
    | _units("data", "tb terabyte terabytes")
    | _units("currency", "dollar dollars $ usd", "euro euros € eur", "£ gbp", "yen ¥ jpy")
)
"""Units of measure that a number may be stated in: the same number in another unit of the
same dimension is a different quantity ("300 metres" is not "300 feet")."""
