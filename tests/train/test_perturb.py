"""Single-edit contradictions (``train.perturb``): the hard negatives and the benchmark's edits."""

from __future__ import annotations

from ragguard.scoring.lite import Pair
from ragguard.train.perturb import edit, edits, hard_negatives
from tests.scoring.checks.passages import BOILING, EINSTEIN, PARIS


def test_edited_ordinals_keep_a_true_suffix():
    made = edit("He came 21st in the race.", "He came 21st in the race.", "number")
    assert made is not None and made.after == "10th"


def test_edits_are_single_and_deterministic():
    claim = "Albert Einstein was born in Ulm in 1879."
    made = {e.kind: e for e in edits(claim, EINSTEIN, seed=3)}
    assert set(made) == {"date", "negation", "entity", "antonym"}
    assert made["entity"].text == "Albert Einstein was born in Munich in 1879."
    assert made["negation"].text == "Albert Einstein was not born in Ulm in 1879."
    assert made["antonym"].text == "Albert Einstein died in Ulm in 1879."
    assert edits(claim, EINSTEIN, seed=3) == list(made.values())
    number = edit("About 1.5 million people live in Munich.", EINSTEIN, "number")
    assert number is not None and number.before == "1.5 million" and number.after != "1.5 million"
    assert edit("Water boils.", BOILING, "number") is None


def test_hard_negatives_share_the_evidence_and_count_kinds():
    pairs = [Pair(EINSTEIN, "Einstein was born in Ulm in 1879.", 1, "s"), Pair(PARIS, "x", 0, "s")]
    out, kinds = hard_negatives(pairs, share=1.0, seed=0)
    (extra,) = out[2:]
    assert extra.context == EINSTEIN and extra.label == 0 and sum(kinds.values()) == 1
    assert hard_negatives(pairs, share=1.0, seed=0) == (out, kinds)
