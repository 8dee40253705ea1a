"""Every kind of reason a span is not supported, in one table (``KINDS``). The schema's
``CheckKind``, the judge's ``may_overrule`` choices (``Contradiction``), ``train --veto``, the
head cards' ``veto`` lists, the training edits (``EditKind``) and the checks registry
(``ragguard.scoring.checks.CHECKS``) all derive from it or are checked against it, at import
or in ``tests/schema/test_check_kinds.py``: a kind added in one place only fails.

The two ``Literal`` aliases are written out because a type checker cannot read a tuple; the
import-time check below keeps them equal to the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast, get_args

CheckKind = Literal[
    "number",
    "date",
    "negation",
    "entity",
    "superlative",
    "uncovered",
    "low_support",
    "language",
    "nothing_retrieved",
]
"""Kinds of reason a span is not supported: the rows of ``KINDS``."""

Contradiction = Literal["number", "date", "negation", "entity", "superlative"]
"""The kinds that veto support (``KINDS`` rows with ``vetoes``)."""

EditKind = Literal["number", "date", "negation", "entity", "antonym"]
"""The hard-negative edits of ``ragguard.train.perturb`` (``KINDS`` rows' ``edits``)."""


@dataclass(frozen=True, slots=True)
class KindRow:
    """One kind of reason: who gives it, whether it vetoes support or lowers it through a
    feature of the support head, which training edits make a claim that its check must
    catch."""

    kind: CheckKind
    given_by: Literal["check", "assembly"]
    """``check``: a typed check of ``ragguard.scoring.checks.CHECKS``; ``assembly``: the
    evaluation's assembly, when no check explains an unsupported span."""
    vetoes: bool = False
    """A contradiction: a fired check caps support below eta (the head cards' ``veto``, the
    ``train --veto`` choices) and the judge may overrule it only where ``may_overrule`` says."""
    feature: Literal["contradiction", "uncovered", ""] = ""
    """The support head's check feature a fired check sets (``scoring.lite.scorers``
    ``CHECK_FEATURES``): every vetoing kind sets ``contradiction``; a kind that sets a feature
    without vetoing lowers support by the weight the head gives it, and caps nothing."""
    edits: tuple[EditKind, ...] = ()
    """The training edits this kind's check is meant to catch. ``antonym`` ("rose" for
    "fell") is no kind of its own: it flips a claim's polarity, so the ``negation`` check
    (polarity, with the antonym pairs) catches it."""
    about: str = ""


KINDS: tuple[KindRow, ...] = (
    KindRow(
        "number",
        "check",
        vetoes=True,
        feature="contradiction",
        edits=("number",),
        about="a quantity differs",
    ),
    KindRow(
        "date",
        "check",
        vetoes=True,
        feature="contradiction",
        edits=("date",),
        about="a year, month or day differs",
    ),
    KindRow(
        "negation",
        "check",
        vetoes=True,
        feature="contradiction",
        edits=("negation", "antonym"),
        about="the polarity differs: a negation or an antonym",
    ),
    KindRow(
        "entity",
        "check",
        vetoes=True,
        feature="contradiction",
        edits=("entity",),
        about="a proper name differs",
    ),
    KindRow(
        "superlative",
        "check",
        vetoes=True,
        feature="contradiction",
        about='a ranking ("the tallest", "the only") that a passage sentence about the same '
        'thing ranks otherwise ("the sixth-tallest", "the longest")',
    ),
    KindRow(
        "uncovered",
        "check",
        feature="uncovered",
        about="content the evidence does not cover (informs only)",
    ),
    KindRow(
        "low_support",
        "assembly",
        about="an unsupported span no check explains: its best support is below eta",
    ),
    KindRow(
        "language",
        "assembly",
        about="an item left unread: no loaded backbone reads its language or the claim's "
        "(``claim`` and ``evidence`` are the two languages)",
    ),
    KindRow(
        "nothing_retrieved",
        "assembly",
        about="the trace's ``items`` is an empty list (``item`` is ``none``)",
    ),
)
"""Every kind, in the order of ``CheckKind``. None is reserved: each is still given, and
old logs read because no kind was ever removed."""

CONTRADICTIONS = cast("tuple[Contradiction, ...]", tuple(row.kind for row in KINDS if row.vetoes))
"""The kinds that veto support; ``uncovered`` only informs the head (its features) and the
reasons."""

CONFLICTS: tuple[CheckKind, ...] = tuple(
    row.kind for row in KINDS if row.feature == "contradiction"
)
"""The kinds that set the support head's ``contradiction`` feature: every contradiction and
``superlative``."""

EDIT_KINDS: tuple[EditKind, ...] = get_args(EditKind)
"""Every training edit, in the order ``perturb.edits`` tries them (each is under exactly one
kind of the table: the check below)."""

CHECKED_BY: dict[EditKind, CheckKind] = {edit: row.kind for row in KINDS for edit in row.edits}
"""The kind whose check catches each training edit (``antonym``: ``negation``)."""


def _agree() -> None:
    """The aliases and the table name the same kinds, in the same order."""
    pairs = (
        ("CheckKind", get_args(CheckKind), tuple(row.kind for row in KINDS)),
        ("Contradiction", get_args(Contradiction), CONTRADICTIONS),
    )
    if any(row.vetoes and row.feature != "contradiction" for row in KINDS):
        raise TypeError("a kind that vetoes support must set the contradiction feature too")
    table_edits = [edit for row in KINDS for edit in row.edits]
    if sorted(EDIT_KINDS) != sorted(table_edits):
        raise TypeError(f"EditKind {EDIT_KINDS} disagrees with KINDS' edits {table_edits}")
    for name, alias, table in pairs:
        if tuple(alias) != tuple(table):
            raise TypeError(f"{name} {alias} disagrees with KINDS {table}")


_agree()


def unknown_vetoes(veto: object) -> list[str]:
    """The entries of a head card's ``veto`` list that are no contradiction kind."""
    if not isinstance(veto, list | tuple):
        return [repr(veto)]
    return [str(kind) for kind in veto if kind not in CONTRADICTIONS]
