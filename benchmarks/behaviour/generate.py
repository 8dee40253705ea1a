"""The behaviour suite's cases: templates x fillers, per language and split (CheckList,
Ribeiro et al., ACL 2020).

    python benchmarks/behaviour/generate.py [--split dev|heldout|all] [--lang en,de] [--jsonl OUT]

``templates/<split>/<lang>.toml`` holds a language's fillers (``[fillers]``: named lists of
strings, whole numbers, or tables of either) and its templates (``[[case]]``). A template's
``passage``, ``question``, ``answer`` (and ``base``, the unchanged answer of an invariance or
directional case) name fillers in braces:

- ``{city}`` an element of the list ``city``; ``{city2}`` another element of the same list
  (a whole number a quarter away, a year in another decade); ``{tower.name}`` a field of a
  table element;
- ``{n:f}`` a whole number through a filter: ``g`` (digits grouped as the language writes
  them), ``round`` (two significant digits), ``below`` / ``above`` (the round number under /
  over it), ``decade``, ``century``, ``roman`` (the century in Roman numerals), ``prev``
  (the century before), ``prev_roman``, ``part`` / ``part_other`` (the file's ``[words]``
  for the part of its decade a year is in: early, mid, late, and one it is not in).

Each template makes ``n`` cases (its own ``n``, else the file's, else 12), its fillers drawn
by a generator seeded with the split, language and template id, so the cases are the same on
every machine. A template may name a text of the file's ``[texts]`` as ``"@key"``, and set
``answer_case`` (``lower``, ``upper``, ``title``: the answer typed that way) and ``cues``:
the words its expected outcome rests on (a filler table's ``cue`` likewise). Outside English
a cue must occur, as a whole word, in the project's own language data
(``ragguard/language/data/<lang>.toml``, ``ragguard/scoring/lite/data/answer_types.json``)
or in the vocabularies of ``benchmarks/data/{opinions,multilingual}/<lang>.jsonl``: a
template whose cue is in none of them makes no case (``left_out``), nor does a filler table
whose cue is missing: the outcome would be guessed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TEMPLATES = HERE / "templates"
SPLITS = ("dev", "heldout")
LANGUAGES = ("en", "de", "fr", "es", "hi")
FAMILIES = (
    "approx",
    "opinion_fact",
    "names_case",
    "names",
    "number_words",
    "superlatives",
    "negation",
    "terse",
    "invariance",
    "directional",
)
SKIPPED = {
    ("names_case", "de"): "German capitalises every noun: a capital marks no name",
    ("names_case", "hi"): "Devanagari has no letter case",
}
"""Family x language cells a script does not allow (issue 56): no template is written."""
EXPECTS = ("supported", "flag", "set_aside", "relevant", "off_topic", "same", "lower")
"""``flag`` alone or ``flag:<check kind>``; ``same`` (invariance) and ``lower``
(directional) compare ``answer`` with ``base``."""
DEFAULT_N = 12
FILLER = re.compile(r"\{([a-z_]+?)(2?)(?:\.([a-z_]+))?(?::([a-z_]+))?\}")
GROUPING = {"en": ",", "de": ".", "fr": " ", "es": ".", "hi": ","}
ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


@dataclass(frozen=True)
class Case:
    """One generated case: an answer to a question over one passage, and what must happen."""

    id: str
    split: str
    lang: str
    family: str
    template: str
    passage: str
    question: str
    answer: str
    expect: str
    base: str = ""
    label: bool | None = None
    """Gold support of ``answer`` where the case has one (``supported``, ``flag``, ``lower``,
    ``same`` with the template's ``label``): what the check likelihood ratios count."""
    base_label: bool | None = None


@cache
def knowledge(lang: str) -> str:
    """The project's own language data and benchmark vocabularies for ``lang``, lower-cased:
    where a non-English template's cues must be found."""
    paths = [
        ROOT / "ragguard" / "language" / "data" / f"{lang}.toml",
        ROOT / "ragguard" / "scoring" / "lite" / "data" / "answer_types.json",
        ROOT / "benchmarks" / "data" / "opinions" / f"{lang}.jsonl",
        ROOT / "benchmarks" / "data" / "multilingual" / f"{lang}.jsonl",
    ]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths if p.exists()).lower()


def missing_cues(lang: str, cues: Sequence[str]) -> list[str]:
    """The cues of a template that the language's data does not hold (none for English)."""
    if lang == "en":
        return []
    known = knowledge(lang)
    return [c for c in cues if not re.search(rf"(?<!\w){re.escape(c.lower())}(?!\w)", known)]


def grouped(value: int, lang: str) -> str:
    """Digits grouped as the language writes them (Spanish leaves four digits whole)."""
    if value < 10_000 and lang == "es":
        return str(value)
    return f"{value:,}".replace(",", GROUPING[lang])


def _round2(value: int) -> int:
    step = 10 ** max(len(str(value)) - 2, 0)
    return round(value / step) * step


def _roman(value: int) -> str:
    out = ""
    for size, letters in ROMAN:
        while value >= size:
            out, value = out + letters, value - size
    return out


def _part(year: int) -> int:
    """0 early (x0-x3), 1 mid, 2 late (x7-x9) in its decade."""
    return 0 if year % 10 <= 3 else 1 if year % 10 <= 6 else 2


def number_filter(value: int, name: str, lang: str, words: Mapping[str, str]) -> str:
    """A whole number through one of the filters the module docstring lists."""
    step = 10 ** (len(str(value)) - 1)
    century = (value - 1) // 100 + 1
    parts = (words.get("early", ""), words.get("mid", ""), words.get("late", ""))
    rendered: dict[str, object] = {
        "g": grouped(value, lang),
        "round": grouped(_round2(value), lang),
        "below": grouped(value // step * step, lang),
        "above": grouped((value // step + 1) * step, lang),
        "decade": value // 10 * 10,
        "century": century,
        "roman": _roman(century),
        "prev": century - 1,
        "prev_roman": _roman(century - 1),
        "part": parts[_part(value)],
        "part_other": parts[0 if _part(value) else 2],
    }
    if name not in rendered:
        raise ValueError(f"unknown filter {name!r}")
    return str(rendered[name])


def _far(a: object, b: object) -> bool:
    """Two filler elements differ: whole numbers by a quarter, years by their decade."""
    if isinstance(a, int) and isinstance(b, int):
        years = all(1000 <= v <= 2100 for v in (a, b))
        return a // 10 != b // 10 if years else abs(a - b) >= 0.25 * max(a, b)
    return a != b


class Template:
    """One ``[[case]]`` of a templates file with the file's fillers."""

    def __init__(self, split: str, lang: str, row: Mapping[str, Any], file: Mapping[str, Any]):
        self.split, self.lang, self.row = split, lang, row
        self.fillers: Mapping[str, list[Any]] = file.get("fillers", {})
        self.words: Mapping[str, str] = file.get("words", {})
        self.shared: Mapping[str, str] = file.get("texts", {})
        self.n = int(row.get("n", file.get("n", DEFAULT_N)))
        self.family: str = row["family"]
        self.id: str = row["id"]
        expect = str(row["expect"])
        if self.family not in FAMILIES or expect.split(":")[0] not in EXPECTS:
            raise ValueError(f"{split}/{lang} {self.id}: family or expect unknown")
        if (self.family, lang) in SKIPPED:
            raise ValueError(f"{split}/{lang} {self.id}: {SKIPPED[(self.family, lang)]}")

    def known(self, element: object) -> bool:
        """A filler table with a ``cue`` is used only where the language's data holds it."""
        cue = element.get("cue") if isinstance(element, dict) else None
        return cue is None or not missing_cues(self.lang, [str(cue)])

    def texts(self) -> dict[str, str]:
        """The template's texts; ``"@key"`` stands for the file's ``[texts]`` entry ``key``."""
        keys = ("passage", "question", "answer", "base")
        texts = {key: str(self.row[key]) for key in keys if key in self.row}
        return {k: self.shared[t[1:]] if t.startswith("@") else t for k, t in texts.items()}

    def fill(self, rng: random.Random) -> dict[str, str] | None:
        """The template's texts with one draw of its fillers; None when a list has no
        element its language's data allows, or none far enough from the first for
        ``{name2}``."""
        texts = self.texts()
        used = {m.group(1, 2) for text in texts.values() for m in FILLER.finditer(text)}
        chosen: dict[str, Any] = {}
        for name, alt in sorted(used):
            options = [o for o in self.fillers[name] if self.known(o)]
            if not options:
                return None
            if name not in chosen:
                chosen[name] = rng.choice(options)
            if alt:
                others = [o for o in options if _far(o, chosen[name])]
                if not others:
                    return None
                chosen[name + alt] = rng.choice(others)

        def value(match: re.Match[str]) -> str:
            name, alt, field, filt = match.groups()
            item = chosen[name + alt]
            if field:
                item = item[field]
            if filt:
                return number_filter(int(item), filt, self.lang, self.words)
            return str(item)

        filled = {key: FILLER.sub(value, text) for key, text in texts.items()}
        case = self.row.get("answer_case")
        if case:
            filled["answer"] = getattr(filled["answer"], case)()
        return filled

    def labels(self) -> tuple[bool | None, bool | None]:
        """Gold support of the answer and of the base, where the expectation gives one."""
        expect = str(self.row["expect"]).split(":")[0]
        label = self.row.get("label")
        return {
            "supported": (True, None),
            "flag": (False, None),
            "lower": (False, True),
            "same": (label, label),
        }.get(expect, (None, None))

    def cases(self) -> Iterator[Case]:
        n = self.n
        rng = random.Random(f"{self.split}:{self.lang}:{self.id}")
        seen: set[tuple[str, ...]] = set()
        label, base_label = self.labels()
        for _ in range(n * 20):
            if len(seen) >= n:
                break
            filled = self.fill(rng)
            if filled is None:
                return
            key = tuple(filled.values())
            if key in seen:
                continue
            seen.add(key)
            yield Case(
                id=f"{self.split}-{self.lang}-{self.id}-{len(seen)}",
                split=self.split,
                lang=self.lang,
                family=self.family,
                template=self.id,
                passage=filled["passage"],
                question=filled["question"],
                answer=filled["answer"],
                expect=str(self.row["expect"]),
                base=filled.get("base", ""),
                label=label,
                base_label=base_label,
            )


@dataclass
class Suite:
    cases: list[Case]
    left_out: dict[str, list[str]]
    """Template id -> the cues its language's data does not hold (no case made)."""


def load(splits: Sequence[str] = SPLITS, languages: Sequence[str] = LANGUAGES) -> Suite:
    """Every case of the given splits and languages, in file order."""
    cases: list[Case] = []
    left_out: dict[str, list[str]] = {}
    for split in splits:
        for lang in languages:
            path = TEMPLATES / split / f"{lang}.toml"
            if not path.exists():
                continue
            file = tomllib.loads(path.read_text(encoding="utf-8"))
            for row in file.get("case", []):
                template = Template(split, lang, row, file)
                missing = missing_cues(lang, row.get("cues", []))
                if missing:
                    left_out[f"{split}/{lang}/{template.id}"] = missing
                    continue
                cases.extend(template.cases())
    ids = Counter(case.id for case in cases)
    if dupes := [i for i, count in ids.items() if count > 1]:
        raise ValueError(f"template ids repeat: {dupes[:5]}")
    return Suite(cases, left_out)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all")
    parser.add_argument("--lang", default=",".join(LANGUAGES))
    parser.add_argument("--jsonl", type=Path, help="write the cases here, one per line")
    args = parser.parse_args(argv)
    splits = SPLITS if args.split == "all" else (args.split,)
    suite = load(splits, args.lang.split(","))
    if args.jsonl:
        with args.jsonl.open("w", encoding="utf-8") as out:
            for case in suite.cases:
                out.write(json.dumps(asdict(case), ensure_ascii=False) + "\n")
    cells = Counter((c.split, c.family, c.lang) for c in suite.cases)
    for (split, family, lang), count in sorted(cells.items()):
        print(f"{split:8} {family:13} {lang}  {count}")
    print(f"{len(suite.cases)} cases; left out: {suite.left_out or 'none'}", file=sys.stderr)


if __name__ == "__main__":
    main()
