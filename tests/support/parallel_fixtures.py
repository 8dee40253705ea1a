"""Comparing evaluations made in other processes (workers, Ray actors) with one process's."""

import json
from pathlib import Path

import pytest


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def same_evaluations(ours: list[dict], theirs: list[dict]) -> None:
    """Trace for trace: same ids in the same order, same verdicts, scores equal up to float
    noise (a text's padding differs with what it was batched with)."""
    assert [e["trace_id"] for e in ours] == [e["trace_id"] for e in theirs]
    for a, b in zip(ours, theirs, strict=True):
        assert [(i["id"], i["relevant"]) for i in a["items"]] == [
            (i["id"], i["relevant"]) for i in b["items"]
        ]
        assert [i["relevance"] for i in a["items"]] == pytest.approx(
            [i["relevance"] for i in b["items"]], abs=1e-4
        )
        assert [(s["text"], s["supported"]) for s in a["spans"]] == [
            (s["text"], s["supported"]) for s in b["spans"]
        ]
        assert [s["support"] for s in a["spans"]] == pytest.approx(
            [s["support"] for s in b["spans"]], abs=1e-4
        )
        numbers = {k: v for k, v in a["metrics"].items() if isinstance(v, float)}
        assert numbers == pytest.approx({k: b["metrics"][k] for k in numbers}, abs=1e-4)
        assert {k: v for k, v in a["metrics"].items() if k not in numbers} == {
            k: v for k, v in b["metrics"].items() if k not in numbers
        }
