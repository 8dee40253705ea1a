"""Readers for the development sets the benchmarks report (never used for training).

The sets are not shipped with ragguard: each benchmark takes the folder holding them as
``--data DIR`` (subfolders ``wice-dev/``, ``factcheck-gpt/``, ``noveleval/``, and for the
raw-cosine baseline ``fever-nli-binary/`` and ``mnli-binary/``).
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


def add_data_argument(parser: argparse.ArgumentParser) -> None:
    """``--data DIR`` (required), checked at once with a one-line error when missing."""

    def folder(value: str) -> Path:
        if not Path(value).is_dir():
            raise argparse.ArgumentTypeError(f"no data directory {value}: pass --data DIR")
        return Path(value)

    parser.add_argument(
        "--data", type=folder, required=True, help="the folder holding the development sets"
    )


@dataclass(frozen=True)
class SupportCase:
    claim: str
    evidence: str
    label: bool


def wice(data: Path) -> list[SupportCase]:
    """WiCE dev: claim vs the cited page's evidence sentences; "supported" vs the rest
    (partially_supported counts as not supported, per the data README)."""
    cases = []
    with (data / "wice-dev" / "oracle_chunks_claim_dev.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            evidence = row["evidence"]
            if isinstance(evidence, str):
                evidence = ast.literal_eval(evidence)
            cases.append(
                SupportCase(row["claim"], "\n".join(evidence), row["label"] == "supported")
            )
    return cases


def factcheck_gpt(data: Path) -> list[SupportCase]:
    """Factcheck-GPT stance: completely-support vs the rest."""
    path = data / "factcheck-gpt" / "subtask3_claim_evidence_stance.jsonl"
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return [
        SupportCase(r["claim"], r["evidence"], r["stance"] == "completely-support") for r in rows
    ]


def noveleval(
    data: Path,
) -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, int]]]:
    """NovelEval: queries, passages and graded qrels (0/1/2)."""
    folder = data / "noveleval"
    queries = dict(
        line.rstrip("\n").split("\t", 1) for line in (folder / "queries.tsv").open(encoding="utf-8")
    )
    corpus = dict(
        line.rstrip("\n").split("\t", 1) for line in (folder / "corpus.tsv").open(encoding="utf-8")
    )
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in (folder / "qrels.txt").open(encoding="utf-8"):
        qid, _, docid, grade = line.split()
        qrels[qid][docid] = int(grade)
    return queries, corpus, dict(qrels)
