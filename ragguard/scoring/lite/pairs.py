"""What a lite head is fitted on: a (context, statement) pair with its binary label and the
training set it came from (``ragguard.train.datasets`` reads them; ``fit`` and ``triplets``
fit on them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pair:
    context: str
    statement: str
    label: int
    source: str
