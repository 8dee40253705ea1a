"""The one hash sampler: repeatable, near the asked rate, and the same draw the three
former samplers made (serve's traces, the calibration sample, the judge's questions)."""

import hashlib

import numpy as np
import pytest

from ragguard.runtime.sampling import hash_sample

KEYS = [f"trace-{n}" for n in range(20000)]
DIGESTS = [hashlib.sha256(k.encode()).hexdigest() for k in KEYS]


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("rate", [0.05, 0.25, 0.5])
def test_the_share_drawn_is_near_the_rate_and_the_same_on_every_call(rate, bits):
    keys = DIGESTS if bits == 32 else KEYS
    drawn = [hash_sample(k, rate, bits=bits) for k in keys]
    assert abs(np.mean(drawn) - rate) < 0.015
    assert drawn == [hash_sample(k, rate, bits=bits) for k in keys]


@pytest.mark.parametrize("bits", [32, 64])
def test_rates_at_or_past_the_ends_take_all_or_none(bits):
    key = DIGESTS[0] if bits == 32 else KEYS[0]
    assert hash_sample(key, 1.0, bits=bits) and hash_sample(key, 2.0, bits=bits)
    assert not hash_sample(key, 0.0, bits=bits) and not hash_sample(key, -1.0, bits=bits)


def test_a_larger_rate_keeps_every_key_a_smaller_one_kept():
    small = {k for k in KEYS if hash_sample(k, 0.1)}
    large = {k for k in KEYS if hash_sample(k, 0.3)}
    assert small < large


def test_the_draw_is_the_one_the_former_samplers_made():
    """Unifying the three definitions moved no key in or out."""
    for key, digest in zip(KEYS[:5000], DIGESTS[:5000], strict=True):
        value = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
        assert hash_sample(key, 0.3) == (value < 0.3 * 2**64)  # serve's
        assert hash_sample(key, 0.3) == (value / 2**64 < 0.3)  # the calibration sample's
        assert hash_sample(digest, 0.3, bits=32) == (int(digest[:8], 16) / 2**32 < 0.3)  # judge
