"""A long one-clause claim full of numbers: the checks' work grows with its length, not with
its length times its numbers (issue 45, medium: a 50,000-character sentence with 2,000
numbers took 27 times its twin without digits)."""

from __future__ import annotations

import pytest

from ragguard.runtime.caches import clear_caches
from ragguard.scoring.checks import check, clauses

PASSAGE = "It is 330 metres tall and was completed in 1889."


def _characters_read(monkeypatch: pytest.MonkeyPatch, claim: str) -> int:
    """Characters that ``lower_content`` (a clause's words) reads while ``claim`` is checked."""
    read = [0]
    original = clauses.lower_content

    def counting(text: str) -> frozenset[str]:
        read[0] += len(text)
        return original(text)

    monkeypatch.setattr(clauses, "lower_content", counting)
    clear_caches("ragguard.scoring")
    check(claim, PASSAGE)
    return read[0]


@pytest.mark.parametrize("repeats", [50, 400])
def test_a_clause_is_read_once_however_many_numbers_it_holds(monkeypatch, repeats):
    claim = ("the tower was completed in 1889 and " * repeats).rstrip(" and") + "."
    read = _characters_read(monkeypatch, claim)
    assert read <= 2 * len(claim), (read, len(claim))  # base: once per number (x repeats)


def test_the_claim_still_gets_its_verdict():
    clear_caches("ragguard.scoring")
    claim = ("the tower was completed in 1889 and " * 300).rstrip(" and") + "."
    assert check(claim, PASSAGE) == ()
    wrong = claim.replace("1889", "1999")
    assert {(r.check, r.claim) for r in check(wrong, PASSAGE)} == {("date", "1999")}
