import numpy as np
import pytest

from ragguard.metrics.agreement import balanced_accuracy, roc_auc, true_rates
from ragguard.scoring.lite.heads import Head, Layer, equal_error_threshold


def test_head_round_trips_through_json(tmp_path):
    rng = np.random.default_rng(0)
    head = Head(
        "h",
        ["a", "b"],
        np.zeros(2, np.float32),
        np.ones(2, np.float32),
        [
            Layer(rng.normal(size=(2, 3)).astype(np.float32), np.zeros(3, np.float32), "tanh"),
            Layer(rng.normal(size=(3, 1)).astype(np.float32), np.zeros(1, np.float32)),
        ],
        threshold=0.4,
        card={"data": "x"},
    )
    head.save(tmp_path / "h.json")
    loaded = Head.load(tmp_path / "h.json")
    x = rng.normal(size=(5, 2))
    np.testing.assert_allclose(loaded.predict(x), head.predict(x), rtol=1e-6)
    assert loaded.threshold == 0.4 and loaded.card == {"data": "x"}
    assert ((head.predict(x) > 0) & (head.predict(x) < 1)).all()


@pytest.mark.parametrize("name", ["support_lite", "relevance_lite"])
def test_bundled_heads_carry_a_calibrated_threshold_and_a_card(name):
    head = Head.bundled(name)
    assert 0.0 < head.threshold < 1.0
    assert head.card["validation"]["balanced_accuracy"] > 0.6
    assert head.card["data"]


def test_equal_error_threshold_balances_true_rates():
    scores = np.array([0.1, 0.2, 0.3, 0.6, 0.4, 0.7, 0.8, 0.9])
    labels = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    eta = equal_error_threshold(scores, labels)
    true1, true0 = true_rates(scores >= eta, labels)
    assert true1 == true0 == 0.75


def test_agreement_metrics_on_hand_computed_cases():
    labels = np.array([1, 1, 1, 0])
    predicted = np.array([1, 0, 1, 1])
    assert true_rates(predicted, labels) == (pytest.approx(2 / 3), 0.0)
    assert balanced_accuracy(predicted, labels) == pytest.approx(1 / 3)
    # positives 0.9, 0.5, 0.2 against the negative 0.5: above (1) + tie (0.5) + below (0) -> 1.5/3
    assert roc_auc(np.array([0.9, 0.5, 0.2, 0.5]), labels) == pytest.approx(0.5)
    assert roc_auc(np.array([0.9, 0.8, 0.7, 0.1]), labels) == 1.0
