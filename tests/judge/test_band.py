"""The judge's band: calibrated around the lite eta to hold a chosen share of spans, checked
by the config, and the repeatable sampling of in-band questions."""

import numpy as np
import pytest
from pydantic import ValidationError

from ragguard.calibration.band import band_for_share, share_in_band
from ragguard.config import Config, JudgeConfig
from ragguard.judge.questions import SupportQuestion, in_band
from ragguard.runtime.sampling import hash_sample
from ragguard.scoring.lite.heads import Head


def test_the_band_holds_the_share_half_on_each_side_of_eta():
    scores = np.linspace(0.0, 1.0, 1001)
    lo, hi = band_for_share(scores, eta=0.6, share=0.2)
    assert (lo, hi) == pytest.approx((0.5, 0.7), abs=0.002)
    assert share_in_band(scores, (lo, hi)) == pytest.approx(0.2, abs=0.002)
    assert band_for_share(scores, eta=0.95, share=0.2) == pytest.approx((0.85, 1.0), abs=0.002)
    assert band_for_share(scores, eta=0.6, share=0.0) == pytest.approx((0.6, 0.6), abs=0.002)


def test_the_config_keeps_the_judge_off_and_the_band_ordered():
    assert Config().judge.backend == "none"
    lo, hi = JudgeConfig().band
    assert lo < Head.bundled("support_lite").threshold < hi  # around the bundled head's eta
    with pytest.raises(ValidationError, match="band"):
        JudgeConfig(band=(0.7, 0.5))
    with pytest.raises(ValidationError):
        JudgeConfig(bandwidth=0.1)


def test_in_band_and_sampling_are_repeatable():
    assert in_band(0.5, (0.5, 0.6)) and in_band(0.6, (0.5, 0.6)) and not in_band(None, (0, 1))
    keys = [SupportQuestion(f"claim {n}", ("passage",)).key("m") for n in range(2000)]
    kept = [hash_sample(key, 0.25, bits=32) for key in keys]
    assert 0.2 < np.mean(kept) < 0.3 and kept == [hash_sample(key, 0.25, bits=32) for key in keys]
    assert SupportQuestion("a", ("b",)).key("m") != SupportQuestion("a", ("b",)).key("other")
