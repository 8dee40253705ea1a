"""One table of check kinds: every other list of kinds derives from it or is checked
against it, so a kind added in one place only fails here (or at import)."""

from __future__ import annotations

import json
from importlib import resources
from typing import get_args

import pytest

from ragguard.cli import build_parser
from ragguard.config import JudgeConfig
from ragguard.schema import SpanReason
from ragguard.schema.check_kinds import (
    CHECKED_BY,
    CONTRADICTIONS,
    EDIT_KINDS,
    KINDS,
    CheckKind,
    unknown_vetoes,
)
from ragguard.scoring.checks import CHECKS
from ragguard.train import perturb


def test_the_schema_literal_is_the_table() -> None:
    assert get_args(SpanReason.model_fields["check"].annotation) == get_args(CheckKind)
    assert tuple(get_args(CheckKind)) == tuple(row.kind for row in KINDS)


def test_the_checks_registry_gives_the_kinds_the_table_says_a_check_gives() -> None:
    given = {kind for check in CHECKS for kind in check.kinds}
    assert given == {row.kind for row in KINDS if row.given_by == "check"}


def test_may_overrule_accepts_the_contradictions_and_nothing_else() -> None:
    assert JudgeConfig(may_overrule=list(CONTRADICTIONS)).may_overrule == list(CONTRADICTIONS)
    for kind in set(get_args(CheckKind)) - set(CONTRADICTIONS):
        with pytest.raises(ValueError):
            JudgeConfig(may_overrule=[kind])  # type: ignore[list-item]


def test_train_veto_offers_the_contradictions() -> None:
    args = build_parser().parse_args(["train", "support", "--out", "x.json"])
    assert tuple(args.veto) == CONTRADICTIONS


def _cards() -> dict[str, dict[str, object]]:
    heads = resources.files("ragguard.scoring.lite").joinpath("bundled")
    return {
        entry.name: json.loads(entry.read_text(encoding="utf-8"))
        for entry in heads.iterdir()
        if entry.name.endswith(".json")
    }


def test_every_shipped_head_card_vetoes_only_contradiction_kinds() -> None:
    cards = _cards()
    assert cards
    vetoing = 0
    for name, head in cards.items():
        card = head.get("card", {})
        assert isinstance(card, dict)
        if "veto" in card:
            vetoing += 1
            assert unknown_vetoes(card["veto"]) == [], name
    assert vetoing >= 1


def test_unknown_vetoes_names_a_kind_outside_the_table() -> None:
    assert unknown_vetoes(["number", "superlative"]) == ["superlative"]
    assert unknown_vetoes(["uncovered"]) == ["uncovered"]
    assert unknown_vetoes("number") == ["'number'"]


def test_every_edit_has_a_generator_and_a_kind_that_checks_it() -> None:
    assert set(perturb._EDITS) == set(EDIT_KINDS)
    assert CHECKED_BY["antonym"] == "negation"
    assert all(CHECKED_BY[edit] in CONTRADICTIONS for edit in EDIT_KINDS)
