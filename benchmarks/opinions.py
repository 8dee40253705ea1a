"""Opinions set aside, opinion-cued facts kept, in every language ragguard reads.

    python benchmarks/opinions.py [--languages en,de] [--direct]

The sets are ``benchmarks/data/opinions/<code>.jsonl``, hand-written for this benchmark (not
taken from any corpus): per language at least 20 opinions whose predicate is evaluative ("I
think the Eiffel Tower is the most beautiful building in the world", kind ``opinion``) and at
least 20 opinion-cued sentences that state a checkable fact ("I believe it opened in 1937",
kind ``checkable``). Each sentence is a one-span answer evaluated by ``ragguard.Evaluator``
with the default config (language detection, span analysis as a user gets them), with a
question and a one-sentence passage in the same language; ``--direct`` calls the
categorizer with the set's language instead. Reported per language: the share of opinions
marked subjective, the share of checkable sentences left objective, and the lower of the two
(target: 0.90 both ways).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ragguard import Config, Evaluator
from ragguard.metrics.summary import markdown_table
from ragguard.schema import Evaluation, Trace
from ragguard.spans.categorize import Categorizer

DATA = Path(__file__).resolve().parent / "data" / "opinions"
LANGUAGES = ("en", "de", "es", "fr", "hi")
QUESTION = {
    "en": "What do you think of it?",
    "de": "Was hältst du davon?",
    "es": "¿Qué opinas de ello?",
    "fr": "Qu'en penses-tu ?",
    "hi": "इसके बारे में आपकी क्या राय है?",
}
PASSAGE = {
    "en": "The museum opened to the public in the nineteenth century.",
    "de": "Das Museum wurde im neunzehnten Jahrhundert für die Öffentlichkeit geöffnet.",
    "es": "El museo se abrió al público en el siglo diecinueve.",
    "fr": "Le musée a ouvert ses portes au public au dix-neuvième siècle.",
    "hi": "यह संग्रहालय उन्नीसवीं सदी में जनता के लिए खोला गया था।",
}


def read_set(code: str, data: Path = DATA) -> list[dict[str, str]]:
    """The rows (``id``, ``kind``, ``text``) of one language's file."""
    with (data / f"{code}.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def kinds(code: str, rows: Sequence[dict[str, str]], direct: bool, evaluator: Evaluator | None):
    """The span kind ragguard gives each row's sentence."""
    if direct or evaluator is None:
        categorizer = Categorizer()
        return [categorizer.categorize(row["text"], code).kind for row in rows]
    traces = [
        Trace.model_validate(
            {
                "trace_id": row["id"],
                "query": QUESTION[code],
                "items": [{"id": "p", "text": PASSAGE[code]}],
                "response": row["text"],
                "response_spans": [row["text"]],
            }
        )
        for row in rows
    ]
    found = []
    for outcome in evaluator.evaluate_batch(traces):
        found.append(
            outcome.spans[0].kind if isinstance(outcome, Evaluation) and outcome.spans else "error"
        )
    return found


def rows_for(languages: Sequence[str], direct: bool) -> list[dict[str, object]]:
    evaluator = None if direct else Evaluator(Config())
    table: list[dict[str, object]] = []
    for code in languages:
        rows = read_set(code)
        found = kinds(code, rows, direct, evaluator)
        opinions = [
            k == "subjective" for r, k in zip(rows, found, strict=True) if r["kind"] == "opinion"
        ]
        facts = [
            k == "objective" for r, k in zip(rows, found, strict=True) if r["kind"] == "checkable"
        ]
        missed = [
            r["text"]
            for r, k in zip(rows, found, strict=True)
            if (k == "subjective") != (r["kind"] == "opinion")
        ]
        opinion_share = sum(opinions) / len(opinions)
        fact_share = sum(facts) / len(facts)
        table.append(
            {
                "language": code,
                "opinions": len(opinions),
                "checkable": len(facts),
                "opinions_subjective": opinion_share,
                "checkable_objective": fact_share,
                "both_ways": min(opinion_share, fact_share),
                "wrong": " | ".join(missed),
            }
        )
    return table


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--direct", action="store_true", help="categorizer only, no evaluator")
    args = parser.parse_args(argv)
    rows = rows_for(args.languages.split(","), args.direct)
    columns = ["language", "opinions", "checkable", "opinions_subjective", "checkable_objective"]
    print(markdown_table(rows, [*columns, "both_ways"]))
    for row in rows:
        if row["wrong"]:
            print(f"\n{row['language']} wrong: {row['wrong']}")


if __name__ == "__main__":
    main()
