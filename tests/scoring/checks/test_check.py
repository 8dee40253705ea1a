"""``check()`` and the registry of checks it loops over: one list that the veto and the CLI
read too."""

from __future__ import annotations

from typing import get_args

import pytest

from ragguard.cli import build_parser
from ragguard.schema import CheckKind
from ragguard.schema.check_kinds import KINDS
from ragguard.scoring.checks import CHECKS, CONTRADICTIONS, check
from ragguard.scoring.interface.protocols import Reason
from tests.scoring.checks.passages import BOILING, DRUG, EINSTEIN, PARIS, fired


def test_every_registered_kind_is_a_schema_check_kind() -> None:
    kinds = {kind for c in CHECKS for kind in c.kinds}
    assert kinds <= set(get_args(CheckKind))
    assert kinds == {row.kind for row in KINDS if row.given_by == "check"}


def test_reasons_that_are_no_check_are_kinds_of_their_own() -> None:
    assert {"low_support", "language"} <= set(get_args(CheckKind))
    assert not {"low_support", "language"} & {kind for c in CHECKS for kind in c.kinds}


def test_contradictions_are_the_vetoing_kinds_in_table_order() -> None:
    assert tuple(row.kind for row in KINDS if row.vetoes) == CONTRADICTIONS
    assert "uncovered" not in CONTRADICTIONS


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
        Reason("date", "1887", "1889"),  # "It was built in 1889" is read as the tower's
        Reason("entity", "Berlin", "Paris"),
    )


@pytest.mark.parametrize(
    ("claim", "passage", "reason"),
    [
        (
            "The Eiffel Tower was completed in 1925.",
            "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. "
            "It was completed in 1889.",
            Reason("date", "1925", "1889"),
        ),
        (
            "The Eiffel Tower is 500 metres tall.",
            "The Eiffel Tower is a lattice tower in Paris. The tower is 330 metres tall.",
            Reason("number", "500", "330"),
        ),
    ],
)
def test_an_evidence_sentence_is_read_with_its_antecedent(claim, passage, reason) -> None:
    assert check(claim, passage)[0] == reason


def test_hedge_words_are_not_uncovered_content() -> None:
    passage = "The Eiffel Tower is a lattice tower in Paris. It was completed in 1889."
    reasons = check("The Eiffel Tower was probably built in 1925.", passage)
    assert [r.check for r in reasons] == ["date"]


@pytest.mark.parametrize(
    ("claim", "passage", "expected"),
    [
        ("Water boils at 50 degrees Celsius at sea level.", BOILING, ("number", "50", "100")),
        ("The Eiffel Tower is in Berlin [2].", PARIS, ("entity", "Berlin", "Paris")),
        (
            "The drug was approved by the FDA in 2020.",
            DRUG,
            ("negation", "", "not approved by the fda"),
        ),
        ("Einstein was born in Ulm in 1890.", EINSTEIN, ("date", "1890", "1879")),
        ("Einstein was born in Ulm in May 1879.", EINSTEIN, ("date", "May", "March")),
        ("Einstein moved to Ulm with 2 sisters.", EINSTEIN, ("entity", "Ulm", "Munich")),
        ("The store is closed on Sundays.", "The store is open on Sundays.", ("negation",)),
        ("No participant completed the trial.", "All participants completed the trial.", None),
    ],
)
def test_each_check_fires_with_what_the_evidence_says(claim, passage, expected):
    (reason,) = [r for r in fired(claim, passage) if r[0] != "uncovered"]
    if expected is None:
        assert reason[0] == "negation" and reason[1].startswith("no participant")
    else:
        assert reason[: len(expected)] == expected


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("The Eiffel Tower is in Paris.", PARIS),
        ("Mount Everest is 8849 metres tall.", "Mount Everest is 8,849 metres tall."),
        ("The city has ten parks.", "The city has 10 parks."),
        ("Einstein was born in Ulm and moved to Munich.", EINSTEIN),
        ("The drug was not approved in 2020.", DRUG),
        ("The Eiffel Tower is in Berlin.", "Berlin is the capital of Germany."),
    ],
)
def test_supported_or_unrelated_pairs_fire_nothing(claim, passage):
    assert fired(claim, passage) == []
