import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from ragguard.config import Config
from ragguard.evaluation.evaluator import Evaluator
from ragguard.schema import Trace
from ragguard.schema.check_kinds import CONTRADICTIONS
from ragguard.scoring.lite import Pair
from ragguard.scoring.lite.fit import fit_mlp
from ragguard.scoring.lite.heads import Head
from ragguard.scoring.lite.losses import pairwise_loss
from ragguard.scoring.lite.triplets import triplet_indices
from ragguard.train.card import write_card
from ragguard.train.datasets import read_labels


def test_pairwise_loss_is_ragchecks_formula_when_ordered():
    pos, neg = torch.tensor([2.0, 0.5]), torch.tensor([-2.0, 0.3])
    expected = np.mean(
        [-math.log(torch.sigmoid(p) - torch.sigmoid(n)) for p, n in zip(pos, neg, strict=True)]
    )
    assert pairwise_loss(pos, neg).item() == pytest.approx(expected, rel=1e-5)


def test_pairwise_loss_pushes_a_wrongly_ordered_triplet_the_right_way():
    pos = torch.tensor([-1.0], requires_grad=True)
    neg = torch.tensor([1.0], requires_grad=True)
    loss = pairwise_loss(pos, neg)
    loss.backward()
    assert math.isfinite(loss.item()) and loss.item() > pairwise_loss(neg, pos).item()
    assert pos.grad.item() < 0 < neg.grad.item()  # descent raises pos, lowers neg


def _pairs():
    return [
        Pair("ctx a", "a1", 1, "s"),
        Pair("ctx a", "a2", 0, "s"),
        Pair("ctx a", "a3", 0, "s"),
        Pair("ctx b", "b1", 1, "s"),
        Pair("ctx c", "c1", 1, "s"),
        Pair("ctx c", "c2", 0, "s"),
    ]


def test_triplets_share_a_context_and_the_rest_stay_binary():
    pairs = _pairs()
    triplets, single = triplet_indices(pairs, per_context=2, seed=0)
    assert len(triplets) == 2
    for p, n in triplets:
        assert pairs[p].context == pairs[n].context
        assert (pairs[p].label, pairs[n].label) == (1, 0)
    used = set(triplets.ravel()) | set(single)
    assert used == set(range(len(pairs))) and not set(triplets.ravel()) & set(single)


def test_relevance_triplets_share_the_query():
    pairs = [
        Pair("passage 1", "query a", 1, "s"),
        Pair("passage 2", "query a", 0, "s"),
        Pair("passage 3", "query b", 0, "s"),
    ]
    triplets, single = triplet_indices(pairs, per_context=2, seed=0, shared="statement")
    assert triplets.tolist() == [[0, 1]] and single.tolist() == [2]
    assert len(triplet_indices(pairs, per_context=2, seed=0)[0]) == 0  # no shared context


def test_fit_with_triplets_learns_to_order_statements_about_one_context():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 3)).astype(np.float32)
    y = (x[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(np.float32)
    positives, negatives = np.flatnonzero(y == 1)[:100], np.flatnonzero(y == 0)[:100]
    triplets = np.stack([positives, negatives], axis=1)
    mean, std, layers = fit_mlp(x, y, triplets=triplets, hidden=0, epochs=200)
    head = Head("h", ["a", "b", "c"], mean, std, layers)
    scores = head.predict(x)
    assert (scores[positives] > scores[negatives]).mean() > 0.9
    assert abs(layers[0].weight[0, 0]) > 3 * abs(layers[0].weight[1, 0])


def test_card_is_written_as_markdown(tmp_path):
    write_card(tmp_path / "c.md", "card", {"data": {"snli": "CC BY-SA 4.0"}, "seed": 0})
    text = (tmp_path / "c.md").read_text()
    assert text.startswith("# card") and "- **snli**: CC BY-SA 4.0" in text


def test_train_cli_writes_a_deterministic_head_and_its_model_card(tmp_path):
    from ragguard.cli import main

    folder = tmp_path / "data" / "scitail"
    folder.mkdir(parents=True)
    rows = ["premise,hypothesis,label"]
    for i in range(20):
        premise = f"The river {i} flows north into the lake."
        rows.append(f"{premise},River {i} flows north.,entailment")
        rows.append(f"{premise},River {i} is a desert.,not_entailment")
    (folder / "test.csv").write_text("\n".join(rows) + "\n")
    outputs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        args = ["train", "support", "--data", str(tmp_path / "data"), "--sources", "scitail"]
        assert main([*args, "--per-source", "40", "--out", str(out)]) == 0
        outputs.append(Head.load(out))
    first, second = outputs
    np.testing.assert_array_equal(first.layers[0].weight, second.layers[0].weight)
    assert 0.0 < first.threshold < 1.0 and first.card["train_triplets"] > 0
    card = (tmp_path / "a.md").read_text()
    assert "scitail" in card and "Apache-2.0" in card and "pairwise" in card
    assert first.card["veto"] == list(CONTRADICTIONS)
    assert sum(first.card["hard_negatives"]["train"].values()) > 0 and "hard_negatives" in card


def write_labels(path, role):
    """A small labels file in the documented format: 20 supported and 20 unsupported."""
    context, statement = ("evidence", "claim") if role == "support" else ("passage", "query")
    rows = []
    for i in range(20):
        evidence = f"The river {i} flows north into the lake near the town of Harlow."
        rows.append({statement: f"River {i} flows north.", context: evidence, "label": 1})
        rows.append({statement: f"River {i} is a desert.", context: evidence, "label": 0})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_train_on_your_own_labels_and_use_the_head_from_a_config(tmp_path, embedder, capsys):
    from ragguard.cli import main

    labels = write_labels(tmp_path / "my_labels.jsonl", "support")
    out = tmp_path / "my_head.json"
    assert main(["train", "support", "--labels", str(labels), "--out", str(out)]) == 0
    assert "my_head.md" in capsys.readouterr().out
    head = Head.load(out)
    card = (tmp_path / "my_head.md").read_text()
    assert "my_labels.jsonl" in card and "your own labels" in card
    (tmp_path / "ragguard.toml").write_text('[support]\nmodel = "my_head.json"\n')
    config = Config.from_file(tmp_path / "ragguard.toml")
    trace = Trace.parse(
        {"trace_id": "t", "query": "q", "items": [{"id": "d", "text": "x"}], "response": "x."}
    )
    (evaluation,) = Evaluator(config, embedder=embedder).evaluate_batch([trace])
    assert evaluation.thresholds.support == pytest.approx(head.threshold)


def test_a_head_for_another_embedding_model_names_it_in_its_card(tmp_path):
    from ragguard.cli import main
    from ragguard.scoring.encoders.backbones import bundled_minilm_path

    labels = write_labels(tmp_path / "labels.jsonl", "support")
    out = tmp_path / "head.json"
    model = bundled_minilm_path()  # the fp32 MiniLM, through sentence-transformers
    args = ["train", "support", "--labels", str(labels), "--out", str(out)]
    assert main([*args, "--embedding-model", model]) == 0
    assert Head.load(out).card["backbone"] == f"{model} (frozen)"


def test_relevance_labels_mixed_with_a_bundled_source(tmp_path):
    from ragguard.cli import main

    labels = write_labels(tmp_path / "mine.jsonl", "relevance")
    (tmp_path / "data" / "qnli").mkdir(parents=True)
    rows = ["index\tquestion\tsentence\tlabel"]
    rows += [f"{i}\tWhere is river {i}?\tRiver {i} is in Harlow.\tentailment" for i in range(10)]
    rows += [f"{i}\tWhere is river {i}?\tBread is baked.\tnot_entailment" for i in range(10)]
    (tmp_path / "data" / "qnli" / "dev.tsv").write_text("\n".join(rows) + "\n")
    out = tmp_path / "rel.json"
    args = ["train", "relevance", "--labels", str(labels), "--data", str(tmp_path / "data")]
    assert main([*args, "--sources", "qnli", "--out", str(out)]) == 0
    assert set(Head.load(out).card["data"]) == {str(labels), "qnli"}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--data", "no/such/dir"], "no data directory no/such/dir: pass --data DIR"),
        ([], "pass --labels FILE.jsonl and/or --data DIR"),
    ],
)
def test_missing_training_data_is_one_line_saying_what_to_pass(tmp_path, capsys, args, says):
    from ragguard.cli import main

    assert main(["train", "support", *args, "--out", str(tmp_path / "h.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err


def test_training_without_the_hub_extra_names_it(tmp_path, capsys, monkeypatch):
    from ragguard.cli import main
    from ragguard.train import lite

    monkeypatch.setattr(lite, "hub_installed", lambda: False)
    assert main(["train", "support", "--data", str(tmp_path), "--out", str(tmp_path / "h")]) == 2
    assert 'pip install "ragguard-eval[hub]"' in capsys.readouterr().err


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"claim": "c"}', 'line 2: a support label needs "claim", "evidence" and "label"'),
        ('{"claim": "c", "evidence": "e", "label": "yes"}', "line 2: label 'yes' is not 1 or 0"),
        ("claim,evidence,1", "line 2: not JSON"),
    ],
)
def test_a_bad_labels_line_is_named(tmp_path, line, says):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"claim": "c", "evidence": "e", "label": true}\n' + line + "\n")
    with pytest.raises(ValueError, match=re.escape(f"bad.jsonl {says}")):
        list(read_labels(path, "support"))


def test_benchmarks_take_the_data_folder_as_an_argument(tmp_path):
    root = Path(__file__).resolve().parents[2]
    for script in ("speed.py", "accuracy.py"):
        run = subprocess.run(
            [sys.executable, str(root / "benchmarks" / script), "--data", str(tmp_path / "no")],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert run.returncode == 2 and "no data directory" in run.stderr.splitlines()[-1]


def test_the_answer_head_is_trained_by_ragguard_train_from_data_only(tmp_path):
    """``ragguard train answer`` replaces ``python -m ragguard.train.answer``: it reads the
    question sets of --data, so labels alone are refused with a line saying what to pass."""
    command = [sys.executable, "-m", "ragguard.cli", "train"]
    listed = subprocess.run([*command, "--help"], capture_output=True, text=True)
    assert "answer" in listed.stdout
    refused = subprocess.run(
        [*command, "answer", "--labels", str(tmp_path / "l.jsonl"), "-o", str(tmp_path / "h")],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2
    assert "train answer reads --data DIR, not --labels" in refused.stderr
    assert not (tmp_path / "h").exists()
