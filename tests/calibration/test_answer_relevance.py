"""``ragguard calibrate`` fits the answer-relevance threshold from lines labelled
``answer_relevant``, writes it with a card row, and the calibrated config applies it."""

import random

import pytest

from ragguard import Config, Guard
from ragguard.calibration.fingerprint import applied
from ragguard.cli import EXIT_OK, main
from tests.support.calibration_fixtures import labelled_rows, write_jsonl

OFF_TOPIC = [
    "How do I bake sourdough bread?",
    "Who won the football world cup in 1998?",
    "What is the boiling point of water?",
    "How many legs does a spider have?",
]


def answer_labelled(n: int) -> list[dict]:
    """The calibration fixtures' claims, asked either about their own landmark (relevant)
    or an unrelated question (not)."""
    rng = random.Random(3)
    rows = labelled_rows(n)
    for row in rows:
        relevant = rng.random() < 0.5
        if not relevant:
            row["query"] = rng.choice(OFF_TOPIC)
        row["answer_relevant"] = relevant
    return rows


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("answer-calibrate")
    rows = answer_labelled(60)
    labelled = write_jsonl(folder / "labelled.jsonl", rows)
    out = folder / "calibrated.toml"
    assert main(["calibrate", str(labelled), "-o", str(out)]) == EXIT_OK
    return out, rows


def test_the_answer_threshold_is_fitted_and_carded(calibrated):
    out, rows = calibrated
    fitted = Config.from_file(out).calibration.fitted
    assert fitted is not None and fitted.answer_relevance_labels == len(rows)
    assert fitted.answer_relevance_threshold is not None
    lo, hi = fitted.answer_relevance_band
    assert lo <= fitted.answer_relevance_threshold <= hi
    card = out.with_suffix(".md").read_text()
    assert f"Answer relevance: {len(rows)} labelled answers" in card
    written = f"{fitted.answer_relevance_threshold:.3f} |"
    assert f"| calibrated | {written}" in card or f"| default (written) | {written}" in card


def test_the_calibrated_answer_threshold_is_in_force(calibrated):
    out, rows = calibrated
    fitted = Config.from_file(out).calibration.fitted
    config = applied(Config.from_file(out))
    assert config.answer.threshold == fitted.answer_relevance_threshold
    assert config.judge.answer_band == fitted.answer_relevance_band
    row = {k: v for k, v in rows[0].items() if k not in ("labels", "answer_relevant")}
    evaluation = Guard(out).evaluate(row)
    assert evaluation.thresholds.answer_relevance == fitted.answer_relevance_threshold


def test_without_answer_labels_the_head_threshold_stays(tmp_path):
    labelled = write_jsonl(tmp_path / "labelled.jsonl", labelled_rows(30))
    out = tmp_path / "calibrated.toml"
    assert main(["calibrate", str(labelled), "-o", str(out)]) == EXIT_OK
    fitted = Config.from_file(out).calibration.fitted
    assert fitted.answer_relevance_threshold is None and fitted.answer_relevance_labels == 0
    assert "Answer relevance:" not in out.with_suffix(".md").read_text()
    assert applied(Config.from_file(out)).answer.threshold is None
