"""One ``negation_positions`` for every language, each reading its own data file's rules."""

from __future__ import annotations

import pytest

from ragguard.language.negation import negation_positions


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("the museum is not open on mondays", "en", [3]),
        ("the museum isn't open on mondays", "en", [2]),
        ("the tower never closed", "en", [2]),
        ("they failed to win the cup", "en", [1]),
        ("it is not only a tower", "en", []),  # not_negating
        ("there is no doubt it opened", "en", []),
        ("my no 1 choice", "en", []),  # a sign for a number
        ("agree or not it opened", "en", []),  # an alternative
        ("it cannot be confused with the other", "en", []),  # not_negating_after
        ("das museum ist nicht geöffnet", "de", [3]),
        ("das ist nicht nur ein turm", "de", []),
        ("il ne travaille plus ici", "fr", [3]),
        ("el museo no abre", "es", [2]),
        ("the museum is not open", "ru", []),  # no lexicon, no cues
    ],
)
def test_each_language_reads_its_cues_and_its_exceptions(
    text: str, code: str, expected: list[int]
) -> None:
    assert negation_positions(tuple(text.split()), code) == expected
