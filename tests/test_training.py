import math

import numpy as np
import pytest
import torch

from ragguard.scoring.heads import Head
from ragguard.train.card import write_card
from ragguard.train.datasets import Pair
from ragguard.train.fit import fit_mlp
from ragguard.train.losses import pairwise_loss
from ragguard.train.triplets import triplet_indices


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
    assert first.card["veto"] == ["number", "date", "negation", "entity"]
    assert sum(first.card["hard_negatives"]["train"].values()) > 0 and "hard_negatives" in card
