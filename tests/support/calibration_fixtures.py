"""Labelled traces the calibration tests share: one-span claims against a short passage,
supported (restated or paraphrased) or not (a changed number, year or place), written from
templates so that the gold label is known."""

from __future__ import annotations

import json
import random
from pathlib import Path

PLACES = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Oslo"]
THINGS = ["bridge", "tower", "museum", "library", "stadium", "cathedral", "station", "harbour"]


def labelled_rows(n: int, seed: int = 0) -> list[dict]:
    """``n`` labelled traces (half supported), each with one claim against one passage."""
    rng = random.Random(seed)
    rows: list[dict] = []
    seen: set[str] = set()
    while len(rows) < n:
        i = len(rows)
        thing, place = rng.choice(THINGS), rng.choice(PLACES)
        year, height = rng.randint(1800, 2000), rng.randint(20, 300)
        passage = (
            f"The {thing} of {place} was opened in {year}. It is {height} metres tall and "
            f"stands near the old town of {place}."
        )
        kind = rng.choice(["same", "paraphrase", "year", "height", "place"])
        other = rng.choice([p for p in PLACES if p != place])
        claim = {
            "same": f"The {thing} of {place} was opened in {year}.",
            "paraphrase": f"The {thing} of {place} opened its doors in {year}.",
            "year": f"The {thing} of {place} was opened in {year + rng.randint(3, 60)}.",
            "height": f"The {thing} of {place} is {height + rng.randint(15, 90)} metres tall.",
            "place": f"The {thing} of {place} stands near the old town of {other}.",
        }[kind]
        if claim in seen:  # every claim text distinct: the stand-in judge finds it by its text
            continue
        seen.add(claim)
        rows.append(
            {
                "trace_id": f"c{i}",
                "query": f"Tell me about the {thing} of {place}.",
                "items": [{"id": "p1", "text": passage}],
                "response": claim,
                "response_spans": [claim],
                "labels": [kind in ("same", "paraphrase")],
            }
        )
    return rows


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def gold(rows: list[dict]) -> dict[str, bool]:
    """Claim text -> supported, for the stand-in judge."""
    return {row["response_spans"][0]: bool(row["labels"][0]) for row in rows}


def unlabelled(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "labels"} for row in rows]
