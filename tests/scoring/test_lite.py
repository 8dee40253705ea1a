"""The lite support scorer's veto (``scoring.lite.scorers.vetoed``)."""

from __future__ import annotations

import numpy as np
import pytest

from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lite.scorers import vetoed


def test_veto_caps_fired_pairs_below_eta_and_keeps_order():
    scores = np.array([0.9, 0.8, 0.9], dtype=np.float32)
    reasons = [(Reason("number", "50", "100"),), (Reason("uncovered", "x", ""),), ()]
    out = vetoed(scores, reasons, frozenset({"number"}), eta=0.6)
    assert out[0] == pytest.approx(0.3) and out[1:].tolist() == pytest.approx([0.8, 0.9])
