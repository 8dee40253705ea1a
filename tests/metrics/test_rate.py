"""The corrected unsupported-span rate (prediction-powered inference) and drift."""

import numpy as np

from ragguard.metrics.rate import DriftMonitor, RateTally, corrected_rate, ks_distance
from ragguard.schema import JudgeVerdict, SpanEvaluation


def test_the_correction_recovers_the_true_rate_from_a_biased_verdict() -> None:
    """Over 200 simulated deployments the 95% interval covers the true rate about 95% of
    the time, while the uncorrected rate is far off in every one."""
    covered, errors = 0, []
    for seed in range(200):
        rng = np.random.default_rng(seed)
        truth = rng.random(5000) < 0.3
        # a lite verdict that over-flags: every true case, plus 20% of the others
        predicted = truth | (rng.random(truth.size) < 0.2)
        sample = rng.random(truth.size) < 0.05
        rate = corrected_rate(predicted, predicted[sample], truth[sample])
        assert rate.corrected and predicted.mean() - truth.mean() > 0.1
        covered += rate.low <= truth.mean() <= rate.high
        errors.append(abs(rate.value - truth.mean()))
    assert 0.9 <= covered / 200 <= 0.99
    assert np.mean(errors) < 0.02


def test_without_a_sample_the_rate_is_said_to_be_uncorrected() -> None:
    rate = corrected_rate([True, False, False, False], [], [])
    assert not rate.corrected and rate.value == 0.25
    assert "uncorrected" in str(rate)
    assert str(corrected_rate([], [], [])) == "n/a"


def span(support: float, sampled: bool = False, judge: bool | None = None) -> SpanEvaluation:
    verdict = None if judge is None else JudgeVerdict(verdict=judge, rationale="", model="m")
    return SpanEvaluation(
        text="x",
        start=0,
        end=1,
        kind="objective",
        support=support,
        supported=support >= 0.5,
        calibration_sample=sampled,
        judge=verdict,
    )


def test_the_tally_counts_lite_verdicts_and_the_sampled_gap() -> None:
    tally = RateTally()
    tally.add([span(0.2), span(0.9), span(0.7, sampled=True, judge=False)], eta=0.5)
    assert (tally.n, tally.n_unsupported) == (3, 1)
    assert tally.gaps == {1: 1}  # the judge says unsupported where the lite verdict did not


def test_drift_is_the_ks_distance_once_enough_scores_came() -> None:
    assert ks_distance([0.1, 0.2], [0.1, 0.2]) == 0.0
    assert ks_distance([0.0, 0.1], [0.8, 0.9]) == 1.0
    monitor = DriftMonitor(reference=list(np.linspace(0.0, 0.5, 41)))
    monitor.add([span(0.9)] * 10)
    assert monitor.distance() is None  # too few live scores to say
    monitor.add([span(0.9)] * 100)
    assert monitor.distance() == 1.0
