"""The threshold fit: shrunk toward the default, kept only when it wins under
cross-validation, with a band around it and warnings when the labels cannot be trusted."""

import numpy as np
import pytest

from ragguard.calibration.fit import calibrate, fit_threshold, quantiles


def scored(n: int, seed: int, supported_mean: float = 0.75, other_mean: float = 0.45):
    """Labels and lite-like scores: supported spans score higher, with overlap."""
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.5
    scores = np.where(labels, rng.normal(supported_mean, 0.12, n), rng.normal(other_mean, 0.12, n))
    return np.clip(scores, 0.0, 1.0), labels


def test_a_misplaced_default_moves_toward_the_best_threshold() -> None:
    scores, labels = scored(400, 0)
    fit = calibrate(scores, labels, default=0.3)
    # the classes meet at 0.6: a default of 0.3 keeps every unsupported span
    assert not fit.kept_default
    assert 0.5 < fit.threshold < 0.7
    assert fit.cv_fitted > fit.cv_default + 0.1
    assert fit.band[0] <= fit.threshold <= fit.band[1]
    assert fit.n_labels == 400 and fit.n_supported == int(labels.sum())


def test_few_labels_move_the_threshold_less_than_many() -> None:
    scores, labels = scored(2000, 1)
    few = fit_threshold(scores[:20], labels[:20], default=0.3)
    many = fit_threshold(scores, labels, default=0.3)
    assert 0.3 < few < many


def test_a_good_default_is_kept_when_the_fit_does_not_beat_it() -> None:
    scores, labels = scored(60, 2)
    fit = calibrate(scores, labels, default=0.6)
    if fit.kept_default:
        assert fit.threshold == 0.6
    assert fit.cv_fitted <= fit.cv_default or not fit.kept_default


def test_one_sided_or_few_labels_warn_and_keep_the_default() -> None:
    fit = calibrate([0.2, 0.4, 0.9, 0.8], [True, True, True, True], default=0.5)
    assert fit.kept_default and fit.threshold == 0.5
    assert any("one-sided" in w for w in fit.warnings)
    assert any("only 4 labelled spans" in w for w in fit.warnings)


def test_never_scored_labels_count_as_kept_in_balanced_accuracy() -> None:
    scores, labels = scored(200, 3)
    plain = calibrate(scores, labels, default=0.6)
    # 50 unsupported spans set aside as subjective: a monitor keeps them, so they lower
    # the recall of "not supported" on both sides alike
    with_kept = calibrate(scores, labels, default=0.6, kept=[False] * 50)
    assert with_kept.n_labels == 250
    assert with_kept.cv_default < plain.cv_default


def test_the_band_holds_the_share_asked_for() -> None:
    scores, labels = scored(1000, 4)
    fit = calibrate(scores, labels, default=0.6, band_share=0.2)
    inside = ((scores >= fit.band[0]) & (scores <= fit.band[1])).mean()
    assert inside == pytest.approx(0.2, abs=0.02)


def test_quantiles_summarise_the_spread() -> None:
    values = quantiles(np.linspace(0, 1, 101))
    assert len(values) == 41 and values[0] == 0.0 and values[-1] == 1.0
    assert quantiles([]) == []


def test_the_few_labels_warning_and_the_outcome_say_what_the_fit_did() -> None:
    """Fewer than 50 labels that still move the threshold say so (not "stays near the
    default"), and a fit whose interval overlaps the default's is not called better."""
    from ragguard.calibration.card import outcome_line

    scores, labels = scored(40, 5)
    fit = calibrate(scores, labels, default=0.3)
    assert not fit.kept_default and fit.threshold > 0.31
    (few,) = [w for w in fit.warnings if "only 40 labelled spans" in w]
    assert f"moved 0.300 -> {fit.threshold:.3f}" in few and "stays" not in few
    line = outcome_line(fit)
    assert "fitted: shown better than the default" in line and fit.gain_interval[0] > 0
    kept = calibrate([0.2, 0.4, 0.9, 0.8], [True, False, True, True], default=0.5)
    assert kept.kept_default and any("stays at 0.500" in w for w in kept.warnings)


def test_coin_flip_labels_leave_the_default_written() -> None:
    """Labels that say nothing about the scores: on 2462735 the card said "not shown
    better", yet the threshold written moved (0.577 -> 0.680 in the issue's run)."""
    from ragguard.calibration.card import outcome_line

    rng = np.random.default_rng(11)
    scores = np.clip(rng.normal(0.6, 0.2, 300), 0.0, 1.0)
    labels = rng.random(300) < 0.5
    fit = calibrate(scores, labels, default=0.577)
    assert fit.kept_default and fit.threshold == 0.577
    assert fit.gain_interval[0] <= 0.0 < fit.gain_interval[1]
    assert outcome_line(fit).startswith("kept the default")


def test_the_card_shows_the_threshold_written_and_no_threshold_for_a_fit_not_written() -> None:
    """A kept default is the row written; the fit's row gives its cross-validated balanced
    accuracy with no threshold or band (on 02b6dca the fit's row showed the default's
    threshold and band beside the fit's accuracy, as if that threshold had reached it)."""
    from ragguard.calibration.card import render_card

    rng = np.random.default_rng(11)
    scores = np.clip(rng.normal(0.6, 0.2, 300), 0.0, 1.0)
    kept = calibrate(scores, rng.random(300) < 0.5, default=0.577, default_band=(0.45, 0.7))
    card = render_card(kept, source="labels.jsonl", fingerprint="f")
    assert "| default (written) | 0.577 | 0.450-0.700 |" in card
    assert f"| fit (not written) | | | {kept.cv_fitted:.3f} |" in card
    assert "| calibrated |" not in card
    fitted = calibrate(*scored(400, 3), default=0.3)
    card = render_card(fitted, source="labels.jsonl", fingerprint="f")
    assert not fitted.kept_default and "| default | 0.300 | |" in card
    assert f"| calibrated | {fitted.threshold:.3f} | {fitted.band[0]:.3f}-" in card


def test_inverted_labels_are_reported_not_fitted() -> None:
    scores, labels = scored(300, 12)
    fit = calibrate(scores, ~labels, default=0.6)
    assert fit.inverted and fit.kept_default and fit.threshold == 0.6
    assert any("labels look inverted" in w for w in fit.warnings)
