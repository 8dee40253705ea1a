"""``ragguard calibrate --judge``: the judge's combination card refitted on a deployment's
labels, with the threshold's cross-validation and wording: a judge biased to "yes" keeps
the lite verdict, an informative one is given the decision; the written config loads."""

import tomllib

import pytest

from benchmarks.accuracy_judge import standin_judge
from ragguard import Config
from ragguard.cli import EXIT_OK, main
from ragguard.errors import RagguardError
from tests.support.calibration_fixtures import gold, labelled_rows, write_jsonl

ROWS = labelled_rows(80, seed=3)
HARD = [
    {**row, "labels": [not row["labels"][0]]} if n % 3 == 0 else row for n, row in enumerate(ROWS)
]
"""Every third label flipped: the lite tier errs on those, a judge that knows them does not."""


def calibrate(tmp_path, rows=ROWS, **judge):
    labelled = write_jsonl(tmp_path / "labelled.jsonl", rows)
    with standin_judge(gold(rows), **judge) as server:
        base = tmp_path / "base.toml"
        base.write_text(
            f'[judge]\nbackend = "openai"\nbase_url = "{server.base_url}"\nmodel = "stand-in"\n'
            "band = [0.0, 1.0]\nanswer_band = [0.0, 0.0]\nmax_calls_per_minute = 1000\n"
        )
        out = tmp_path / "calibrated.toml"
        code = main(["calibrate", str(labelled), "-o", str(out), "-c", str(base), "--judge"])
    return code, out


def test_a_judge_biased_to_yes_keeps_the_lite_verdict(tmp_path):
    code, out = calibrate(tmp_path, flip=0.0, bias=0.9)
    assert code == EXIT_OK
    card = Config.from_file(out).judge.combination
    assert card is not None and card.model == "stand-in" and card.judge_weight == 0.0
    assert card.n_pairs == len(ROWS)
    text = out.with_suffix(".md").read_text()
    assert "judge combination card: stand-in" in text and "kept the lite verdict" in text


def test_an_informative_judge_is_given_the_decision(tmp_path):
    code, out = calibrate(tmp_path, HARD, flip=0.1)
    assert code == EXIT_OK
    data = tomllib.loads(out.read_text())
    card = Config.from_file(out).judge.combination
    assert data["judge"]["combination"]["judge_weight"] == card.judge_weight > 0
    scores = card.balanced_accuracy
    assert max(scores["judge"], scores["combined"]) > scores["lite"]


def test_judge_needs_a_judge(tmp_path, capsys):
    labelled = write_jsonl(tmp_path / "labelled.jsonl", ROWS[:5])
    with pytest.raises(RagguardError, match="needs a \\[judge\\] backend"):
        from ragguard.cli.calibrate import run

        class Args:
            show = None
            labelled = str(tmp_path / "labelled.jsonl")
            output = str(tmp_path / "out.toml")
            config = None
            band_share = None
            judge = True

        run(Args())
    assert labelled.exists()
