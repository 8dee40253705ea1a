"""The one sentence-start rule, in its two readings of an opening mark."""

import pytest

from ragguard.language.sentences import starts_sentence


@pytest.mark.parametrize(
    ("text", "word", "plain", "through"),
    [
        ("Paris is large.", "Paris", True, True),
        ("It is in Paris.", "Paris", False, False),
        ("It rained. Paris slept.", "Paris", True, True),
        ("He said “Paris is large”.", "Paris", True, False),  # the mark itself, or past it
        ("Er fragte: „Paris?“", "Paris", True, True),
        ("Dijo. ¿Paris?", "Paris", True, True),
        ("यह है। Paris", "Paris", True, True),
        ("Wait…   Paris", "Paris", True, True),
    ],
)
def test_a_word_opens_a_sentence_after_space_or_an_end(text, word, plain, through):
    at = text.index(word)
    assert starts_sentence(text, at) is plain
    assert starts_sentence(text, at, through_marks=True) is through
