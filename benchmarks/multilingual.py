"""Claim support in German, Spanish, French and Hindi, against English on the same construction.

    python benchmarks/multilingual.py [--config FILE] [--languages de,hi] [--cross]
                                      [--json OUT] [--markdown]

The sets are ``benchmarks/data/multilingual/<code>.jsonl`` (their README says how they were
written and checked): 12 short factual passages, each in five parallel versions (en, de, es,
fr, hi), and per passage six claims in every language, two supported paraphrases and four
unsupported edits (one number, one date, one negation, one changed name or place). Every
pair is a one-span trace evaluated by ``ragguard.Evaluator`` with the given config (default:
the lite tier), so span analysis, checks and calibration count as they do for a user.

Per language it reports:

- ``balanced_acc``: the mean of the share of paraphrases kept (verdict "supported") and the
  share of edits flagged ("unsupported"), over the scored spans only;
- ``auc``: the area under the ROC curve of the span's support score (paraphrases above
  edits), over the same spans; it ignores the threshold and the checks' vetoes;
- ``unscored``: the share of spans whose verdict is "unscored" (for example a language the
  loaded backbone does not read), ``set_aside`` the share given another kind (subjective,
  empty), ``errors`` the share of traces that failed; none of these count as right or wrong
  above, so read them next to the two figures;
- ``kept_paraphrase`` and ``caught_<kind>``: per claim kind, the share of its scored spans
  judged supported (paraphrases) or unsupported (edits).

``--cross`` adds the cross-lingual rows, built from the parallel ids at run time: each
language's claims against the English passage of the same passage id, and the English claims
against each other language's passage.

Limits. The sets are small (72 pairs per language: one pair moves a kind's share by 1/12),
were written and checked by the project's developers, who are not native speakers of all
four languages, and follow one construction, the same as English's: single-fact edits of
short encyclopedic passages. They say whether a backbone reads a language at all and which
edit kinds it misses, not how it does on real answers; a language within a few points of
English here is not shown to be as good in production. Never train or choose a threshold on
them. The module runs from a source checkout and reads nothing outside it.
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragguard import Config, Evaluator
from ragguard.calibration.labels import read_labelled
from ragguard.metrics.agreement import balanced_accuracy, roc_auc
from ragguard.metrics.summary import markdown_table
from ragguard.schema import Evaluation, Trace, verdict

DATA = Path(__file__).resolve().parent / "data" / "multilingual"
LANGUAGES = ("en", "de", "es", "fr", "hi")
EDIT_KINDS = ("number", "date", "negation", "entity")
KINDS = ("paraphrase", *EDIT_KINDS)
COLUMNS = [
    "claims",
    "passage",
    "pairs",
    "balanced_acc",
    "auc",
    "unscored",
    "set_aside",
    "errors",
    "kept_paraphrase",
    *(f"caught_{kind}" for kind in EDIT_KINDS),
]
BATCH = 24


@dataclass(frozen=True)
class Pair:
    """One claim against one passage, with its gold label and where it came from."""

    passage_id: str
    claim_id: str
    kind: str
    claim_language: str
    passage_language: str
    query: str
    passage: str
    claim: str
    supported: bool

    def trace(self) -> Trace:
        return Trace.model_validate(
            {
                "trace_id": f"{self.passage_id}-{self.claim_id}-{self.claim_language}"
                f"-{self.passage_language}",
                "query": self.query,
                "items": [{"id": "p", "text": self.passage}],
                "response": self.claim,
                "response_spans": [self.claim],
            }
        )


@dataclass(frozen=True)
class Result:
    """What the evaluator said about one pair."""

    pair: Pair
    verdict: str
    """A span verdict (``ragguard.schema.verdict``), or "error" when the trace failed."""
    support: float | None
    reason: str | None = None
    """Why a span was not scored, where the evaluation says (``unscored_reason``)."""


def read_set(path: Path) -> list[Pair]:
    """A language's file through ragguard's labelled-format reader; a bad line raises."""
    pairs = []
    for row in read_labelled(path):
        if isinstance(row, Exception):
            raise row
        extra = row.trace.model_extra or {}
        (claim,) = row.trace.response_spans or ()
        (label,) = row.labels
        if label is None:
            raise ValueError(f"{path}: {row.trace.trace_id} has no label")
        pairs.append(
            Pair(
                passage_id=extra["passage_id"],
                claim_id=extra["claim_id"],
                kind=extra["kind"],
                claim_language=extra["language"],
                passage_language=extra["language"],
                query=row.trace.query,
                passage=row.trace.items[0].text or "",
                claim=claim,
                supported=label,
            )
        )
    return pairs


def cross_sets(sets: Mapping[str, Sequence[Pair]]) -> dict[tuple[str, str], list[Pair]]:
    """(claim language, passage language) -> pairs: every other language's claims against the
    English passage of the same passage id, and English claims against each other passage."""
    english = {p.passage_id: p for p in sets["en"]}
    crossed: dict[tuple[str, str], list[Pair]] = {}
    for code, pairs in sets.items():
        if code == "en":
            continue
        own = {p.passage_id: p for p in pairs}
        crossed[(code, "en")] = [
            _with_passage(p, english[p.passage_id]) for p in pairs if p.passage_id in english
        ]
        crossed[("en", code)] = [
            _with_passage(p, own[p.passage_id]) for p in sets["en"] if p.passage_id in own
        ]
    return crossed


def _with_passage(pair: Pair, source: Pair) -> Pair:
    """The claim of ``pair`` against the passage (and question) of ``source``."""
    return replace(
        pair,
        passage_language=source.passage_language,
        query=source.query,
        passage=source.passage,
    )


def evaluate(evaluator: Evaluator, pairs: Sequence[Pair], desc: str) -> list[Result]:
    """Each pair as a one-span trace through the evaluator, in batches."""
    results: list[Result] = []
    with tqdm(total=len(pairs), desc=desc, unit="pair", disable=None) as bar:
        for start in range(0, len(pairs), BATCH):
            chunk = pairs[start : start + BATCH]
            for pair, outcome in zip(
                chunk, evaluator.evaluate_batch([p.trace() for p in chunk]), strict=True
            ):
                if not isinstance(outcome, Evaluation) or not outcome.spans:
                    results.append(Result(pair, "error", None, str(outcome)[:200]))
                    continue
                span = outcome.spans[0]
                results.append(Result(pair, verdict(span), span.support, span.unscored_reason))
            bar.update(len(chunk))
    return results


def _share(flags: Iterable[bool]) -> float:
    values = list(flags)
    return float(np.mean(values)) if values else float("nan")


def metrics(results: Sequence[Result]) -> dict[str, Any]:
    """The figures of one set (see the module docstring): BA and AUC over the scored spans,
    the shares not scored, and per claim kind the share judged as its label says."""
    scored = [r for r in results if r.verdict in ("supported", "unsupported")]
    labels = np.array([r.pair.supported for r in scored], dtype=bool)
    predicted = np.array([r.verdict == "supported" for r in scored], dtype=bool)
    with_score = [r for r in scored if r.support is not None]
    row: dict[str, Any] = {
        "pairs": len(results),
        "scored": len(scored),
        "balanced_acc": balanced_accuracy(predicted, labels) if scored else float("nan"),
        "auc": roc_auc(
            np.array([r.support for r in with_score], dtype=float),
            np.array([r.pair.supported for r in with_score], dtype=bool),
        ),
        "unscored": _share(r.verdict == "unscored" for r in results),
        "set_aside": _share(
            r.verdict not in ("supported", "unsupported", "unscored", "error") for r in results
        ),
        "errors": _share(r.verdict == "error" for r in results),
    }
    for kind in KINDS:
        of_kind = [r for r in scored if r.pair.kind == kind]
        name = "kept_paraphrase" if kind == "paraphrase" else f"caught_{kind}"
        right = "supported" if kind == "paraphrase" else "unsupported"
        row[name] = _share(r.verdict == right for r in of_kind)
    return row


def reasons(results: Sequence[Result]) -> Counter[str]:
    """Why spans were not scored or traces failed, with counts."""
    return Counter(
        f"{r.verdict}: {r.reason or '(no reason given)'}"
        for r in results
        if r.verdict not in ("supported", "unsupported")
    )


def text_table(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    """Rows as aligned plain text (floats to three decimals)."""

    def cell(value: object) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    cells = [[cell(row.get(c, "")) for c in columns] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))]
    lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join(lines)


def run(config: Config, languages: Sequence[str], cross: bool, data: Path = DATA) -> dict[str, Any]:
    """Every requested set (and with ``cross`` the cross-lingual ones) scored and summed up."""
    codes = list(dict.fromkeys(["en", *languages])) if cross else list(languages)
    sets = {code: read_set(data / f"{code}.jsonl") for code in codes}
    evaluator = Evaluator(config)
    jobs: dict[tuple[str, str], list[Pair]] = {(code, code): list(sets[code]) for code in languages}
    if cross:
        chosen = [c for c in languages if c != "en"]
        jobs.update({k: v for k, v in cross_sets(sets).items() if k[0] in chosen or k[1] in chosen})
    rows, why = [], {}
    for (claims, passage), pairs in jobs.items():
        results = evaluate(evaluator, pairs, f"{claims} claims / {passage} passage")
        rows.append({"claims": claims, "passage": passage, **metrics(results)})
        found = reasons(results)
        if found:
            why[f"{claims}/{passage}"] = dict(found.most_common())
    return {"rows": rows, "not_scored": why}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", help="ragguard config (TOML/JSON); default: the lite tier")
    parser.add_argument(
        "--languages",
        default=",".join(LANGUAGES),
        help=f"comma-separated codes (default {','.join(LANGUAGES)})",
    )
    parser.add_argument("--cross", action="store_true", help="add the cross-lingual pairs")
    parser.add_argument("--json", type=Path, help="write the rows and reasons to this file")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    languages = [code.strip() for code in args.languages.split(",") if code.strip()]
    unknown = sorted(set(languages) - set(LANGUAGES))
    if unknown:
        parser.error(f"no set for {', '.join(unknown)}; sets: {', '.join(LANGUAGES)}")

    config = Config.from_file(args.config) if args.config else Config()
    report = run(config, languages, args.cross)
    table = markdown_table if args.markdown else text_table
    print("\nClaim support per language (scored spans; shares of all pairs)\n")
    print(table(report["rows"], COLUMNS))
    for name, counts in report["not_scored"].items():
        print(f"\nNot scored or failed, {name}:")
        for reason, count in counts.items():
            print(f"  {count:3d}  {reason}")
    if args.json:
        report["config"] = args.config
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
