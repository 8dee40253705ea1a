"""The lite tier's feature arithmetic matches its reference definitions."""

import numpy as np
import pytest

from ragguard.scoring.lite import _lower_quartile


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 8, 13, 40, 257])
def test_the_lower_quartile_is_numpys(size):
    values = np.random.default_rng(size).random(size).astype(np.float32)
    assert _lower_quartile(values) == pytest.approx(float(np.quantile(values, 0.25)), abs=1e-6)
