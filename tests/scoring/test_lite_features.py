"""The lite tier's feature arithmetic matches its reference definitions, and its stems meet."""

import numpy as np
import pytest

from ragguard.scoring.lexical.text import stem
from ragguard.scoring.lite.scorers import _lower_quartile


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 8, 13, 40, 257])
def test_the_lower_quartile_is_numpys(size):
    values = np.random.default_rng(size).random(size).astype(np.float32)
    assert _lower_quartile(values) == pytest.approx(float(np.quantile(values, 0.25)), abs=1e-6)


@pytest.mark.parametrize(
    "forms",
    [
        ("kiss", "kisses", "kissing", "kissed"),
        ("sit", "sits", "sitting"),
        ("close", "closed", "closes", "closing"),
        ("study", "studies", "studied", "studying"),
        ("agree", "agreed", "agrees"),
        ("stop", "stops", "stopped"),
        ("box", "boxes"),
    ],
)
def test_a_words_forms_share_one_stem(forms):
    assert len({stem(w) for w in forms}) == 1


@pytest.mark.parametrize("word", ["status", "analysis", "class", "string", "need"])
def test_words_that_only_look_inflected_keep_their_stem_apart(word):
    assert stem(word) == word
