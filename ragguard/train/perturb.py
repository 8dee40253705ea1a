"""Single-edit contradictions of a supported claim: hard negatives and a benchmark.

One module builds them for both uses: ``ragguard train support`` pairs each edit with its
original as a RAG-Check triplet (same evidence, supported and unsupported statement), and
``benchmarks/contradictions.py`` asks whether the scorer flags them. An edit changes one
slot and keeps the rest of the wording, so only a check of that slot can tell the two apart.

Every edit is deterministic given the seed and the claim (``random.Random`` seeded with a
string is stable across runs and platforms).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragguard.language import MONTHS, WORD_NUMBERS
from ragguard.schema import EDIT_KINDS, EditKind
from ragguard.scoring.checks import Quantity, names, quantities, same_quantity
from ragguard.scoring.lexical import EDIT_ANTONYMS, EDIT_NEGATION_WORDS
from ragguard.scoring.lite import Pair

_AUXILIARY = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|will|does|do|did|should|could|would|must)\b(?! not\b)"
)
_PAST_VERB = re.compile(r"(?<=\s)(?!(?:need|feed|seed|bed|red|shed|hundred)\b)[a-z]{3,}ed\b")
_PLACE_LEAD = re.compile(r"\b(?:in|at|from|to|near|into|across)\s+(?:the\s+)?$")
_NEGATED = re.compile(r"\s+(?:" + "|".join(EDIT_NEGATION_WORDS) + r")\b|n't\b")
_MONTH_NAMES = [m.capitalize() for m in MONTHS]
_MONTH = re.compile(r"\b(?:" + "|".join(_MONTH_NAMES) + r")\b")


@dataclass(frozen=True, slots=True)
class Edit:
    """A perturbed claim: which slot changed, from what, to what."""

    kind: EditKind
    text: str
    before: str
    after: str


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


_RANKS = ("ordinal", "century")


def _formatted(value: float, like: Quantity) -> str:
    if value.is_integer():
        number = int(value)
        if like.kind in _RANKS:
            return f"{number}{_ordinal_suffix(number)}"
        return f"{number:,}" if "," in like.text else str(number)
    return f"{value:g}"


def _ordinal_suffix(number: int) -> str:
    """ "st", "nd", "rd" or "th": 66th, 21st, 112th."""
    if number % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def _find(text: str, quantity: Quantity) -> int:
    return text.find(quantity.text)


def _number_edit(claim: str, passage: str, rng: random.Random) -> Edit | None:
    numbers = [
        q
        for q in quantities(claim)
        if q.kind not in ("year", "decade")
        and q.text[:1].isdigit() | (q.kind == "number")
        and _find(claim, q) >= 0
    ]
    if not numbers:
        return None
    target = rng.choice(numbers)
    others = [
        q
        for q in quantities(passage)
        if q.kind == target.kind and not same_quantity(target, q) and q.text[:1].isdigit()
    ]
    if others and target.text[:1].isdigit():
        new = rng.choice(others).text
    else:
        value = target.value
        factor = rng.choice((2.0, 3.0, 0.5)) if value >= 10 else None
        changed = value * factor if factor else value + rng.choice((1.0, 2.0, 3.0))
        if target.kind in _RANKS:
            changed = float(max(round(changed), 1))  # a rank is whole: "10th", not "10.5"
        written = _formatted(changed, target)
        if not target.text[:1].isdigit():
            new = {v: w for w, v in WORD_NUMBERS.items()}.get(changed, written)
        elif target.kind in _RANKS:  # the suffix comes with ``written``: "66th"
            new = written
        else:
            new = re.sub(r"[\d,.]+", written, target.text, count=1)
    start = _find(claim, target)
    return Edit("number", _replace(claim, start, start + len(target.text), new), target.text, new)


def _date_edit(claim: str, passage: str, rng: random.Random) -> Edit | None:
    years = [q for q in quantities(claim) if q.kind == "year" and _find(claim, q) >= 0]
    months = list(_MONTH.finditer(claim))
    if years and (not months or rng.random() < 0.7):
        target = rng.choice(years)
        others = [  # written in full: the "19" of "2018–19" is 2019
            str(int(q.value))
            for q in quantities(passage)
            if q.kind == "year" and q.value != target.value
        ]
        shift = rng.choice((-1, 1)) * rng.randint(1, 12)
        new = (
            rng.choice(others) if others and rng.random() < 0.5 else str(int(target.value) + shift)
        )
        start = _find(claim, target)
        return Edit("date", _replace(claim, start, start + len(target.text), new), target.text, new)
    if months:
        match = rng.choice(months)
        new = rng.choice([m for m in _MONTH_NAMES if m != match.group(0)])
        return Edit("date", _replace(claim, match.start(), match.end(), new), match.group(0), new)
    return None


def _negation_edit(claim: str, passage: str, rng: random.Random) -> Edit | None:
    negated = _NEGATED.search(claim)
    if negated:
        text = _replace(claim, negated.start(), negated.end(), "")
        text = re.sub(r"\bca\b", "can", re.sub(r"\bwo\b", "will", text))
        return Edit("negation", text, negated.group(0).strip(), "(removed)")
    auxiliary = _AUXILIARY.search(claim)
    if auxiliary:
        text = _replace(claim, auxiliary.end(), auxiliary.end(), " not")
        return Edit("negation", text, auxiliary.group(0), f"{auxiliary.group(0)} not")
    verb = _PAST_VERB.search(claim)
    if verb:
        text = _replace(claim, verb.start(), verb.start(), "never ")
        return Edit("negation", text, verb.group(0), f"never {verb.group(0)}")
    return None


def _is_place(text: str, name: str) -> bool:
    """A name after "in", "at", "from"... : a place, as far as capitalization can tell."""
    at = text.find(name)
    return at >= 0 and _PLACE_LEAD.search(text[:at]) is not None


def _entity_edit(claim: str, passage: str, rng: random.Random) -> Edit | None:
    claim_words = set(re.findall(r"\w+", claim.lower()))
    present = [n for n in names(claim) if n in passage]
    candidates = [
        n for n in dict.fromkeys(names(passage)) if not set(n.lower().split()) & claim_words
    ]
    if not present or not candidates:
        return None
    target = rng.choice(present)
    place = _is_place(claim, target)
    size = len(target.split())
    same_kind = [n for n in candidates if _is_place(passage, n) == place and len(n.split()) == size]
    if not same_kind:
        return None
    new = rng.choice(same_kind)
    start = claim.find(target)
    return Edit("entity", _replace(claim, start, start + len(target), new), target, new)


_BORN = re.compile(r"\b(?:was|were) born\b")


def _antonym_edit(claim: str, passage: str, rng: random.Random) -> Edit | None:
    found = [m for m in re.finditer(r"[a-z]+", claim) if m.group(0) in EDIT_ANTONYMS]
    if not found:
        return None
    match = rng.choice(found)
    new = sorted(EDIT_ANTONYMS[match.group(0)])[0]
    start, end = match.start(), match.end()
    passive = _BORN.search(claim, max(start - 5, 0)) if new == "died" else None
    if passive and passive.end() == end:
        start = passive.start()  # "was born" -> "died", not "was died"
    elif new == "born":
        new = "was born"
    return Edit("antonym", _replace(claim, start, end, new), claim[start:end], new)


_EDITS: dict[EditKind, Callable[[str, str, random.Random], Edit | None]] = {
    "number": _number_edit,
    "date": _date_edit,
    "negation": _negation_edit,
    "entity": _entity_edit,
    "antonym": _antonym_edit,
}


def edit(claim: str, passage: str, kind: EditKind, seed: int = 0) -> Edit | None:
    """One ``kind`` edit of ``claim`` (a statement ``passage`` supports), or None when the
    claim has no such slot. Entity and number edits prefer a value of the same kind from the
    passage itself, so the wrong value is one the evidence does mention."""
    result = _EDITS[kind](claim, passage, random.Random(f"{seed}:{kind}:{claim}"))
    if result is None or result.text == claim:
        return None
    return result


def edits(claim: str, passage: str, seed: int = 0) -> list[Edit]:
    """Every kind of edit that applies to ``claim``."""
    return [e for kind in EDIT_KINDS if (e := edit(claim, passage, kind, seed)) is not None]


def hard_negatives(
    pairs: Sequence[Pair], share: float, seed: int
) -> tuple[list[Pair], Counter[str]]:
    """For ``share`` of the supported pairs, one edit of a kind drawn among those that
    apply, as an unsupported pair with the same evidence (so the pairwise loss sees the
    original and its edit as a triplet), and how many of each kind were made."""
    rng = random.Random(seed)
    extra: list[Pair] = []
    kinds: Counter[str] = Counter()
    for pair in pairs:
        if pair.label != 1 or rng.random() >= share:
            continue
        options = edits(pair.statement, pair.context, seed)
        if options:
            chosen = rng.choice(options)
            extra.append(Pair(pair.context, chosen.text, 0, pair.source))
            kinds[chosen.kind] += 1
    return [*pairs, *extra], kinds
