"""``ragguard calibrate`` refuses garbage (issue 57): inverted labels are reported and the
default written; identical (span, items) pairs count once; disagreeing labels are listed;
the card counts the review page's designs. Each ran the real command in a subprocess."""

from __future__ import annotations

import hashlib
import re
import tomllib

from ragguard.cli import EXIT_OK
from tests.support.calibration_fixtures import labelled_rows, write_jsonl
from tests.support.cli_process import run_ragguard as ragguard


def thresholds(card: str) -> tuple[str, str]:
    """The default's and the written threshold, as the card prints them: a kept default is
    the row written, a fit the row ``calibrated``."""
    kept = re.search(r"\| default \(written\) \| ([0-9.]+) \|", card)
    if kept:
        return kept.group(1), kept.group(1)
    default = re.search(r"\| default \| ([0-9.]+) \|", card)
    written = re.search(r"\| calibrated \| ([0-9.]+) \|", card)
    assert default and written, card
    return default.group(1), written.group(1)


def test_inverted_labels_are_reported_and_the_default_is_written(tmp_path):
    """A file whose ``true`` means "hallucinated": on 2462735 the card said the fit "beat
    the default ... intervals apart" and a threshold far from the default was written."""
    rows = [{**row, "labels": [not row["labels"][0]]} for row in labelled_rows(120)]
    out = tmp_path / "calibrated.toml"
    done = ragguard("calibrate", str(write_jsonl(tmp_path / "l.jsonl", rows)), "-o", str(out))
    assert done.returncode == EXIT_OK, done.stderr
    card = out.with_suffix(".md").read_text()
    assert "labels look inverted" in card and "beat the default" not in card
    fitted = tomllib.loads(out.read_text())["calibration"]["fitted"]
    assert fitted["kept_default"] is True
    default, written = thresholds(card)
    assert written == default and f"{fitted['threshold']:.3f}" == default
    assert "| default (written) |" in card and "| fit (not written) | | |" in card


def content_hash(span: str, items: list[dict]) -> str:
    """The review page's ``hash`` of a span and its items (``calibration.labels``)."""
    digest = hashlib.sha256(span.encode())
    for item in items:
        for part in (item["id"], item.get("text") or "", "", ""):
            digest.update(b"\0" + part.encode())
    return "sha256:" + digest.hexdigest()


def reviewed(row: dict, label: bool, reviewer: str, design: str) -> dict:
    span = row["response_spans"][0]
    return {
        **row,
        "labels": [label],
        "hash": content_hash(span, row["items"]),
        "design": design,
        "reviewer": reviewer,
        "review": {"span": 0},
    }


def test_copies_count_once_and_disagreements_are_listed(tmp_path):
    """200 copies of one three-claim trace counted as 600 labels on 2462735 and passed the
    "fewer than 50" warning; a pair labelled both ways was not reported."""
    rows = labelled_rows(3, seed=7)
    one = {
        **rows[0],
        "items": [{**r["items"][0], "id": f"p{i}"} for i, r in enumerate(rows)],
        "response": " ".join(r["response"] for r in rows),
        "response_spans": [r["response"] for r in rows],
        "labels": [r["labels"][0] for r in rows],
    }
    twice = labelled_rows(2, seed=8)
    lines = [{**one, "trace_id": f"copy{i}"} for i in range(200)]
    lines += [twice[0], {**twice[0], "trace_id": "again", "labels": [not twice[0]["labels"][0]]}]
    lines += [
        reviewed(twice[1], True, "ann", "random"),
        reviewed(twice[1], True, "bob", "random"),
    ]
    out = tmp_path / "calibrated.toml"
    done = ragguard("calibrate", str(write_jsonl(tmp_path / "l.jsonl", lines)), "-o", str(out))
    assert done.returncode == EXIT_OK, done.stderr
    card = out.with_suffix(".md").read_text()
    assert "labelled spans: 4 " in card and "only 4 labelled spans" in card
    assert "599 of the 604 labels read repeat" in card
    claim = " ".join(twice[0]["response"].split())
    assert "disagreeing labels: 1 pairs" in card and repr(claim) in card
    assert "on line 201" in card and "on line 202" in card
    assert "label designs: 1 random" in card
    assert tomllib.loads(out.read_text())["calibration"]["fitted"]["n_labels"] == 4
