"""The registry of checks: one list that ``check()``, the veto and the CLI read."""

from __future__ import annotations

from typing import get_args

import pytest

from ragguard.cli import build_parser
from ragguard.schema import CheckKind
from ragguard.scoring.checks import CHECKS, CONTRADICTIONS, check
from ragguard.scoring.protocols import Reason


def test_every_registered_kind_is_a_schema_check_kind() -> None:
    kinds = {kind for c in CHECKS for kind in c.kinds}
    assert kinds <= set(get_args(CheckKind))
    assert kinds == {"number", "date", "negation", "entity", "uncovered"}


def test_reasons_that_are_no_check_are_kinds_of_their_own() -> None:
    assert {"low_support", "language"} <= set(get_args(CheckKind))
    assert not {"low_support", "language"} & {kind for c in CHECKS for kind in c.kinds}


def test_contradictions_are_the_vetoing_kinds_in_registry_order() -> None:
    assert CONTRADICTIONS == ("number", "date", "negation", "entity")
    assert all(not c.vetoes for c in CHECKS if "uncovered" in c.kinds)


def test_train_veto_offers_the_registry_kinds() -> None:
    args = build_parser().parse_args(["train", "support", "--out", "x.json"])
    assert tuple(args.veto) == CONTRADICTIONS
    with pytest.raises(SystemExit):
        build_parser().parse_args(["train", "support", "--out", "x.json", "--veto", "uncovered"])


def test_check_asks_each_sentence_of_a_claim_in_turn() -> None:
    passage = (
        "The Eiffel Tower is a lattice tower in Paris, France. It was built in 1889 and "
        "opened to the public that year."
    )
    claim = "The Eiffel Tower was built in 1887. The Eiffel Tower is a lattice tower in Berlin."
    assert check(claim, passage) == (
        Reason("date", "1887", ""),
        Reason("entity", "Berlin", "Paris"),
    )
