"""Uncovered content (``checks.coverage``): a fact added to a true one."""

from __future__ import annotations

from ragguard.scoring.checks.coverage import uncovered
from tests.scoring.checks.passages import PARIS, fired


def test_added_fact_is_uncovered_content():
    claim = "The Eiffel Tower is in Paris and was painted green by Picasso in secret."
    assert ("uncovered", "painted green picasso secret", "") in fired(claim, PARIS)


def test_a_paraphrase_covers_the_claim() -> None:
    assert uncovered("The Eiffel Tower is a tower in Paris.", PARIS) is None
