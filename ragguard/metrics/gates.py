"""Release gates: a run fails when a summary metric crosses a bound.

``--fail-over unsupported_span_rate=0.2`` fails a run whose rate is above 0.2;
``--fail-under mean_relevance=0.5`` one whose mean relevance is below 0.5. A gate reads
``RunSummary.values()``, the numbers the summary prints. A metric the run did not compute
is never a pass: a gate on it is an error (``GateError``).
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Literal

from ragguard.errors import GateError
from ragguard.metrics.summary import METRICS, RATE_KEY, RATE_KEYS

Direction = Literal["over", "under"]

WORSE_WHEN: dict[str, Literal["higher", "lower"] | None] = {
    "mean_relevance": "lower",
    "relevant_at_k": "lower",
    "support_rate": "lower",
    "hallucination_rate": "higher",
    "abstention_rate": None,
    "answer_relevance": "lower",
    "off_topic_rate": "higher",
    "citation_precision": "lower",
    "citation_recall": "lower",
    RATE_KEY: "higher",
}
"""Which way each metric gets worse (None: neither; more abstentions may be right)."""


def known_metric(name: str, known: tuple[str, ...] = METRICS) -> str:
    """``name`` if it is one of ``known``, else a ``GateError`` naming the nearest."""
    if name in known:
        return name
    close = difflib.get_close_matches(name.replace("-", "_").replace(" ", "_"), known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; one of {', '.join(known)}"
    raise GateError(f"unknown metric {name!r}{hint}")


@dataclass(frozen=True)
class Gate:
    """``metric`` must not go ``direction`` (over or under) ``bound``."""

    direction: Direction
    metric: str
    bound: float

    @classmethod
    def parse(cls, text: str, direction: Direction) -> Gate:
        """A ``METRIC=VALUE`` argument of ``--fail-over`` / ``--fail-under``."""
        name, equals, value = text.partition("=")
        if not equals or not value.strip():
            raise GateError(f"--fail-{direction} {text!r}: write METRIC=VALUE, e.g. {RATE_KEY}=0.2")
        try:
            bound = float(value)
        except ValueError:
            raise GateError(f"--fail-{direction} {text!r}: {value!r} is not a number") from None
        if not math.isfinite(bound):
            raise GateError(f"--fail-{direction} {text!r}: the bound must be a finite number")
        return cls(direction, known_metric(name.strip()), bound)

    @property
    def condition(self) -> str:
        """What passes, as the summary prints it."""
        return f"{self.metric} {'<=' if self.direction == 'over' else '>='} {self.bound:g}"

    def check(self, values: dict[str, float | None]) -> GateResult:
        """Against the run's ``values``; a metric the run did not compute is no pass."""
        value = values.get(self.metric)
        if value is None:
            return GateResult(self, None, None)
        failed = value > self.bound if self.direction == "over" else value < self.bound
        return GateResult(self, value, not failed)


@dataclass(frozen=True)
class GateResult:
    """``passed`` None: the run did not compute the metric (an error, not a pass)."""

    gate: Gate
    value: float | None
    passed: bool | None

    def describe(self) -> str:
        """The value against the bound, with enough decimals to tell them apart."""
        if self.value is None and self.gate.metric in RATE_KEYS[1:]:
            return "ERROR: no judge-labelled sample corrected the rate (2 judged spans needed)"
        if self.value is None:
            return f"ERROR: the run did not compute {self.gate.metric} (n/a above)"
        digits = 3
        while digits < 9 and round(self.value, digits) == round(self.gate.bound, digits):
            if self.value == self.gate.bound:
                break
            digits += 1
        shown = f"{self.value:.{digits}f}"
        if self.passed:
            return f"pass ({shown})"
        sign = ">" if self.gate.direction == "over" else "<"
        return f"FAILED ({shown} {sign} {self.gate.bound:g})"


ALLOW_SKIPPED = "--allow-skipped"
ALLOW_UNSCORED = "--allow-unscored"


@dataclass(frozen=True)
class InputCheck:
    """The rule under every gate: a gate passes only on input that was read and scored.

    Lines that were skipped (bad input) and claims left without a verdict (no context, a
    language or modality no loaded model reads) are input a metric did not see; a gate
    passed over them would vouch for answers nobody checked. Each is allowed only when
    the user says so (``--allow-skipped``, ``--allow-unscored``)."""

    skipped_lines: int = 0
    unscored: str | None = None
    """The unscored claims in words (``RunSummary.unscored()``), None when there are none."""
    allow_skipped: bool = False
    allow_unscored: bool = False

    @property
    def condition(self) -> str:
        """The check's name in the summary and the JUnit report."""
        return "every line read and every claim scored"

    def problems(self) -> list[str]:
        """What keeps the gates from passing, each with the flag that allows it."""
        found = []
        if self.skipped_lines and not self.allow_skipped:
            lines = f"{self.skipped_lines} line{'s' if self.skipped_lines > 1 else ''}"
            found.append(f"{lines} skipped (bad input; {ALLOW_SKIPPED} to gate on the rest)")
        if self.unscored is not None and not self.allow_unscored:
            found.append(f"{self.unscored} ({ALLOW_UNSCORED} to gate on the scored ones)")
        return found

    def describe(self) -> str:
        problems = self.problems()
        return "pass" if not problems else "ERROR: " + "; ".join(problems)
