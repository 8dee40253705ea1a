"""Release gates and the JUnit report of ``evaluate`` and ``replay``: the options, the
checks made before any model loads, and the end of the run (exit 3 when a gate failed).

A gate on a bound of the unsupported span rate (``unsupported_span_rate.high``) needs a
config that draws a judge-labelled sample (``[calibration] source = "judge"``): without
one the interval is only the lite rate's sampling spread (Wilson's), which says nothing
of the lite verdicts' own errors, so such a gate is refused at start rather than passed
on a bound that looks safer than it is. A gate on a metric the input cannot give (citation
precision when no answer cites an item) is refused at start too; one the run still could
not compute is an error at the end (exit 2), never a pass. Nor does a gate pass on input
the run did not read or score: skipped lines and unscored claims make a gated run exit 2
unless ``--allow-skipped`` / ``--allow-unscored`` allow them (``metrics.gates.InputCheck``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ragguard.cli._common import (
    EXIT_ERROR,
    EXIT_GATE,
    refuse_overwriting_input,
    replaced_on_success,
)
from ragguard.errors import GateError, RagguardError
from ragguard.metrics import (
    ALLOW_SKIPPED,
    ALLOW_UNSCORED,
    RATE_KEY,
    RATE_KEYS,
    Gate,
    GateResult,
    InputCheck,
)

if TYPE_CHECKING:
    from ragguard.cli._batch import RunOptions
    from ragguard.config import Config
    from ragguard.metrics import RunSummary
    from ragguard.replay import JUnitReport
    from ragguard.schema import Evaluation, Trace


def gate_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--fail-over",
        action="append",
        default=[],
        metavar="METRIC=VALUE",
        help=f"exit 3 when the summary's METRIC is above VALUE (repeatable), e.g. "
        f"{RATE_KEY}=0.2 or hallucination_rate=0.3",
    )
    command.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="METRIC=VALUE",
        help="exit 3 when the summary's METRIC is below VALUE (repeatable), e.g. "
        "mean_relevance=0.5",
    )
    command.add_argument(
        "--junit", metavar="FILE", help="write a JUnit XML report: a testcase per trace and gate"
    )
    command.add_argument(
        ALLOW_SKIPPED,
        action="store_true",
        help="let the gates pass when lines were skipped (bad input); without it a gated run "
        "with skipped lines exits 2",
    )
    command.add_argument(
        ALLOW_UNSCORED,
        action="store_true",
        help="let the gates pass when claims could not be scored (no context, a language or "
        "an image no loaded model reads); without it a gated run with such claims exits 2",
    )


def _has_citation(trace: Trace) -> bool:
    from ragguard.spans import ItemRef, parse_citations

    items = [ItemRef(item.id, item.modality) for item in trace.items]
    parse = parse_citations(trace.response, items, "flag")
    return bool(parse.citations or parse.unknown)


_INPUT_NEEDS: dict[str, tuple[Callable[[Trace], bool], str]] = {
    "mean_relevance": (lambda t: bool(t.items), "no trace has retrieved items"),
    "relevant_at_k": (lambda t: bool(t.items), "no trace has retrieved items"),
    "support_rate": (
        lambda t: bool(t.items and t.response.strip()),
        "no trace has both retrieved items and an answer",
    ),
    "answer_relevance": (lambda t: bool(t.response.strip()), "no trace has an answer"),
    "off_topic_rate": (lambda t: bool(t.response.strip()), "no trace has an answer"),
    "citation_precision": (_has_citation, "no answer cites an item ([1], [d2])"),
    "citation_recall": (_has_citation, "no answer cites an item ([1], [d2])"),
    **dict.fromkeys(
        RATE_KEYS,
        (lambda t: bool(t.items and t.response.strip()), "no trace has both items and an answer"),
    ),
}
"""What the input must hold for a metric to be computed: checked before any model loads."""


def draws_judge_sample(config: Config) -> bool:
    return config.calibration.source == "judge" and config.judge.backend != "none"


@dataclass
class RunChecks:
    """The run's gates and JUnit report, fed as the run goes, settled by ``finish``."""

    gates: list[Gate]
    junit_path: str | None = None
    junit: JUnitReport | None = field(default=None, repr=False)
    allow_skipped: bool = False
    allow_unscored: bool = False
    titles: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def start(
        cls,
        options: RunOptions,
        config: Config,
        inputs: Sequence[str],
        traces: Callable[[], Iterable[Trace]],
    ) -> RunChecks:
        """Parse and check the gates before anything is evaluated (``GateError``: exit 2)."""
        gates = [Gate.parse(text, "over") for text in options.fail_over]
        gates += [Gate.parse(text, "under") for text in options.fail_under]
        refuse_overwriting_input(inputs, options.junit)
        bounds = [g.condition for g in gates if g.metric in RATE_KEYS[1:]]
        if bounds and not draws_judge_sample(config):
            raise GateError(
                f"{bounds[0]}: a bound of {RATE_KEY} gates on its 95% interval, which is "
                "meaningful only when a judge-labelled sample corrects the rate "
                '([calibration] source = "judge" with a [judge] endpoint); this config '
                f"draws none. Gate on {RATE_KEY} itself, or configure the judge"
            )
        needs = {g.metric: _INPUT_NEEDS[g.metric] for g in gates if g.metric in _INPUT_NEEDS}
        if needs:
            unmet = dict(needs)
            for trace in traces():
                unmet = {m: need for m, need in unmet.items() if not need[0](trace)}
                if not unmet:
                    break
            for metric, (_, why) in unmet.items():
                raise GateError(
                    f"a gate on {metric} cannot be checked: {why} in {', '.join(inputs)}, "
                    "so the run cannot compute it"
                )
        checks = cls(
            gates,
            options.junit,
            allow_skipped=options.allow_skipped,
            allow_unscored=options.allow_unscored,
        )
        if options.junit:
            from ragguard.replay import JUnitReport

            checks.junit = JUnitReport(", ".join(Path(p).name for p in inputs))
        return checks

    def on_evaluation(self, evaluation: Evaluation) -> None:
        if self.junit is not None:
            self.junit.add(evaluation, self.titles.pop(evaluation.trace_id, None))

    def title(self, trace: Trace) -> None:
        """Name ``trace``'s testcase by its query (a foreign row: its id is a hash)."""
        if self.junit is not None:
            self.titles[trace.trace_id] = trace.query

    def on_skipped(self, where: str, error: RagguardError) -> None:
        if self.junit is not None:
            self.junit.add_skipped(where, error)

    def finish(self, summary: RunSummary) -> tuple[str, int | None]:
        """The gates' lines for the summary (empty without gates) and the exit status they
        call for (None: no gate failed); the JUnit report written."""
        results = [gate.check(summary.values()) for gate in self.gates]
        read = InputCheck(
            summary.failed, summary.unscored(), self.allow_skipped, self.allow_unscored
        )
        check = read if results else None
        if self.junit is not None and self.junit_path is not None:
            with replaced_on_success(Path(self.junit_path)) as out:
                self.junit.write(out, results, check)
            self.junit.close()
        for result in results:
            if result.passed is None:
                why = result.describe().removeprefix("ERROR: ")
                print(
                    f"ragguard: error: the gate {result.gate.condition} cannot be checked: {why}",
                    file=sys.stderr,
                )
        for problem in check.problems() if check is not None else []:
            print(f"ragguard: error: the gates cannot pass: {problem}", file=sys.stderr)
        return gate_lines(results, check), gate_exit_status(results, check)


def gate_lines(results: Sequence[GateResult], check: InputCheck | None = None) -> str:
    if not results:
        return ""
    rows = [(r.gate.condition, r.describe()) for r in results]
    rows += [(check.condition, check.describe())] if check is not None else []
    width = max(len(condition) for condition, _ in rows)
    return "\n\ngates\n" + "\n".join(f"{c:<{width}}  {d}" for c, d in rows)


def gate_exit_status(results: Sequence[GateResult], check: InputCheck | None = None) -> int | None:
    """EXIT_ERROR when a gate could not be checked or the input was not all read and scored
    (and not allowed), EXIT_GATE when one failed."""
    if any(r.passed is None for r in results) or (check is not None and check.problems()):
        return EXIT_ERROR
    if any(r.passed is False for r in results):
        return EXIT_GATE
    return None
