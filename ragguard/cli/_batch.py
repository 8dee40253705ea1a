"""The batch run ``evaluate`` and ``replay`` share: typed options read once from the command
line, then one ritual (gates checked at start, self-calibration, the output's config, the
run on the chosen runner, the summary, the gates), so a command says only what it reads and
where it writes, and nothing below ``cli/`` sees an ``argparse.Namespace``."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ragguard.cli._common import (
    EXIT_OK,
    EXIT_SKIPPED,
    STDOUT,
    batched_outcomes,
    jsonl_sink,
    load_ray_run,
    open_runner,
    recorded_judge_scores,
    tally,
)
from ragguard.cli._gates import RunChecks

if TYPE_CHECKING:
    from ragguard.config import Config
    from ragguard.errors import RagguardError
    from ragguard.evaluation import Outcome
    from ragguard.metrics import RunSummary
    from ragguard.replay import Replay
    from ragguard.runners import RayRun
    from ragguard.runtime import LoggedTrace
    from ragguard.schema import Evaluation, Trace


@dataclasses.dataclass(frozen=True)
class RunOptions:
    """The options of a batch run, typed: built from argparse here and nowhere else."""

    config: str | None
    batch_size: int | None
    workers: int | None
    runner: Literal["local", "ray"]
    ray_address: str | None
    fail_over: tuple[str, ...]
    fail_under: tuple[str, ...]
    junit: str | None
    allow_skipped: bool = False
    allow_unscored: bool = False

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunOptions:
        return cls(
            config=args.config,
            batch_size=args.batch_size,
            workers=args.workers,
            runner=args.runner,
            ray_address=args.ray_address,
            fail_over=tuple(args.fail_over),
            fail_under=tuple(args.fail_under),
            junit=args.junit,
            allow_skipped=args.allow_skipped,
            allow_unscored=args.allow_unscored,
        )


@dataclasses.dataclass
class BatchRun:
    """One batch run: its options, the config as given (what the output records), its
    inputs and its gates. ``start`` checks the gates before any model loads; ``calibrated``
    runs the first pass of a self-calibrating config; ``evaluate`` runs the run proper."""

    options: RunOptions
    config: Config
    inputs: list[str]
    checks: RunChecks

    @classmethod
    def start(
        cls,
        options: RunOptions,
        inputs: Sequence[str],
        traces: Callable[[Config], Iterable[Trace]],
    ) -> BatchRun:
        """The config read, and the gates parsed and checked against ``traces`` (the input's
        traces, read with the config's limits) before anything is evaluated."""
        from ragguard.config import Config

        config = Config.coerce(options.config)
        checks = RunChecks.start(options, config, inputs, lambda: traces(config))
        return cls(options, config, list(inputs), checks)

    @property
    def name(self) -> str | None:
        """The config file's name, which the output records (None: the defaults)."""
        return self.options.config

    def warn_output(self, output: str, *, resuming: bool) -> None:
        """Warn when ``output`` was written under another config."""
        from ragguard.replay import check_output_config

        warning = check_output_config(Path(output), self.config, resuming=resuming)
        if warning:
            print(f"ragguard: warning: {warning}", file=sys.stderr)

    @contextlib.contextmanager
    def calibrated(
        self, first_pass: Iterable[Trace | RagguardError], total: int | None
    ) -> Iterator[tuple[Config, RunSummary]]:
        """The config the run proper starts from (the input's judge calibration fitted, when
        the config asks for one) and the run's summary, which counts the first pass's judge
        calls too."""
        from ragguard.cli._selfcal import self_calibrated
        from ragguard.metrics import RunSummary

        usage: Counter[str] = Counter()
        with self_calibrated(self.config, first_pass, total, usage) as calibrated:
            summary = RunSummary()
            summary.add_first_pass(usage)
            yield calibrated, summary

    def evaluate(
        self,
        config: Config,
        summary: RunSummary,
        *,
        entries: Iterable[tuple[str, Trace | RagguardError, LoggedTrace | None]],
        replay: Replay | None,
        total: int | None,
        out: tuple[str | None, str],
        on_evaluation: Callable[[LoggedTrace | None, Evaluation], object],
    ) -> tuple[str, str, int | None]:
        """Evaluate ``entries`` with ``config`` in this process or ``--workers`` processes,
        or the inputs on Ray; write each evaluation to ``out`` (path, file mode) in input
        order and record the config beside it. The summary, the gates' lines, and the exit
        status the gates call for."""
        with self._recorded_config(out):
            with contextlib.ExitStack() as stack:
                ray, load_s, how, outcomes = self._outcomes(stack, config, entries, replay)
                desc = "evaluating" if replay is None else "replaying"
                started = time.perf_counter()
                with jsonl_sink(*out) as write:
                    counted = tally(
                        outcomes,
                        total=total,
                        summary=summary,
                        desc=desc,
                        on_skipped=self.checks.on_skipped,
                    )
                    for tag, evaluation in counted:
                        write(evaluation)
                        on_evaluation(tag, evaluation)
                        self.checks.on_evaluation(evaluation)
                eval_s = time.perf_counter() - started
                if ray is not None:
                    load_s, eval_s = ray.timings()
            warning = summary.judge_warning()
            if warning is not None:
                print(f"ragguard: warning: {warning}", file=sys.stderr)
            text = summary.render(load_s, eval_s, how)
        gates, status = self.checks.finish(summary)
        return text, gates, status

    @contextlib.contextmanager
    def _recorded_config(self, out: tuple[str | None, str]) -> Iterator[None]:
        """Record the config beside the output file ``out`` (path, file mode) when the run
        finishes: a replaced output is this config's; an appended one is, even if cut
        short."""
        from ragguard.replay import record_output_config

        output, mode = out
        finished = False
        try:
            yield
            finished = True
        finally:
            if output not in (None, STDOUT) and (
                finished or (mode == "a" and Path(output).exists())
            ):
                record_output_config(Path(output), self.config, self.name)

    def _outcomes(
        self,
        stack: contextlib.ExitStack,
        config: Config,
        entries: Iterable[tuple[str, Trace | RagguardError, LoggedTrace | None]],
        replay: Replay | None,
    ) -> tuple[RayRun | None, float, str, Iterable[tuple[str, Outcome, LoggedTrace | None]]]:
        """(the Ray run or None, start-up seconds, how the run is spread, the outcomes): on
        Ray, or a runner in this process or ``--workers`` processes, entered on ``stack``."""
        options = self.options
        if options.runner == "ray":
            ray_run = load_ray_run()
            ray = stack.enter_context(
                ray_run(
                    config,
                    self.inputs,
                    replay,
                    address=options.ray_address,
                    workers=options.workers,
                    batch_size=options.batch_size,
                )
            )
            return ray, 0.0, ray.description, ray.outcomes()
        runner, how = stack.enter_context(open_runner(config, options.workers))
        if replay is not None:
            entries = recorded_judge_scores(runner, entries)
        load_s = runner.load()
        return None, load_s, how, batched_outcomes(runner, entries, options.batch_size)


def run_exit_status(summary: RunSummary, gate_status: int | None) -> int:
    """A failed gate's status, else EXIT_SKIPPED when a line was skipped, else EXIT_OK."""
    return gate_status or (EXIT_SKIPPED if summary.failed else EXIT_OK)
