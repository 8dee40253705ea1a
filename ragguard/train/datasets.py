"""Readers for the permissively licensed training sets (see ``shared/data/README.md``).

Each reader yields ``Pair(context, statement, label)`` with the binary mapping of the data
README: entailment / SUPPORTS / completely-support / 1 -> 1, everything else -> 0. The dev
sets that benchmarks report (WiCE dev, Factcheck-GPT, NovelEval) have readers in
``benchmarks/`` only, so they cannot leak into training.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator
from pathlib import Path

from ragguard.scoring.lite import Pair

POSITIVE = {"entailment", "supports", "completely-support", "1"}


def _label(value: str) -> int:
    return int(value.strip().lower() in POSITIVE)


def _tsv_nli(path: Path, source: str) -> Iterator[Pair]:
    """``label<TAB>premise<TAB>hypothesis`` files (DocNLI exports)."""
    with path.open(encoding="utf-8") as handle:
        for row in csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(row) == 3:
                yield Pair(row[1], row[2], _label(row[0]), source)


def fever_nli(root: Path) -> Iterator[Pair]:
    for split in ("dev.tsv", "test.tsv"):
        yield from _tsv_nli(root / "fever-nli-binary" / split, "fever-nli-binary")


def mnli(root: Path) -> Iterator[Pair]:
    for split in ("dev.tsv", "test.tsv"):
        yield from _tsv_nli(root / "mnli-binary" / split, "mnli-binary")


def snli(root: Path) -> Iterator[Pair]:
    with (root / "snli" / "dev.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            yield Pair(row["premise"], row["hypothesis"], _label(row["label"]), "snli")


def scitail(root: Path) -> Iterator[Pair]:
    with (root / "scitail" / "test.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            yield Pair(row["premise"], row["hypothesis"], _label(row["label"]), "scitail")


def fever_symmetric(root: Path) -> Iterator[Pair]:
    for split in ("dev.jsonl", "test.jsonl"):
        with (root / "fever-symmetric" / split).open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                yield Pair(row["evidence"], row["claim"], _label(row["label"]), "fever-symmetric")


def summedits(root: Path) -> Iterator[Pair]:
    for path in sorted((root / "summedits").glob("summedits_*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")):
            yield Pair(row["doc"], row["summary"], _label(str(row["label"])), "summedits")


def selqa(root: Path) -> Iterator[Pair]:
    """Question-sentence relevance, minus the rows that touch WikiQA test."""
    folder = root / "selqa-ass"
    banned: set[tuple[str, int]] = set()
    with (folder / "OVERLAP_WITH_WIKIQA_TEST.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            banned.add((row["file"], int(row["line_no(1-based)"])))
    for split in ("dev.tsv", "test.tsv"):
        with (folder / split).open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3 and (split, number) not in banned:
                    yield Pair(parts[1], parts[0], int(parts[2] == "1"), "selqa-ass")


def qnli(root: Path) -> Iterator[Pair]:
    with (root / "qnli" / "dev.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            yield Pair(row["sentence"], row["question"], _label(row["label"]), "qnli")


def clapnq(root: Path) -> Iterator[Pair]:
    """Answerable questions' passages are positives; unanswerable ones are hard negatives."""
    for name, label in (("dev_answerable.jsonl", 1), ("dev_unanswerable.jsonl", 0)):
        with (root / "clapnq-dev" / name).open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                for passage in row["passages"]:
                    yield Pair(passage["text"], row["input"], label, "clapnq-dev")


SUPPORT_SOURCES: dict[str, Callable[[Path], Iterator[Pair]]] = {
    "fever-nli-binary": fever_nli,
    "mnli-binary": mnli,
    "snli": snli,
    "scitail": scitail,
    "fever-symmetric": fever_symmetric,
    "summedits": summedits,
}
RELEVANCE_SOURCES: dict[str, Callable[[Path], Iterator[Pair]]] = {
    "selqa-ass": selqa,
    "qnli": qnli,
    "clapnq-dev": clapnq,
}
LABEL_FIELDS = {"support": ("evidence", "claim"), "relevance": ("passage", "query")}
"""Per role, the (context, statement) fields of a line of the user's own labels file."""


def read_labels(path: Path, role: str) -> Iterator[Pair]:
    """The user's own labels. Support: the labelled format (a trace with ``response_spans``
    and a parallel ``labels`` list; ``ragguard.calibration.labels``), each labelled span a
    pair against its trace's items, or the older ``{"claim", "evidence", "label"}`` lines.
    Relevance: ``{"query", "passage", "label"}`` lines. Label 1/0 or true/false. Each file
    is a source of its own, named after the file. A bad line is an error naming it: a
    silently misread label would skew the head."""
    context, statement = LABEL_FIELDS[role]
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path} line {number}: not JSON ({error})") from None
            if role == "support" and isinstance(row, dict) and "labels" in row:
                yield from _labelled_pairs(row, number, path.name)
                continue
            if not isinstance(row, dict) or {context, statement, "label"} - row.keys():
                raise ValueError(
                    f"{path} line {number}: a {role} label needs "
                    f'"{statement}", "{context}" and "label" (1 or 0)'
                )
            if row["label"] not in (0, 1):  # true and false compare equal to 1 and 0
                raise ValueError(f"{path} line {number}: label {row['label']!r} is not 1 or 0")
            yield Pair(row[context], row[statement], int(row["label"]), path.name)


def _labelled_pairs(row: dict[str, object], line: int, source: str) -> Iterator[Pair]:
    """Each labelled span of a labelled trace, against all of its items' text."""
    from ragguard.calibration import as_labelled

    labelled = as_labelled(row, line)  # a TraceValidationError (a ValueError) names the field
    for claim, evidence, label in labelled.claims():
        yield Pair(evidence, claim, int(label), source)


LICENCES = {
    "fever-nli-binary": "CC BY-SA 3.0 (FEVER)",
    "mnli-binary": "MultiNLI terms (OANC; CC BY-SA 3.0 / CC BY 3.0)",
    "snli": "CC BY-SA 4.0",
    "scitail": "Apache-2.0",
    "fever-symmetric": "CC BY-SA 3.0",
    "summedits": "Apache-2.0",
    "selqa-ass": "Apache-2.0",
    "qnli": "CC BY-SA 4.0 (SQuAD)",
    "clapnq-dev": "Apache-2.0 (text CC BY-SA 3.0)",
}
